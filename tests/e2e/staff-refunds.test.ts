import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_ADMIN, DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { cookieHeader, signInCookies, type SessionCookie } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { launchBrowser, openPage } from "../support/browser";
import { culqiPaidOrder as paidThroughCulqi } from "../support/culqi-checkout";
import { startCulqiMock, type CulqiMock } from "../support/culqi-mock";
import { waitForEmail } from "../support/e2e";
import { startShopServer, type ShopServer } from "../support/shop-server";

/**
 * Issue 10: staff cancel and refund orders through the local Culqi, on a shop configured with
 * Culqi's keys. The order's detail page (`/admin/pedidos/{id}`, where both actions land) is built
 * by the orders work; the tests assert the redirect to it, Culqi's books and the customer's e-mail. The forms are used without JavaScript.
 */
describe("staff cancellations and refunds through Culqi", () => {
  let culqi: CulqiMock;
  let server: ShopServer;
  let browser: Browser;
  let operaciones: SessionCookie[];
  let admin: SessionCookie[];

  beforeAll(async () => {
    culqi = await startCulqiMock();
    server = await startShopServer({
      templates: inject("databaseTemplates"),
      env: { CULQI_PUBLIC_KEY: culqi.publicKey, CULQI_SECRET_KEY: culqi.secretKey, CULQI_API_BASE: culqi.apiBase, CULQI_WEBHOOK_AUTH: "culqi:webhook-secreto" },
    });
    browser = await launchBrowser();
    operaciones = await signInCookies(server.baseURL, DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
    admin = await signInCookies(server.baseURL, DEMO_ADMIN.email, DEMO_ADMIN.password);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await culqi?.close();
  });

  /** Paid over HTTP: the checkout and Culqi's payment page are driven in Chromium by culqi-provider.test.ts. */
  const culqiPaidOrder = () => paidThroughCulqi(server.baseURL, culqi);

  /** A staff member's page at phone width, without JavaScript. */
  async function staffPage(cookies: SessionCookie[]): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
    const tracked = await openPage(browser, { viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }

  /**
   * Where an action lands: the order's detail page, which the orders work builds (on this branch it
   * answers the 404, the one console error allowed here).
   */
  /** Back on the order's page, which says what happened. */
  async function landsOnOrderDetail(page: Page, errors: string[], orderId: string, notice: string) {
    await page.waitForURL((url) => url.pathname === `/admin/pedidos/${orderId}`);
    expect(new URL(page.url()).search).toBe(`?aviso=${notice}`);
    await page.getByRole("heading", { level: 1, name: /^Pedido VA-/ }).waitFor();
    expect(await page.getByRole("status").first().textContent()).toMatch(/^(Pedido cancelado|Reembolso)/);
    expect(errors).toEqual([]);
  }

  /** The page at 360 px with JavaScript (evaluate and axe need it): nothing wider than the screen, no serious axe finding, no console error. */
  async function expectPhoneReadyPage(cookies: SessionCookie[], path: string, heading: RegExp) {
    const tracked = await openPage(browser, { viewport: { width: 360, height: 740 } });
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    await tracked.page.goto(`${server.baseURL}${path}`);
    await tracked.page.getByRole("heading", { name: heading }).waitFor();
    expect(await tracked.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(await seriousAxeViolations(tracked.page, path)).toEqual([]);
    expect(tracked.errors).toEqual([]);
    await tracked.close();
  }

  it("lets operaciones refund part of a Culqi-paid order, and the customer's e-mail arrives", { timeout: 150_000 }, async () => {
    const { orderId, chargeId } = await culqiPaidOrder();
    await expectPhoneReadyPage(operaciones, `/admin/pedidos/${orderId}/reembolsar`, /Reembolsar pedido VA-/);
    const { page, errors, close } = await staffPage(operaciones);
    await page.goto(`${server.baseURL}/admin/pedidos/${orderId}/reembolsar`);
    await page.getByRole("heading", { name: /Reembolsar pedido VA-/ }).waitFor();
    const facts = await page.locator("dl").innerText();
    expect(facts).toContain("Tarjeta (Culqi)");
    expect(facts).toMatch(/Cobrado\s+S\/\s59\.90/);
    expect(facts).toMatch(/Reembolsable\s+S\/\s59\.90/);

    // A refusal keeps what was typed.
    await page.getByRole("radio", { name: "Una parte" }).check();
    await page.getByLabel(/Monto a devolver/).fill("99.00");
    await page.getByLabel("Motivo").fill("Un bidón llegó golpeado");
    await page.getByRole("button", { name: "Reembolsar" }).click();
    await page.getByRole("alert").filter({ hasText: "El monto supera lo que queda por reembolsar (S/ 59.90)." }).waitFor();
    expect(await page.getByLabel(/Monto a devolver/).inputValue()).toBe("99.00");
    expect(await page.getByLabel("Motivo").inputValue()).toBe("Un bidón llegó golpeado");

    await page.getByLabel(/Monto a devolver/).fill("25.50");
    await page.getByRole("button", { name: "Reembolsar" }).click();
    await landsOnOrderDetail(page, errors, orderId, "reembolso-hecho");

    expect(culqi.refunds.filter((refund) => refund.charge_id === chargeId)).toEqual([expect.objectContaining({ amount: 2550, reason: "solicitud_comprador" })]);
    const email = await waitForEmail(server.outboxDir, (candidate) => candidate.to === "rosa@example.pe" && candidate.kind === "order-refunded");
    expect(email.subject).toMatch(/^Reembolsamos una parte de tu pedido VA-/);
    expect(email.text).toContain("Te devolvimos S/ 25.50 a la tarjeta con la que pagaste.");
    expect(email.text).toContain("5 a 15 días hábiles");

    await page.goto(`${server.baseURL}/admin/pedidos/${orderId}/reembolsar`);
    expect(await page.locator("dl").innerText()).toMatch(/Reembolsable\s+S\/\s34\.40/);
    expect(errors).toEqual([]);
    await close();
  });

  it("refuses operaciones a refund above the admin's limit, keeps the form, and lets the admin make it", { timeout: 150_000 }, async () => {
    const { orderId, chargeId } = await culqiPaidOrder();
    await expectPhoneReadyPage(admin, "/admin/ajustes", /^Ajustes$/);
    const post = (cookies: SessionCookie[], path: string, fields: Record<string, string>) =>
      fetch(`${server.baseURL}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: cookieHeader(cookies), origin: server.baseURL, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
    const limitSaved = await post(admin, "/admin/ajustes", { intent: "refund_limit", limit: "10.00" });
    expect(limitSaved.status).toBe(302);
    expect(limitSaved.headers.get("location")).toBe("/admin/ajustes?guardado=1");
    // Operaciones cannot change the limit themselves.
    expect((await post(operaciones, "/admin/ajustes", { intent: "refund_limit", limit: "9999.00" })).status).toBe(404);

    const refund = { intent: "refund", mode: "parcial", amount: "20.00", reason: "Devolución grande", requestKey: crypto.randomUUID() };
    const refused = await post(operaciones, `/admin/pedidos/${orderId}/reembolsar`, refund);
    expect(refused.status).toBe(400);
    const body = await refused.text();
    expect(body).toContain("Operaciones puede reembolsar hasta S/ 10.00 por pedido en total. Pide a un administrador que apruebe y haga este reembolso.");
    expect(body).toContain('value="20.00"');
    expect(culqi.refunds.filter((made) => made.charge_id === chargeId)).toEqual([]);

    const made = await post(admin, `/admin/pedidos/${orderId}/reembolsar`, { ...refund, requestKey: crypto.randomUUID() });
    expect(made.status).toBe(302);
    expect(made.headers.get("location")).toBe(`/admin/pedidos/${orderId}?aviso=reembolso-hecho`);
    expect(culqi.refunds.filter((done) => done.charge_id === chargeId)).toEqual([expect.objectContaining({ amount: 2000 })]);
    await post(admin, "/admin/ajustes", { intent: "refund_limit", limit: "200.00" });
  });

  it("lets operaciones cancel a paid order before dispatch: Culqi refunds it all and the customer is told", { timeout: 150_000 }, async () => {
    const { orderId, chargeId } = await culqiPaidOrder();
    await expectPhoneReadyPage(operaciones, `/admin/pedidos/${orderId}/cancelar`, /Cancelar pedido VA-/);
    const { page, errors, close } = await staffPage(operaciones);
    await page.goto(`${server.baseURL}/admin/pedidos/${orderId}/cancelar`);
    await page.getByRole("heading", { name: /Cancelar pedido VA-/ }).waitFor();
    await page.getByLabel("Motivo de la cancelación").fill("El cliente se mudó");
    await page.getByLabel(/Confirmo que quiero cancelar/).check();
    await page.getByRole("button", { name: "Cancelar pedido" }).click();
    await landsOnOrderDetail(page, errors, orderId, "cancelado-reembolsado");
    expect(culqi.refunds.filter((refund) => refund.charge_id === chargeId)).toEqual([expect.objectContaining({ amount: 5990 })]);
    const cancelled = await waitForEmail(
      server.outboxDir,
      (candidate) => candidate.kind === "order-cancelled" && candidate.text.includes("El cliente se mudó"),
    );
    expect(cancelled.text).toContain("Te devolveremos S/ 59.90");

    // The cancel page now says why there is nothing to do.
    await page.goto(`${server.baseURL}/admin/pedidos/${orderId}/cancelar`);
    await page.getByRole("status").filter({ hasText: "No se puede cancelar un pedido en estado «Reembolsado»" }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});
