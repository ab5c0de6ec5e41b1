import { describe, expect, it } from "vitest";
import { DESKTOP, expectPageError, MOBILE, NOT_FOUND_DOCUMENT } from "../support/browser";
import { jsonLd, useBrowser, waitForHydration } from "../support/e2e";

describe("shop and product pages", () => {
  const shop = useBrowser();

  it("shows the product grid with the minimum-order note and price ranges", async () => {
    const { page, expectClean, close } = await shop.open();
    const response = await page.goto(`${shop.baseURL()}/tienda`);
    expect(response?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toBe("Nuestros productos");
    expect(await page.getByText("(Mínimo de compra S/50)").count()).toBe(1);
    const cards = page.getByTestId("product-card");
    expect(await cards.count()).toBe(6);
    expect(await cards.locator("h2").allTextContents()).toEqual([
      "Agua alcalina personal 625 ml",
      "Agua alcalina sport 1 L",
      "Agua alcalina familiar 8 L",
      "Bidón retornable hogar 20 L",
      "Bidón retornable oficina 20 L",
      "Caja de 20 L con dispensador",
    ]);
    const prices = await page.getByTestId("product-card-price").allTextContents();
    expect(prices[0]).toBe("S/ 30.00 - S/ 105.00");
    expect(prices[4]).toBe("S/ 84.00 - S/ 199.00");
    expect(prices[5]).toBe("S/ 59.90");
    expectClean();
    await close();
  });

  it("lays the grid out in 2, 3 and 4 columns by width", async () => {
    for (const [width, columns] of [
      [390, 2],
      [800, 3],
      [1280, 4],
    ] as const) {
      const { page, close } = await shop.open({ viewport: { width, height: 900 } });
      await page.goto(`${shop.baseURL()}/tienda`);
      const template = await page.getByTestId("product-grid").evaluate((grid) => getComputedStyle(grid).gridTemplateColumns);
      expect(template.split(" ").length, `columns at ${width}px`).toBe(columns);
      await close();
    }
  });

  it("opens a product from its card, selects the first active variant and changes it", async () => {
    const { page, expectClean, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/tienda`);
    await waitForHydration(page);
    await page.getByRole("link", { name: "Bidón retornable oficina 20 L" }).click();
    await page.getByRole("heading", { level: 1, name: "Bidón retornable oficina 20 L" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/tienda/producto/bidon-retornable-oficina-20l");
    const variants = page.getByRole("list", { name: "Presentación" }).getByRole("link");
    expect(await variants.allTextContents()).toEqual(["Pack 4 recargas", "Pack 10 recargas"]);
    expect(await variants.first().getAttribute("aria-current")).toBe("true");
    expect(await page.getByTestId("product-price").textContent()).toBe("S/ 84.00");
    expect(await page.getByTestId("product-sku").textContent()).toBe("VA-BO20-R4");
    await variants.nth(1).click();
    await page.getByTestId("product-price").filter({ hasText: "S/ 199.00" }).waitFor();
    expect(await page.getByTestId("product-sku").textContent()).toBe("VA-BO20-R10");
    expect(await page.getByRole("row", { name: /Peso/ }).textContent()).toContain("20.8kg");
    expect(await page.getByRole("row", { name: /Dimensiones/ }).textContent()).toContain("27 x 49 x 27cm");
    expectClean();
    await close();
  });

  it("adds the chosen variant and quantity to the cart and counts it in the header, across reloads and tabs", async () => {
    const { page, expectClean, close } = await shop.open(MOBILE);
    await page.goto(`${shop.baseURL()}/tienda/producto/agua-alcalina-personal-625ml?variante=2`);
    await waitForHydration(page);
    const decrease = page.getByRole("button", { name: "Disminuir cantidad" });
    expect(await decrease.isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Aumentar cantidad" }).click();
    await page.getByRole("button", { name: "Aumentar cantidad" }).click();
    await decrease.click();
    await page.getByRole("button", { name: "Aumentar cantidad" }).click();
    expect(await page.getByRole("spinbutton", { name: "Cantidad" }).inputValue()).toBe("3");
    await page.getByRole("button", { name: "Añadir al carrito" }).click();
    await page.getByRole("heading", { name: "Tu carrito" }).waitFor();
    const line = page.getByTestId("cart-line");
    expect(await line.count()).toBe(1);
    expect(await line.textContent()).toContain("Pack x 24");
    expect(await page.getByTestId("cart-line-total").textContent()).toBe("S/ 168.00");
    expect(await page.getByTestId("cart-count").textContent()).toBe("3");

    await page.goto(`${shop.baseURL()}/tienda`);
    await waitForHydration(page);
    expect(await page.getByTestId("cart-count").textContent()).toBe("3");

    const other = await page.context().newPage();
    await other.goto(`${shop.baseURL()}/tienda/producto/caja-20l-con-dispensador`);
    await waitForHydration(other);
    await other.getByRole("button", { name: "Añadir al carrito" }).click();
    await page.getByTestId("cart-count").filter({ hasText: "4" }).waitFor();
    expectClean();
    await close();
  });

  it("keeps the info table's fixed texts as fallback and a dash for a missing SKU", async () => {
    const { page, close } = await shop.open(DESKTOP);
    await page.goto(`${shop.baseURL()}/tienda/producto/caja-20l-con-dispensador`);
    expect(await page.getByTestId("product-price").textContent()).toBe("S/ 59.90");
    expect(await page.getByRole("list", { name: "Presentación" }).count()).toBe(0);
    expect(await page.getByTestId("product-sku").textContent()).toBe("VA-CX20");
    await close();
  });

  it("describes the product to search engines with a Product and an Offer in PEN", async () => {
    const { page, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/tienda/producto/caja-20l-con-dispensador`);
    const product = (await jsonLd(page)).find((block) => block["@type"] === "Product");
    expect(product).toMatchObject({
      name: "Caja de 20 L con dispensador",
      sku: "VA-CX20",
      offers: { "@type": "Offer", price: "59.90", priceCurrency: "PEN" },
    });
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${shop.baseURL()}/tienda/producto/caja-20l-con-dispensador`);
    await page.goto(`${shop.baseURL()}/tienda/producto/agua-alcalina-personal-625ml?variante=2`);
    const ranged = (await jsonLd(page)).find((block) => block["@type"] === "Product");
    expect(ranged).toMatchObject({ offers: { "@type": "AggregateOffer", lowPrice: "30.00", highPrice: "105.00", priceCurrency: "PEN" } });
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${shop.baseURL()}/tienda/producto/agua-alcalina-personal-625ml`);
    await close();
  });

  it("answers 404 in Spanish for an unknown product, and sends /tienda/producto without a product to /tienda", async () => {
    const { page, close } = await shop.open();
    expectPageError(NOT_FOUND_DOCUMENT);
    const missing = await page.goto(`${shop.baseURL()}/tienda/producto/no-existe`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Página no encontrada");
    await page.goto(`${shop.baseURL()}/tienda/producto`);
    expect(new URL(page.url()).pathname).toBe("/tienda");
    expect(await page.locator("h1").textContent()).toBe("Nuestros productos");
    await close();
  });

  it("sends an empty cart to /tienda before the cart page paints", async () => {
    const { page, expectClean, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/carrito`);
    await page.waitForURL(/\/tienda$/);
    await page.getByRole("heading", { level: 1, name: "Nuestros productos" }).waitFor();
    // The document itself went to /tienda (issue 13), not a client-side navigation after hydration.
    expect(await page.evaluate(() => new URL(performance.getEntriesByType("navigation")[0]!.name).pathname)).toBe("/tienda");
    // The cart page never painted, so /tienda is the page that greets with the splash (decision 0054).
    expect(await page.evaluate(() => document.documentElement.hasAttribute("data-splash-seen"))).toBe(false);
    expectClean();
    await close();
  });
});
