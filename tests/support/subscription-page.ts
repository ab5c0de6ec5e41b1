/** A subscriber made the way a customer becomes one: a cart, the checkout as a subscription, the sandbox card page. */
import type { Page } from "playwright-core";
import { openSignedIn, registerCustomer } from "./accounts";
import { boxLine, fillPhoneDocumentAndDelivery } from "./checkout-page";
import type { useBrowser } from "./e2e";

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
