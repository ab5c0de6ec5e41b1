import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage } from "../support/browser";
import { fillCheckout, openCheckoutWithCart } from "../support/checkout-page";
import { startCulqiMock, type CulqiMock } from "../support/culqi-mock";
import { startShopServer, type ShopServer } from "../support/shop-server";

/**
 * The shop configured with Culqi keys, talking to the local Culqi API. Culqi's browser widget is
 * loaded from the internet, which these machines cannot reach: the test plays its part by sending
 * the token it would have produced, and checks the page explains that the widget is unavailable.
 */
describe("paying through Culqi", () => {
  let culqi: CulqiMock;
  let server: ShopServer;
  let browser: Browser;
  const webhookAuth = "culqi:webhook-secreto";

  beforeAll(async () => {
    culqi = await startCulqiMock();
    server = await startShopServer({
      env: { CULQI_PUBLIC_KEY: culqi.publicKey, CULQI_SECRET_KEY: culqi.secretKey, CULQI_API_BASE: culqi.apiBase, CULQI_WEBHOOK_AUTH: webhookAuth },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await culqi?.close();
  });

  async function checkoutToCulqi() {
    const tracked = await openPage(browser);
    const { page } = tracked;
    await page.route("https://js.culqi.com/**", (route) => route.abort());
    await openCheckoutWithCart(page, server.baseURL);
    await fillCheckout(page);
    await page.getByRole("button", { name: "Finalizar compra" }).click();
    await page.getByRole("heading", { name: /Pagar pedido VA-/ }).waitFor();
    return tracked;
  }

  it("charges the token from Culqi's checkout and confirms the order", async () => {
    const { page, close } = await checkoutToCulqi();
    expect(new URL(page.url()).pathname).toMatch(/^\/pago\/culqi\//);
    await page.getByRole("alert").filter({ hasText: "No se pudo abrir Culqi" }).waitFor();
    const token = await culqi.tokenize("4111111111111111");
    // What Culqi's widget callback does: post the token to this page's action.
    await page.evaluate(async (tokenId) => {
      const body = new FormData();
      body.set("token", tokenId);
      const response = await fetch(window.location.pathname, { method: "POST", body, redirect: "follow" });
      window.location.href = response.url;
    }, token);
    await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
    await close();
  });

  it("takes Culqi's webhook over HTTP with Basic auth, and settles a charge whose answer never came", async () => {
    const { page, close } = await checkoutToCulqi();
    const token = await culqi.tokenize("5111111111111118");
    // Culqi takes the charge but its answer is lost (longer than the shop waits).
    culqi.delayNextCharge(20_000);
    void page
      .evaluate(async (tokenId) => {
        const body = new FormData();
        body.set("token", tokenId);
        await fetch(window.location.pathname, { method: "POST", body });
      }, token)
      .catch(() => {});
    let event: (typeof culqi.events)[number] | undefined;
    const deadline = Date.now() + 10_000;
    while (!event && Date.now() < deadline) {
      event = culqi.events.findLast((candidate) => candidate.type === "charge.creation.succeeded" && candidate.data.includes(token));
      if (!event) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!event) throw new Error("Culqi never created the charge");
    const orderId = (JSON.parse(event.data) as { metadata: { order_id: string } }).metadata.order_id;

    const send = (authorization?: string) =>
      fetch(`${server.baseURL}/api/pagos/culqi/webhook`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(authorization ? { Authorization: authorization } : {}) },
        body: JSON.stringify(event),
      });
    expect((await send()).status).toBe(401);
    const auth = `Basic ${Buffer.from(webhookAuth).toString("base64")}`;
    expect((await send(auth)).status).toBe(200);
    expect((await send(auth)).status).toBe(200);

    const receipt = await openPage(browser);
    await receipt.page.goto(`${server.baseURL}/success?orderId=${orderId}`);
    await receipt.page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
    await receipt.close();
    await close();
  });
});
