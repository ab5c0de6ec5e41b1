import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import boxLine from "../fixtures/box-cart-line.json";
import { MOBILE } from "../support/browser";
import { useBrowser, waitForHydration } from "../support/e2e";

/** Puts lines straight into the browser's stored cart, as an earlier visit would have left them. */
async function seedCart(page: Page, baseURL: string, items: unknown[]) {
  await page.goto(`${baseURL}/tienda`);
  await page.evaluate((stored) => window.localStorage.setItem("va-cart:v1", JSON.stringify(stored)), items);
}

const line = (overrides: Record<string, unknown>) => ({ ...boxLine, ...overrides });

describe("cart", () => {
  const shop = useBrowser();

  it("shows lines, totals and the one-time summary, and updates them with quantity and removal", async () => {
    const { page, expectClean, close } = await shop.open();
    await seedCart(page, shop.baseURL(), [
      line({}),
      line({
        key: "1__v_1",
        productId: 1,
        variantId: 1,
        slug: "agua-alcalina-personal-625ml",
        title: "Agua alcalina personal 625 ml",
        variantTitle: "Pack x 12",
        price: 3000,
      }),
    ]);
    await page.goto(`${shop.baseURL()}/carrito`);
    await waitForHydration(page);
    await page.getByTestId("cart-line").first().waitFor();
    expect(await page.getByTestId("cart-line").count()).toBe(2);
    expect(await page.getByTestId("summary-total").textContent()).toBe("S/ 89.90");
    await page.getByRole("button", { name: "Aumentar cantidad" }).first().click();
    await page.getByTestId("summary-total").filter({ hasText: "S/ 149.80" }).waitFor();
    await page.getByRole("button", { name: "Quitar" }).first().click();
    await page.getByTestId("summary-total").filter({ hasText: "S/ 30.00" }).waitFor();
    expect(await page.getByTestId("cart-count").textContent()).toBe("1");
    expectClean();
    await close();
  });

  it("applies the subscription discounts of the spec to the summary", async () => {
    const { page, close } = await shop.open(MOBILE);
    await seedCart(page, shop.baseURL(), [line({ quantity: 2 })]);
    await page.goto(`${shop.baseURL()}/carrito`);
    await waitForHydration(page);
    await page.getByLabel(/Suscripción/).check();
    expect(await page.getByTestId("summary-discount").textContent()).toBe("- S/ 5.99");
    expect(await page.getByTestId("summary-total").textContent()).toBe("S/ 113.81");
    await page.getByLabel("Frecuencia").selectOption("anual");
    expect(await page.getByTestId("summary-subtotal").textContent()).toBe("S/ 1,437.60");
    expect(await page.getByTestId("summary-total").textContent()).toBe("S/ 1,221.96");
    // The choice is remembered for the next visit.
    await page.reload();
    await waitForHydration(page);
    expect(await page.getByTestId("summary-purchase").textContent()).toBe("Suscripción Anual");
    await close();
  });

  it("opens 'Pedido Mínimo Requerido' under S/ 50 and goes to the checkout above it", async () => {
    const { page, expectClean, close } = await shop.open();
    await seedCart(page, shop.baseURL(), [
      line({
        key: "3__v_7",
        productId: 3,
        variantId: 7,
        slug: "agua-alcalina-familiar-8l",
        title: "Agua alcalina familiar 8 L",
        variantTitle: "1 unidad",
        price: 1590,
      }),
    ]);
    await page.goto(`${shop.baseURL()}/carrito`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Realizar pedido" }).click();
    const dialog = page.getByRole("dialog", { name: "Pedido Mínimo Requerido" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("S/ 50.00");
    expect(await dialog.textContent()).toContain("S/ 15.90");
    expect(await dialog.textContent()).toContain("Te faltan: S/ 34.10");
    await dialog.getByRole("button", { name: "Cerrar" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Realizar pedido" }).click();
    await dialog.getByRole("link", { name: "Seguir Comprando" }).click();
    await page.getByRole("heading", { level: 1, name: "Nuestros productos" }).waitFor();
    expectClean();
    await close();
  });

  it("draws the page so that the stored cart's lines appear after hydration without moving what the visitor sees", async () => {
    const { page, expectClean, close } = await shop.open(MOBILE);
    await seedCart(page, shop.baseURL(), [line({})]);
    // Every layout shift of the page, as Lighthouse's CLS counts them (none follows an input here).
    await page.addInitScript(() => {
      const shifts: number[] = [];
      Object.assign(window, { layoutShifts: shifts });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    // The page's modules wait until the server-drawn page has been looked at, as on a slow phone.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/[^?]+\.js(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${shop.baseURL()}/carrito`, { waitUntil: "commit" });
    // The site footer (the page sits in the leaving-page guard, so it is not a child of body).
    const footer = page.getByRole("contentinfo");
    await footer.waitFor({ state: "attached" });
    await page.getByText("Cargando tu carrito…").waitFor();
    const before = await footer.evaluate((element) => ({ top: element.getBoundingClientRect().top, screen: window.innerHeight }));
    // Below the first screen while the cart is being read…
    expect(before.top).toBeGreaterThanOrEqual(before.screen);
    release();
    await waitForHydration(page);
    await page.getByTestId("cart-line").waitFor();
    // …and the lines pushed it further down, never up into view.
    expect(await footer.evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThanOrEqual(before.top);
    // Shifts are reported after the frame that drew them.
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              setTimeout(() => resolve((window as unknown as { layoutShifts: number[] }).layoutShifts.reduce((sum, value) => sum + value, 0))),
            ),
          ),
        ),
    );
    expect(shift).toBeLessThan(0.01);
    expectClean();
    await close();
  });

  it("corrects a changed price and drops a line that can no longer be bought, saying so", async () => {
    const { page, expectClean, close } = await shop.open();
    await seedCart(page, shop.baseURL(), [
      line({ price: 4990 }),
      line({
        key: "5__v_15",
        productId: 5,
        variantId: 15,
        slug: "bidon-retornable-oficina-20l",
        title: "Bidón retornable oficina 20 L",
        variantTitle: "Pack 20 recargas",
        price: 38000,
      }),
    ]);
    await page.goto(`${shop.baseURL()}/carrito`);
    await waitForHydration(page);
    const notes = page.getByTestId("cart-notes");
    await notes.waitFor();
    await notes.getByText("ya no está disponible").waitFor();
    expect(await notes.textContent()).toContain("El precio de Caja de 20 L con dispensador cambió de S/ 49.90 a S/ 59.90.");
    expect(await notes.textContent()).toContain("Bidón retornable oficina 20 L (Pack 20 recargas) ya no está disponible y lo quitamos de tu carrito.");
    expect(await page.getByTestId("cart-line").count()).toBe(1);
    expect(await page.getByTestId("cart-line-price").textContent()).toBe("S/ 59.90");
    expectClean();
    await close();
  });
});
