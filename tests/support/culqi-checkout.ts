/** A guest's order paid by card through Culqi's checkout against the local Culqi server. */
import type { Page } from "playwright-core";
import { checkoutInput, type CheckoutOverrides } from "./checkout-fixture";
import type { CulqiMock } from "./culqi-mock";
import { bookableDates } from "./lima-clock";

/** What Culqi's widget callback does: post the token to the payment page's action, then follow where it leads. */
export async function postTokenAsCulqiWould(page: Page, token: string) {
  await page.evaluate(async (tokenId) => {
    const body = new FormData();
    body.set("token", tokenId);
    const response = await fetch(window.location.pathname, { method: "POST", body, redirect: "follow" });
    window.location.href = response.url;
  }, token);
}

/**
 * A paid order without a browser: the checkout's JSON post, then the token posted to the
 * payment page as Culqi's widget callback does (about 1.5 s less per order on the loaded machine).
 * For tests whose subject is what happens after the payment; culqi-provider.test.ts drives these
 * pages in Chromium. A guest in Miraflores, on the first Wednesday with room in the morning window.
 */
export async function culqiPaidOrder(
  baseURL: string,
  culqi: CulqiMock,
  overrides: CheckoutOverrides = {},
): Promise<{ orderId: string; chargeId: string; deliveryDate: string }> {
  let paymentPath: string | null = null;
  let deliveryDate = "";
  for (const fecha of bookableDates(3, new Date(), 4)) {
    const placed = await fetch(`${baseURL}/checkout`, {
      method: "POST",
      headers: { Origin: baseURL, "Content-Type": "application/json" },
      body: JSON.stringify(checkoutInput(new Date(), { fecha, ...overrides })),
      redirect: "manual",
    });
    if (placed.status === 302) {
      paymentPath = placed.headers.get("location");
      deliveryDate = fecha;
      break;
    }
    if (placed.status !== 400) throw new Error(`The checkout answered ${placed.status}`);
  }
  if (!paymentPath?.startsWith("/pago/culqi/")) throw new Error(`The checkout did not lead to Culqi's payment page: ${paymentPath}`);
  const token = await culqi.tokenize("4111111111111111", "rosa@example.pe");
  const paid = await fetch(`${baseURL}${paymentPath}`, {
    method: "POST",
    headers: { Origin: baseURL, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
    redirect: "manual",
  });
  const success = new URL(paid.headers.get("location") ?? "/", baseURL);
  const orderId = success.searchParams.get("orderId");
  if (paid.status !== 302 || success.pathname !== "/success" || !orderId) throw new Error(`Paying through Culqi answered ${paid.status} ${success.pathname}`);
  const charge = [...culqi.charges.values()].find((candidate) => (candidate.metadata as Record<string, string>).order_id === orderId);
  if (!charge) throw new Error(`No Culqi charge for order ${orderId}`);
  return { orderId, chargeId: String(charge.id), deliveryDate };
}
