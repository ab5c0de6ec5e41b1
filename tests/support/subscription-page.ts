/** Browser steps for subscribing: a cart set to subscription, the checkout, then the sandbox card form. */
import type { Page } from "playwright-core";
import { fillCheckout } from "./checkout-page";

/** Two packs of 12 × 625 ml: S/ 60.00 a month (S/ 57.00 mensual, S/ 612.00 anual). */
export const subscriptionLine = { key: "1__v_1", productId: 1, variantId: 1, slug: "agua-alcalina-personal-625ml", title: "Agua alcalina personal 625 ml", image: null, price: 3000, variantTitle: "Pack x 12", quantity: 2 };

export async function openSubscriptionCheckout(page: Page, baseURL: string, frequency: "mensual" | "anual" = "mensual") {
  await page.goto(`${baseURL}/tienda`);
  await page.evaluate(
    ({ line, frequency }) => {
      window.localStorage.setItem("va-cart:v1", JSON.stringify([line]));
      window.localStorage.setItem("va-purchase-type:v1", "subscription");
      window.localStorage.setItem("va-subscription-frequency:v1", frequency);
    },
    { line: subscriptionLine, frequency },
  );
  await page.goto(`${baseURL}/checkout`);
  await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
  await page.getByLabel("Nombre", { exact: true }).waitFor();
}

/** From the checkout to the card page, with the form filled as a Miraflores customer. */
export async function placeSubscriptionOrder(page: Page, email?: string) {
  await fillCheckout(page);
  if (email) await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Finalizar compra" }).click();
  await page.getByRole("heading", { name: "Registra tu tarjeta" }).waitFor();
}

export async function payWithSandboxCard(page: Page, number: string) {
  await page.getByLabel("Número de tarjeta").fill(number);
  await page.getByLabel("Vencimiento (MM/AA)").fill("12/30");
  await page.getByLabel("CVV").fill("123");
  await page.getByRole("button", { name: /Guardar tarjeta y pagar/ }).click();
}

/** The signed-in customer subscribes (mensual by default) and lands on /suscripcion/tarjeta/{id}; returns the id. */
export async function subscribeUpToCardPage(page: Page, baseURL: string, options: { email: string; frequency?: "mensual" | "anual" }): Promise<string> {
  await openSubscriptionCheckout(page, baseURL, options.frequency ?? "mensual");
  await fillCheckout(page);
  await page.getByLabel("Correo electrónico").fill(options.email);
  await page.getByRole("button", { name: "Finalizar compra" }).click();
  await page.waitForURL(/\/suscripcion\/tarjeta\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split("/").pop()!;
}
