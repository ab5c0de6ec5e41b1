/** A guest's order paid by card through Culqi's checkout against the local Culqi server. */
import type { Browser, Page } from "playwright-core";
import { openPage } from "./browser";
import { fillCheckout, openCheckoutWithCart } from "./checkout-page";
import type { CulqiMock } from "./culqi-mock";

/**
 * Culqi's widget is refused (no network to js.culqi.com); the token is posted as its callback
 * would. Returns the order and the Culqi charge that paid it.
 */
export async function culqiPaidOrder(
  browser: Browser,
  baseURL: string,
  culqi: CulqiMock,
  fill: (page: Page) => Promise<void> = fillCheckout,
): Promise<{ orderId: string; chargeId: string }> {
  const { page, close } = await openPage(browser);
  await page.route(
    (url) => url.hostname === "js.culqi.com" || url.hostname === "3ds.culqi.com",
    (route) => route.abort(),
  );
  await openCheckoutWithCart(page, baseURL);
  await fill(page);
  await page.getByRole("button", { name: "Finalizar compra" }).click();
  await page.getByRole("heading", { name: /Pagar pedido VA-/ }).waitFor();
  const token = await culqi.tokenize("4111111111111111", "rosa@example.pe");
  await postTokenAsCulqiWould(page, token);
  await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
  const orderId = new URL(page.url()).searchParams.get("orderId")!;
  await close();
  const charge = [...culqi.charges.values()].find((candidate) => (candidate.metadata as Record<string, string>).order_id === orderId);
  if (!charge) throw new Error(`No Culqi charge for order ${orderId}`);
  return { orderId, chargeId: String(charge.id) };
}

/** What Culqi's widget callback does: post the token to the payment page's action, then follow where it leads. */
export async function postTokenAsCulqiWould(page: Page, token: string) {
  await page.evaluate(async (tokenId) => {
    const body = new FormData();
    body.set("token", tokenId);
    const response = await fetch(window.location.pathname, { method: "POST", body, redirect: "follow" });
    window.location.href = response.url;
  }, token);
}
