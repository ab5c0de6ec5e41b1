/** Browser steps to a subscription waiting for its card: cart and purchase type stored, checkout filled in. */
import type { Page } from "playwright-core";
import { fillCheckout, openCheckoutWithCart } from "./checkout-page";

/** The signed-in customer subscribes (mensual by default) and lands on /suscripcion/tarjeta/{id}; returns the id. */
export async function subscribeUpToCardPage(page: Page, baseURL: string, options: { email: string; frequency?: "mensual" | "anual" }): Promise<string> {
  await page.goto(`${baseURL}/tienda`);
  await page.evaluate((frequency) => {
    window.localStorage.setItem("va-purchase-type:v1", "subscription");
    window.localStorage.setItem("va-subscription-frequency:v1", frequency);
  }, options.frequency ?? "mensual");
  await openCheckoutWithCart(page, baseURL);
  await fillCheckout(page);
  await page.getByLabel("Correo electrónico").fill(options.email);
  await page.getByRole("button", { name: "Finalizar compra" }).click();
  await page.waitForURL(/\/suscripcion\/tarjeta\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split("/").pop()!;
}
