/** Browser steps for subscribing: a cart set to subscription, the checkout, then the sandbox card form. */
import type { Page } from "playwright-core";
import { openSignedIn, registerCustomer } from "./accounts";
import { boxLine, fillCheckout, fillPhoneDocumentAndDelivery } from "./checkout-page";
import type { useBrowser } from "./e2e";

/** Two packs of 12 × 625 ml: S/ 60.00 a month (S/ 57.00 mensual, S/ 612.00 anual). */
export const subscriptionLine = {
  key: "1__v_1",
  productId: 1,
  variantId: 1,
  slug: "agua-alcalina-personal-625ml",
  title: "Agua alcalina personal 625 ml",
  image: null,
  price: 3000,
  variantTitle: "Pack x 12",
  quantity: 2,
};

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
  await submitSandboxCard(page, number, /Guardar tarjeta y pagar/);
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

export const APPROVED_CARD = "4111 1111 1111 1111";

/** Fills the sandbox card form (any future expiry, any CVV) and submits it. */
export async function submitSandboxCard(page: Page, number: string, button: RegExp | string = /^Guardar tarjeta/) {
  await page.getByLabel("Número de tarjeta").fill(number);
  await page.getByLabel("Vencimiento (MM/AA)").fill("12/30");
  await page.getByLabel("CVV").fill("123");
  await page.getByRole("button", { name: button }).click();
}

/**
 * Registers a new customer and subscribes them (mensual unless told) to one box of 20 L, delivered
 * on the first Wednesday offered in Miraflores, supporting the first organisation listed.
 */
export async function newSubscriber(shop: ReturnType<typeof useBrowser>, frequency: "mensual" | "anual" = "mensual") {
  const customer = await registerCustomer(shop.baseURL());
  const { page, close } = await openSignedIn(shop, customer.cookies);
  await page.goto(`${shop.baseURL()}/tienda`);
  await page.evaluate(
    ({ cart, frequency }) => {
      window.localStorage.setItem("va-cart:v1", JSON.stringify(cart));
      window.localStorage.setItem("va-purchase-type:v1", "subscription");
      window.localStorage.setItem("va-subscription-frequency:v1", frequency);
    },
    { cart: [boxLine], frequency },
  );
  await page.goto(`${shop.baseURL()}/checkout`);
  await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
  await fillPhoneDocumentAndDelivery(page);
  const organization = page.getByLabel("Organización que apoyarás (opcional)");
  await organization.selectOption({ index: 1 });
  const organizationTitle = (await organization.locator("option:checked").textContent())!.trim();
  await page.getByRole("button", { name: "Finalizar compra" }).click();
  await page.waitForURL(/\/suscripcion\/tarjeta\/[0-9a-f-]{36}$/);
  await submitSandboxCard(page, APPROVED_CARD);
  await page.waitForURL(/\/suscripcion\/bienvenido\?subscriptionId=/);
  const subscriptionId = new URL(page.url()).searchParams.get("subscriptionId")!;
  await close();
  return { ...customer, subscriptionId, organizationTitle, detailPath: `/dashboard/suscripciones/${subscriptionId}` };
}
