import { describe, expect, it } from "vitest";
import { useBrowser } from "../support/e2e";

/** Crawlers and visitors without JavaScript get complete server-rendered pages. */
describe("without JavaScript", () => {
  const shop = useBrowser();

  it("shows the home page, the footer districts and no hidden section", async () => {
    const { page, close } = await shop.open({ javaScriptEnabled: false, reducedMotion: "no-preference" });
    await page.goto(`${shop.baseURL()}/`);
    expect(await page.getByRole("heading", { name: "Cada gota transforma" }).isVisible()).toBe(true);
    expect(await page.locator('[data-reveal="hidden"]').count()).toBe(0);
    expect(await page.getByTestId("footer-district-row").count()).toBe(3);
    // The splash is timed by CSS alone, so it also goes away without JavaScript.
    await page.getByTestId("splash").waitFor({ state: "hidden" });
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
          .map((animation) => animation.finished),
      ),
    );
    expect(await page.locator("main").evaluate((main) => getComputedStyle(main.parentElement!).opacity)).toBe("1");
    await close();
  });

  it("shows products with prices and lets the visitor switch variants through links", async () => {
    const { page, close } = await shop.open({ javaScriptEnabled: false });
    await page.goto(`${shop.baseURL()}/tienda`);
    expect(await page.getByTestId("product-card").count()).toBe(6);
    await page.getByRole("link", { name: "Agua alcalina sport 1 L" }).click();
    await page.waitForURL(/agua-alcalina-sport-1l$/);
    expect(await page.getByTestId("product-price").textContent()).toBe("S/ 24.00");
    await page.getByRole("link", { name: "Pack x 24" }).click();
    await page.waitForURL(/variante=/);
    expect(await page.getByTestId("product-price").textContent()).toBe("S/ 86.00");
    await close();
  });

  it("shows the organisations and the first history slide on /nosotros", async () => {
    const { page, close } = await shop.open({ javaScriptEnabled: false });
    await page.goto(`${shop.baseURL()}/nosotros`);
    expect(await page.getByTestId("organization-cards").locator("li").count()).toBe(4);
    expect(await page.getByTestId("history-current").locator("h3").textContent()).toContain("Marzo 2025");
    expect(await page.getByTestId("organization-skeletons").count()).toBe(0);
    await close();
  });

  it("opens the mobile menu", async () => {
    const { page, close } = await shop.open({ javaScriptEnabled: false, viewport: { width: 390, height: 800 } });
    await page.goto(`${shop.baseURL()}/`);
    await page.getByTestId("mobile-menu").locator("summary").click();
    expect(await page.getByRole("link", { name: "Iniciar sesión" }).isVisible()).toBe(true);
    await close();
  });
});
