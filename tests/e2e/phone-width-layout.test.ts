import { describe, expect, it } from "vitest";
import { expectPageError, MOBILE, NOT_FOUND_DOCUMENT } from "../support/browser";
import { boxLine, fillCheckout, openCheckoutWithCart } from "../support/checkout-page";
import { useBrowser, waitForHydration } from "../support/e2e";
import { auditLayout, type LayoutProblem } from "../support/layout-audit";

/** A product with a price range (S/ 30.00 - S/ 105.00), the widest text a cart line shows. */
const rangeLine = {
  key: "1__v_3",
  productId: 1,
  variantId: 3,
  slug: "agua-alcalina-personal-625ml",
  title: "Agua alcalina personal 625 ml",
  image: null,
  price: 10500,
  variantTitle: "Pack x 48",
  quantity: 1,
};
const cart = [boxLine, rangeLine];

describe("every public page on a phone", () => {
  const shop = useBrowser();

  it("shows all its text uncut and keeps prices and buttons out from under the chat button, at 390 and 360 px", async () => {
    const { page, close } = await shop.open(MOBILE);
    const base = shop.baseURL();

    // The pages reached by a purchase: the sandbox payment page, /success and the order's page.
    await openCheckoutWithCart(page, base, cart);
    await fillCheckout(page);
    await page.getByRole("button", { name: "Finalizar compra" }).click();
    await page.getByRole("button", { name: "Simular pago exitoso" }).waitFor();
    const paymentPath = new URL(page.url()).pathname;
    await page.getByRole("button", { name: "Simular pago exitoso" }).click();
    await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
    const successPath = new URL(page.url()).pathname + new URL(page.url()).search;
    const orderId = new URL(page.url()).searchParams.get("orderId")!;

    await page.goto(`${base}/tienda`);
    const productPaths = await page
      .getByTestId("product-card")
      .locator("a")
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    expect(productPaths.length).toBeGreaterThanOrEqual(6);

    const paths = [
      "/",
      "/nosotros",
      "/tienda",
      ...productPaths,
      "/carrito",
      "/checkout",
      paymentPath,
      successPath,
      `/orden/${orderId}`,
      "/pago-error",
      "/gracias",
      "/login",
      "/register",
      "/forgot-password",
      "/reset-password?token=enlace-vencido",
      "/terminos",
      "/privacidad",
      "/esta-pagina-no-existe",
    ];
    // The last page is the 404 page, which Chromium logs.
    expectPageError(NOT_FOUND_DOCUMENT);

    const problems: (LayoutProblem & { page: string })[] = [];
    // Each page loaded once, at 360 px, then audited again at 390 px after the screen widens (the
    // layout follows CSS: media queries and flow, redone at once; two frames let a resize listener run).
    for (const path of paths) {
      await page.setViewportSize({ width: 360, height: 844 });
      if (path === "/carrito" || path === "/checkout") await page.evaluate((stored) => window.localStorage.setItem("va-cart:v1", JSON.stringify(stored)), cart);
      const response = await page.goto(`${base}${path}`);
      expect(response?.status(), path).toBe(path === "/esta-pagina-no-existe" ? 404 : 200);
      await waitForHydration(page);
      if (path === "/carrito") await page.getByTestId("cart-line").first().waitFor();
      if (path === "/checkout") await page.getByLabel("Nombre", { exact: true }).waitFor();
      for (const width of [360, 390]) {
        if (width !== 360) {
          await page.setViewportSize({ width, height: 844 });
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        }
        for (const problem of await auditLayout(page)) problems.push({ page: `${width}px ${path}`, ...problem });
      }
    }
    expect(problems).toEqual([]);
    await close();
  });
});
