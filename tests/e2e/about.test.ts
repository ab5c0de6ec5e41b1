import { describe, expect, it } from "vitest";
import { useBrowser, waitForHydration } from "../support/e2e";

describe("about page", () => {
  const shop = useBrowser();

  it("shows the hero, organisations, pillars, comparison and community call to action", async () => {
    const { page, expectClean, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/nosotros`);
    expect(await page.locator("h1").textContent()).toBe("Somos agua de vida");
    expect(await page.getByTestId("organization-cards").locator("h3").allTextContents()).toEqual([
      "Bosques Vivos Lima",
      "Red de Comedores Populares",
      "Playas Limpias Perú",
      "Agua para Escuelas",
    ]);
    for (const pillar of ["Producto", "Compromiso Social", "Sostenibilidad", "Somos Agua"]) {
      expect(await page.getByRole("heading", { level: 3, name: pillar, exact: true }).count()).toBe(1);
    }
    expect(await page.getByRole("link", { name: "Compra y suscríbete" }).count()).toBe(2);
    expect(await page.getByRole("table").getByRole("columnheader").allTextContents()).toEqual(["Característica", "Agua normal", "Agua alcalina"]);
    expect(await page.getByRole("link", { name: "Haz tu compra" }).getAttribute("href")).toBe("/tienda");
    expectClean();
    await close();
  });

  it("scrolls eight values repeated four times, at 2 s, 20 s and 28 s by width", async () => {
    for (const [width, duration] of [
      [390, "2s"],
      [900, "20s"],
      [1280, "28s"],
    ] as const) {
      const { page, close } = await shop.open({ viewport: { width, height: 800 }, reducedMotion: "no-preference" });
      await page.goto(`${shop.baseURL()}/nosotros`);
      const track = page.getByTestId("values-strip").locator("ul");
      expect(await track.locator("li").count()).toBe(32);
      expect(await track.evaluate((element) => getComputedStyle(element).animationDuration), `at ${width}px`).toBe(duration);
      await close();
    }
    const { page, close } = await shop.open({ reducedMotion: "reduce" });
    await page.goto(`${shop.baseURL()}/nosotros`);
    expect(
      await page
        .getByTestId("values-strip")
        .locator("ul")
        .evaluate((element) => getComputedStyle(element).animationName),
    ).toBe("none");
    await close();
  });

  it("advances the history carousel every 3.5 s, pauses on hover and wraps both ways", async () => {
    const { page, expectClean, close } = await shop.open({ reducedMotion: "no-preference" });
    await page.clock.install();
    await page.goto(`${shop.baseURL()}/nosotros`);
    await waitForHydration(page);
    const carousel = page.getByTestId("history-carousel");
    const title = page.getByTestId("history-current").locator("h3");
    expect(await title.textContent()).toBe("Marzo 2025: nace nuestra presentación personal");

    await page.clock.runFor(3500);
    await title.filter({ hasText: "Junio 2025" }).waitFor();

    await carousel.hover();
    await page.clock.runFor(10_000);
    expect(await title.textContent()).toContain("Junio 2025");
    await page.mouse.move(0, 0);
    await page.clock.runFor(3500);
    await title.filter({ hasText: "Octubre 2025" }).waitFor();

    await page.getByRole("button", { name: /^Siguiente/ }).click();
    await page.getByRole("button", { name: /^Siguiente/ }).click();
    await title.filter({ hasText: "Marzo 2025" }).waitFor();
    await page.getByRole("button", { name: /^Anterior/ }).click();
    await title.filter({ hasText: "2026: una comunidad que suma" }).waitFor();
    await page.getByRole("button", { name: "Ir a: Junio 2025: nuevos puntos de distribución" }).click();
    await title.filter({ hasText: "Junio 2025" }).waitFor();
    const dots = page.getByRole("group", { name: "Diapositivas" }).getByRole("button");
    expect(await dots.count()).toBe(4);
    expect(await dots.nth(1).getAttribute("aria-current")).toBe("true");
    expectClean();
    await close();
  });
});
