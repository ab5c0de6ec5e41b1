import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectPageError, launchBrowser, openPage } from "../support/browser";
import { fillCheckout, openCheckoutWithCart } from "../support/checkout-page";
import { REVIEW_EMAIL, startCulqiMock, type CulqiMock } from "../support/culqi-mock";
import { postTokenAsCulqiWould } from "../support/culqi-checkout";
import { startShopServer, type ShopServer } from "../support/shop-server";

/**
 * The shop configured with Culqi keys, talking to the local Culqi API. Culqi's browser scripts
 * come from the internet, which these machines cannot reach: either they are refused (the page
 * explains the widget is unavailable and the test posts the token itself), or the test serves
 * small stand-ins for Culqi's checkout and Culqi3DS that hand over tokens it made with the local
 * Culqi API and answer the bank's check when the test says so.
 */
describe("paying through Culqi", () => {
  let culqi: CulqiMock;
  let server: ShopServer;
  let browser: Browser;
  const webhookAuth = "culqi:webhook-secreto";

  beforeAll(async () => {
    culqi = await startCulqiMock();
    server = await startShopServer({
      templates: inject("databaseTemplates"),
      env: { CULQI_PUBLIC_KEY: culqi.publicKey, CULQI_SECRET_KEY: culqi.secretKey, CULQI_API_BASE: culqi.apiBase, CULQI_WEBHOOK_AUTH: webhookAuth },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await culqi?.close();
  });

  const isCulqiScript = (url: URL) => url.hostname === "js.culqi.com" || url.hostname === "3ds.culqi.com";
  const refuseCulqiScripts = async (page: Page) => {
    // Each refused script logs its failure.
    expectPageError(/^console: Failed to load resource: net::ERR_FAILED <https:\/\/(js|3ds)\.culqi\.com\//);
    await page.route(isCulqiScript, (route) => route.abort());
  };

  async function checkoutToCulqi(prepare: (page: Page) => Promise<void> = refuseCulqiScripts) {
    const tracked = await openPage(browser);
    const { page } = tracked;
    await prepare(page);
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
    await postTokenAsCulqiWould(page, token);
    await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
    await close();
  });

  it("offers a payment code when Culqi's checkout cannot load (spec: Continuar con el Pago)", async () => {
    const { page, close } = await checkoutToCulqi();
    const dialog = page.getByRole("dialog", { name: "Continuar con el Pago" });
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.reload();
    await dialog.getByRole("button", { name: "Obtener código de pago" }).click();
    await page.getByRole("heading", { name: "Tu código de pago" }).waitFor();
    const code = (await page.locator("p.font-mono").textContent())!.trim();
    expect(code).toMatch(/^\d{8}$/);
    expect([...culqi.orders.values()].some((order) => order.payment_code === code && order.state === "pending")).toBe(true);
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
  const DEVICE_ID = "dev-3ds-e2e-4f2a9c";
  const BANK_VALUES = {
    eci: "05",
    xid: "MDAwMDAwMDAwMDAwMDAwMzIyNzY=",
    cavv: "AAABAWFlmQAAAABjRWWZEEFgFz+=",
    protocolVersion: "2.1.0",
    directoryServerTransactionId: "f25084f0-5b16-4c0a-ae5d-b24808a95e4b",
  };

  /**
   * Stand-ins for Culqi's two scripts. The checkout hands over the given tokens, one per opening;
   * Culqi3DS gives a device id, reports each call to the test, and answers the bank's check only
   * when the test calls `__answer3DS("ok" | "error")`, the way Culqi3DS posts to the window.
   */
  async function serveCulqiStandIns(page: Page, tokens: string[], calls: { kind: string; detail: unknown }[]) {
    await page.exposeFunction("__record3DS", (kind: string, detail: unknown) => void calls.push({ kind, detail }));
    const checkout = `
      const tokens = ${JSON.stringify(tokens)};
      window.CulqiCheckout = class {
        constructor(publicKey, config) { this.config = config; }
        open() { this.token = { id: tokens.shift(), email: ${JSON.stringify(REVIEW_EMAIL)} }; this.culqi(); }
        close() {}
      };`;
    const threeDS = `
      window.Culqi3DS = {
        publicKey: "", options: {}, settings: {},
        generateDevice() { window.__record3DS("generateDevice", this.publicKey); return Promise.resolve(${JSON.stringify(DEVICE_ID)}); },
        initAuthentication(tokenId) {
          window.__record3DS("initAuthentication", { tokenId, publicKey: this.publicKey, settings: this.settings });
          const options = this.options;
          window.__answer3DS = (outcome) => {
            window.__answer3DS = undefined;
            if (outcome === "closed") return options.closeModalAction();
            window.postMessage(outcome === "ok" ? { parameters3DS: ${JSON.stringify(BANK_VALUES)} } : { error: "Autenticación rechazada por el emisor" }, window.location.origin);
          };
        },
        reset() { window.__record3DS("reset", null); },
      };`;
    await page.route(isCulqiScript, (route) =>
      route.fulfill({ contentType: "application/javascript", body: new URL(route.request().url()).hostname === "js.culqi.com" ? checkout : threeDS }),
    );
  }

  /** Answers the bank's check as soon as the page has started it. */
  async function answer3DS(page: Page, outcome: "ok" | "error" | "closed") {
    await page.waitForFunction(() => typeof (window as { __answer3DS?: unknown }).__answer3DS === "function");
    await page.evaluate((value) => (window as unknown as { __answer3DS: (outcome: string) => void }).__answer3DS(value), outcome);
  }

  const paymentIdOf = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;
  const chargesFor = (paymentId: string) =>
    culqi.chargeRequests.filter((request) => (request.body.metadata as { payment_id?: string } | undefined)?.payment_id === paymentId);
  const payButton = (page: Page) => page.getByRole("button", { name: "Pagar con tarjeta, Yape o efectivo" });

  it("runs Culqi 3-D Secure when Culqi asks for it and charges the same token again with the bank's values", async () => {
    const token = await culqi.tokenize("4456530000001096", REVIEW_EMAIL);
    const calls: { kind: string; detail: unknown }[] = [];
    const { page, errors, close } = await checkoutToCulqi((page) => serveCulqiStandIns(page, [token], calls));
    const paymentId = paymentIdOf(page);

    await payButton(page).click();
    // Culqi answered REVIEW: the page runs the bank's check and waits for it.
    await page.getByRole("status").filter({ hasText: "Tu banco está verificando tu tarjeta" }).waitFor();
    expect(await payButton(page).isDisabled()).toBe(true);
    expect(chargesFor(paymentId)).toEqual([
      expect.objectContaining({
        status: 200,
        actionCode: "REVIEW",
        body: expect.objectContaining({ source_id: token, antifraud_details: { device_finger_print_id: DEVICE_ID } }),
      }),
    ]);
    expect(chargesFor(paymentId)[0]!.body).not.toHaveProperty("authentication_3DS");

    await answer3DS(page, "ok");
    await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/success");

    const [review, paid] = chargesFor(paymentId);
    expect(chargesFor(paymentId)).toHaveLength(2);
    expect(paid).toMatchObject({
      status: 201,
      body: { source_id: token, amount: review!.body.amount, authentication_3DS: BANK_VALUES, antifraud_details: { device_finger_print_id: DEVICE_ID } },
    });
    expect(calls.find((call) => call.kind === "generateDevice")?.detail).toBe(culqi.publicKey);
    expect(calls.find((call) => call.kind === "initAuthentication")?.detail).toEqual({
      tokenId: token,
      publicKey: culqi.publicKey,
      settings: { charge: { totalAmount: 5990, returnUrl: `${server.baseURL}/pago/culqi/${paymentId}`, currency: "PEN" }, card: { email: REVIEW_EMAIL } },
    });
    expect(calls.findLastIndex((call) => call.kind === "reset")).toBeGreaterThan(calls.findIndex((call) => call.kind === "initAuthentication"));
    expect(errors).toEqual([]);
    await close();
  });

  it("explains in Spanish when the bank's check fails or is closed, charges nothing, and lets the customer pay again", async () => {
    const tokens = [
      await culqi.tokenize("4456530000001096", REVIEW_EMAIL),
      await culqi.tokenize("4456530000001096", REVIEW_EMAIL),
      await culqi.tokenize("4456530000001096", REVIEW_EMAIL),
    ];
    const calls: { kind: string; detail: unknown }[] = [];
    const { page, errors, close } = await checkoutToCulqi((page) => serveCulqiStandIns(page, [...tokens], calls));
    const paymentId = paymentIdOf(page);
    const alert = page.getByRole("alert");

    await payButton(page).click();
    await answer3DS(page, "error");
    await alert.filter({ hasText: "Tu banco no pudo verificar tu tarjeta (3D Secure). Intenta nuevamente o usa otra tarjeta." }).waitFor();
    expect(chargesFor(paymentId).map((request) => request.actionCode)).toEqual(["REVIEW"]);
    expect([...culqi.charges.values()].filter((charge) => (charge.metadata as { payment_id?: string }).payment_id === paymentId)).toEqual([]);
    // The shop still sees the order unpaid.
    const orderId = (chargesFor(paymentId)[0]!.body.metadata as { order_id: string }).order_id;
    const receipt = await page.context().newPage();
    await receipt.goto(`${server.baseURL}/success?orderId=${orderId}`);
    await receipt.getByRole("heading", { name: "Estamos procesando tu pago, espera un momento…" }).waitFor();
    await receipt.close();

    // Closing the bank's window is not a payment either.
    await payButton(page).click();
    await answer3DS(page, "closed");
    await alert.filter({ hasText: "La verificación de tu banco se cerró antes de terminar." }).waitFor();
    expect(chargesFor(paymentId).map((request) => request.status)).toEqual([200, 200]);

    await payButton(page).click();
    await alert.waitFor({ state: "detached" });
    await answer3DS(page, "ok");
    await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
    expect(chargesFor(paymentId).map((request) => [request.body.source_id, request.status])).toEqual([
      [tokens[0], 200],
      [tokens[1], 200],
      [tokens[2], 200],
      [tokens[2], 201],
    ]);
    expect(chargesFor(paymentId)[3]!.body.authentication_3DS).toEqual(BANK_VALUES);
    expect(calls.filter((call) => call.kind === "reset")).toHaveLength(3);
    expect(errors).toEqual([]);
    await close();
  });
});
