import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cookieHeader, registerCustomer, type SessionCookie } from "../support/accounts";
import { launchBrowser, openPage, type TrackedPage } from "../support/browser";
import { FLOW_TEST_CARD, startFlowMock, type FlowMock } from "../support/flow-mock";
import { startShopServer, type ShopServer } from "../support/shop-server";
import { placeSubscriptionOverHttp, subscribeUpToCardPage } from "../support/subscription-page";

/**
 * The shop with Flow keys, talking to the local Flow API: subscriptions register their card on
 * Flow's (stand-in) page and come back to /flow/register-return.
 *
 * Flow's page then POSTs the token cross-site to url_return, /api/pagos/flow/registro: a resource
 * route that answers 303 to /flow/register-return?token=… (tested directly in
 * tests/integration/flow.test.ts). Its line in app/routes.ts is added with the merge; until then
 * these tests let the browser send that POST, check what it carries, and follow the 303 themselves.
 */
describe("registering the subscription card with Flow", () => {
  let flow: FlowMock;
  let server: ShopServer;
  let browser: Browser;

  beforeAll(async () => {
    flow = await startFlowMock();
    server = await startShopServer({
      templates: inject("databaseTemplates"),
      env: { FLOW_API_KEY: flow.apiKey, FLOW_SECRET_KEY: flow.secretKey, FLOW_API_BASE: flow.apiBase },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await flow?.close();
  });

  async function open(cookies: SessionCookie[] = []): Promise<TrackedPage> {
    const tracked = await openPage(browser);
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }

  /**
   * A new customer with a subscription waiting for its card. The checkout is posted over HTTP as the
   * page posts it: subscriptions.test.ts drives the subscription checkout in Chromium.
   */
  async function subscriptionAwaitingCard() {
    const customer = await registerCustomer(server.baseURL);
    const cardPath = await placeSubscriptionOverHttp(server.baseURL, customer);
    return { customer, cardPath, subscriptionId: cardPath.split("/").pop()! };
  }

  /**
   * A new customer subscribes and presses 'Registrar tarjeta con Flow' on the card page: the browser
   * is on Flow's page. The checkout is posted over HTTP unless `throughCheckout` (the first journey
   * below, which drives it in Chromium once with this shop's Flow settings).
   */
  async function subscribeAndGoToFlow({ throughCheckout = false } = {}) {
    const customer = await registerCustomer(server.baseURL);
    const tracked = await open(customer.cookies);
    let subscriptionId: string;
    if (throughCheckout) {
      subscriptionId = await subscribeUpToCardPage(tracked.page, server.baseURL, { email: customer.email });
    } else {
      const cardPath = await placeSubscriptionOverHttp(server.baseURL, customer);
      subscriptionId = cardPath.split("/").pop()!;
      await tracked.page.goto(`${server.baseURL}${cardPath}`);
    }
    await tracked.page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
    await tracked.page.getByRole("button", { name: "Registrar tarjeta con Flow" }).click();
    await tracked.page.waitForURL((url) => url.origin === flow.hostedOrigin && url.pathname === "/app/webpay/disclaimer.php");
    const token = new URL(tracked.page.url()).searchParams.get("token")!;
    return { ...tracked, customer, subscriptionId, token };
  }

  /**
   * The customer decides on Flow's page, which POSTs the token back from Flow's site; the test
   * checks that POST and goes where the shop's answer to it sends the browser.
   */
  async function decideAtFlow(page: Page, token: string, button: "Aprobar" | "Rechazar") {
    const returnUrl = `${server.baseURL}/api/pagos/flow/registro`;
    const posted = new Promise<{ method: string; origin: string | null; body: string | null }>((resolve) => {
      void page.route(returnUrl, async (route) => {
        const request = route.request();
        const seen = { method: request.method(), origin: await request.headerValue("origin"), body: request.postData() };
        // No content: the browser stays where it is, and the test follows the 303 itself.
        await route.fulfill({ status: 204 });
        resolve(seen);
      });
    });
    await page.getByRole("button", { name: button }).click();
    expect(await posted).toEqual({ method: "POST", origin: flow.hostedOrigin, body: new URLSearchParams({ token }).toString() });
    const documentResponse = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/flow/register-return" && response.request().method() === "GET",
    );
    await page.goto(`${server.baseURL}/flow/register-return?token=${token}`);
    return documentResponse;
  }

  it("activates the subscription after Flow approves the card and lands on the order after 3 s", async () => {
    const { page, errors, close, subscriptionId, token } = await subscribeAndGoToFlow({ throughCheckout: true });
    await page.getByRole("button", { name: "Rechazar" }).waitFor();
    // The page's own clock times the redirect: when the success heading entered the document and when
    // the client-side navigation left the return page (the window survives it). A clock the test moves
    // instead (page.clock) left the navigation's render stalled now and then on a loaded machine.
    await page.addInitScript(() => {
      const marks: { registeredAt?: number; leftAt?: number } = {};
      Object.assign(window, { redirectMarks: marks });
      new MutationObserver(() => {
        if (marks.registeredAt === undefined && document.querySelector("h1")?.textContent === "¡Tarjeta registrada!") {
          marks.registeredAt = performance.now();
        }
        if (marks.registeredAt !== undefined && marks.leftAt === undefined && location.pathname !== "/flow/register-return") {
          marks.leftAt = performance.now();
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const documentResponse = await decideAtFlow(page, token, "Aprobar");
    // The page arrives processing (server-rendered) and activates by itself once React runs.
    expect(await (await documentResponse).text()).toContain("Estamos registrando tu tarjeta");
    await page.getByRole("heading", { name: "¡Tarjeta registrada!" }).waitFor();
    await page.waitForURL(/\/orden\/[0-9a-f-]{36}\?/);
    await page.getByRole("heading", { name: "Tu suscripción" }).waitFor();
    const marks = await page.evaluate(() => (window as unknown as { redirectMarks: { registeredAt: number; leftAt: number } }).redirectMarks);
    expect(marks.leftAt - marks.registeredAt).toBeGreaterThanOrEqual(3_000);
    const landed = new URL(page.url());
    expect(landed.searchParams.get("isSubscription")).toBe("true");
    expect(landed.searchParams.get("message")).toBe("¡Listo! Registramos tu tarjeta con Flow y tu suscripción está activa.");
    await page.getByRole("status").filter({ hasText: "Registramos tu tarjeta con Flow" }).waitFor();
    expect(await page.getByTestId("order-status").textContent()).toBe("Pagado");

    const charge = flow.payments.get(`${subscriptionId}:1:1`);
    expect(charge).toMatchObject({ status: 2, currency: "PEN" });
    await page.goto(`${server.baseURL}/dashboard/suscripcion`);
    await page.getByText(`terminada en ${FLOW_TEST_CARD.last4}`).first().waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it("says the registration failed when the customer rejects it at Flow, and offers to try again", async () => {
    const { page, errors, close, subscriptionId, token } = await subscribeAndGoToFlow();
    await decideAtFlow(page, token, "Rechazar");
    await page.getByRole("alert").filter({ hasText: "Registro de tarjeta fallido. Por favor intenta nuevamente." }).waitFor();
    expect(await page.getByRole("link", { name: "Intentar nuevamente" }).getAttribute("href")).toBe(`/suscripcion/tarjeta/${subscriptionId}`);
    expect(flow.payments.has(`${subscriptionId}:1:1`)).toBe(false);
    expect(errors).toEqual([]);
    await close();
  });

  it("lets a customer without JavaScript continue by hand and reach the order", async () => {
    // The card page's button posts this form (pressed in Chromium by the tests above).
    const { customer, cardPath, subscriptionId } = await subscriptionAwaitingCard();
    const started = await fetch(`${server.baseURL}${cardPath}`, {
      method: "POST",
      headers: { Origin: server.baseURL, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookieHeader(customer.cookies) },
      body: "",
      redirect: "manual",
    });
    const atFlow = new URL(started.headers.get("location") ?? "/", server.baseURL);
    expect(atFlow.origin + atFlow.pathname).toBe(`${flow.hostedOrigin}/app/webpay/disclaimer.php`);
    const token = atFlow.searchParams.get("token")!;
    flow.decide(token, "approve");
    const tracked = await openPage(browser, { javaScriptEnabled: false });
    await tracked.page.context().addCookies(customer.cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    const { page, errors } = tracked;
    await page.goto(`${server.baseURL}/flow/register-return?token=${token}`);
    await page.getByRole("status").filter({ hasText: "Procesando tu suscripción" }).waitFor();
    await page.getByRole("button", { name: "Continuar" }).click();
    await page.getByRole("heading", { name: "¡Tarjeta registrada!" }).waitFor();
    await page.getByRole("link", { name: "Ver mi pedido ahora" }).click();
    await page.getByRole("heading", { name: "Tu suscripción" }).waitFor();
    expect(await page.getByTestId("order-status").textContent()).toBe("Pagado");
    expect(flow.payments.get(`${subscriptionId}:1:1`)).toMatchObject({ status: 2 });
    expect(errors).toEqual([]);
    await tracked.close();
  });

  it("shows the redirection error, the warning, and the missing token", async () => {
    const customer = await registerCustomer(server.baseURL);
    const { page, errors, close } = await open(customer.cookies);
    await page.goto(`${server.baseURL}/flow/register-return?error=1`);
    await page.getByRole("alert").filter({ hasText: "Error en el proceso de redirección. Por favor contacta a soporte." }).waitFor();
    await page.goto(`${server.baseURL}/flow/register-return?warning=1&token=ABC123ABC123`);
    await page.locator("main[data-state=warning]").waitFor();
    await page.goto(`${server.baseURL}/flow/register-return`);
    await page.getByRole("alert").filter({ hasText: "No se recibió token de verificación" }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it("asks an anonymous visitor to sign in, and brings them back to the same return", async () => {
    const { page, errors, close } = await open();
    await page.goto(`${server.baseURL}/flow/register-return?token=ABC123ABC123`);
    await page.getByRole("alert").filter({ hasText: "No se encontró usuario autenticado" }).waitFor();
    const login = new URL((await page.getByRole("link", { name: "Iniciar sesión" }).getAttribute("href"))!, server.baseURL);
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("redirectTo")).toBe("/flow/register-return?token=ABC123ABC123");
    expect(errors).toEqual([]);
    await close();
  });

  it("tells a customer with no subscription waiting for a card", async () => {
    const customer = await registerCustomer(server.baseURL);
    const { page, errors, close } = await open(customer.cookies);
    await page.goto(`${server.baseURL}/flow/register-return?token=ABC123ABC123`);
    await page.getByRole("alert").filter({ hasText: "No se encontró suscripción pendiente. Por favor contacta a soporte." }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it("starts a Flow registration only for the signed-in owner of the subscription", async () => {
    const { subscriptionId } = await subscriptionAwaitingCard();
    const registrations = () => flow.requests.filter((request) => request.path === "/customer/register").length;
    const before = registrations();
    const post = (cookies: SessionCookie[]) =>
      fetch(`${server.baseURL}/suscripcion/tarjeta/${subscriptionId}`, {
        method: "POST",
        headers: { Origin: server.baseURL, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookieHeader(cookies) },
        body: "",
        redirect: "manual",
      });

    const anonymous = await post([]);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(`/suscripcion/tarjeta/${subscriptionId}`)}`);
    const other = await post((await registerCustomer(server.baseURL)).cookies);
    expect(other.status).toBe(404);
    expect(await other.text()).toContain("No se pudo cargar la suscripción");
    expect(registrations()).toBe(before);
  });
});
