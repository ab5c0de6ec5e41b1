/** Browser steps for subscribing: a cart set to subscription, the checkout, then the sandbox card form. */
import type { Page } from "playwright-core";
import { cookieHeader, registerCustomer, type SessionCookie } from "./accounts";
import { checkoutInput } from "./checkout-fixture";
import { fillCheckout } from "./checkout-page";
import type { useBrowser } from "./e2e";
import { bookableDates } from "./lima-clock";

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
 * The signed-in customer's subscription checkout as the checkout page posts it (one box of 20 L, the
 * first Wednesday with room in the morning window in Miraflores), without a browser; returns the
 * card page's path (/suscripcion/tarjeta/{id}). subscriptions.test.ts drives that checkout in Chromium.
 */
export async function placeSubscriptionOverHttp(
  baseURL: string,
  customer: { email: string; cookies: SessionCookie[] },
  options: { frequency?: "mensual" | "anual"; organizationId?: number } = {},
): Promise<string> {
  for (const fecha of bookableDates(3, new Date(), 4)) {
    const body = checkoutInput(new Date(), {
      purchaseType: "subscription",
      subscriptionFrequency: options.frequency ?? "mensual",
      correo: customer.email,
      fecha,
      ...(options.organizationId === undefined ? {} : { organizationId: options.organizationId }),
    });
    const placed = await fetch(`${baseURL}/checkout`, {
      method: "POST",
      headers: { Origin: baseURL, Cookie: cookieHeader(customer.cookies), "Content-Type": "application/json" },
      body: JSON.stringify(body),
      redirect: "manual",
    });
    const cardPath = placed.headers.get("location");
    if (placed.status === 302 && cardPath?.startsWith("/suscripcion/tarjeta/")) return cardPath;
    if (placed.status !== 400) throw new Error(`The subscription checkout answered ${placed.status} ${cardPath}`);
  }
  throw new Error("The subscription checkout found no Wednesday with room");
}

/**
 * Registers a new customer and subscribes them (mensual unless told) to one box of 20 L, delivered
 * on the first Wednesday offered in Miraflores, supporting the first organisation listed on
 * /nosotros. Through the same HTTP requests the checkout and the sandbox card form send, without a
 * browser: about 1.5 s less per subscriber (docs/decisions/0056-test-suite-budget.md). The pages of
 * that journey are driven in the browser by subscriptions.test.ts.
 */
export async function newSubscriber(shop: ReturnType<typeof useBrowser>, frequency: "mensual" | "anual" = "mensual") {
  const baseURL = shop.baseURL();
  const customer = await registerCustomer(baseURL);
  const headers = { Origin: baseURL, Cookie: cookieHeader(customer.cookies) };
  const about = await (await fetch(`${baseURL}/nosotros`, { headers })).text();
  // The first "Votar" button names the first organisation (React separates its two texts with an empty comment).
  const firstOrganization = /<button([^>]*)>Votar<span class="sr-only"> por (?:<!-- -->)?([^<]+)<\/span>/.exec(about);
  const organizationId = firstOrganization && /\bvalue="(\d+)"/.exec(firstOrganization[1]!)?.[1];
  if (!firstOrganization || !organizationId)
    throw new Error(`No organisation to vote for on /nosotros: ${/.{0,200}organizationId.{0,200}/.exec(about)?.[0] ?? about.slice(0, 300)}`);
  const organizationTitle = firstOrganization[2]!;

  const cardPath = await placeSubscriptionOverHttp(baseURL, customer, { frequency, organizationId: Number(organizationId) });
  const activated = await fetch(`${baseURL}${cardPath}`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ cardNumber: APPROVED_CARD, expiry: "12/30", cvv: "123" }),
    redirect: "manual",
  });
  const welcome = new URL(activated.headers.get("location") ?? "/", baseURL);
  const subscriptionId = welcome.searchParams.get("subscriptionId");
  if (activated.status !== 302 || welcome.pathname !== "/suscripcion/bienvenido" || !subscriptionId)
    throw new Error(`Activating the subscription answered ${activated.status} ${welcome.pathname}`);
  return { ...customer, subscriptionId, organizationTitle: organizationTitle.trim(), detailPath: `/dashboard/suscripciones/${subscriptionId}` };
}
