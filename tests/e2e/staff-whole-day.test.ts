import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "@server/db/client";
import { deliveries, orders } from "@server/db/schema";
import { DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { registerCustomer, signInCookies, type SessionCookie } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP, launchBrowser, openPage, type TrackedPage } from "../support/browser";
import { fillPhoneDocumentAndDelivery, openCheckoutWithCart } from "../support/checkout-page";
import { culqiPaidOrder } from "../support/culqi-checkout";
import { startCulqiMock, type CulqiMock } from "../support/culqi-mock";
import { waitForEmail } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";
import { bookableDates, limaDateOf } from "../support/lima-clock";
import { createShopDatabase, startShopServer, type ShopServer } from "../support/shop-server";

const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const driverName = `${DEMO_REPARTIDOR.firstName} ${DEMO_REPARTIDOR.lastName}`;

/** A surname no other order has, so this file's rows are found among the demo data's. */
const surname = () =>
  `Jornada${Array.from(randomBytes(6))
    .map((byte) => String.fromCharCode(97 + (byte % 26)))
    .join("")}`;

/**
 * Issue 10, "Quality this must show": a whole day of the shop, driven through the browser as its
 * customers and staff would. A registered customer buys and pays in the sandbox; operaciones sees
 * the order in Despacho, prepares it and assigns it to the demo repartidor; the repartidor, on a
 * 360×740 phone, marks it en camino and entregado with 1 bidón left and 1 collected; the customer's
 * `/orden/{id}`, the e-mail's link and "Mis envíos" show it delivered with the bidones. Then a
 * partial refund through the local Culqi and a cancellation before dispatch.
 *
 * One database, two runs of the server. The checkout never offers today (the cut-off is the day
 * before) and Despacho's "Reprogramar" refuses today for the same reason, and the server has no
 * clock to move, so the delivery day cannot come by itself: between the runs the test moves the
 * booked delivery to today, the one write it makes (an embedded database has a single owner, so
 * the server is stopped for it). The evening run takes payments in the offline sandbox; the
 * delivery-day run has Culqi's keys pointing at the local Culqi, for the refund and the
 * cancellation. The session key is the deployment's, so the customer's browser stays signed in.
 */
describe("a whole day of the shop, in the browser", () => {
  let culqi: CulqiMock;
  let browser: Browser;
  let server: ShopServer;
  let databaseEnv: Record<string, string>;
  let dropDatabase: () => Promise<void>;
  const sessionSecret = randomBytes(32).toString("hex");
  const buyer = { lastName: surname(), email: "", password: "", orderId: "", bookedDate: "", cookies: [] as SessionCookie[] };
  let buyerPage: TrackedPage;

  beforeAll(async () => {
    // A copy of the run's seeded template: both runs of the server use it.
    const database = await createShopDatabase({ templates: inject("databaseTemplates") });
    databaseEnv = database.env;
    dropDatabase = database.drop;
    culqi = await startCulqiMock();
    browser = await launchBrowser();
    server = await startShopServer({ env: { ...databaseEnv, SESSION_SECRET: sessionSecret } });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await culqi?.close();
    await dropDatabase?.();
  });

  /** A staff member's page, signed in; every staff page visited is checked with axe. */
  async function staffPage(account: { email: string; password: string }, options: BrowserContextOptions) {
    const cookies = await signInCookies(server.baseURL, account.email, account.password);
    const tracked = await openPage(browser, options);
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }

  async function expectAccessible(page: Page, label: string) {
    expect(await seriousAxeViolations(page, label)).toEqual([]);
  }

  const dispatchRow = (page: Page, lastName: string) => page.getByTestId("dispatch-delivery").filter({ hasText: lastName });

  it(
    "the evening before: a registered customer pays in the sandbox and operaciones finds the order in Despacho for its date",
    { timeout: 120_000 },
    async () => {
      const account = await registerCustomer(server.baseURL, { firstName: "Rosa", lastName: buyer.lastName });
      Object.assign(buyer, { email: account.email, password: account.password, cookies: account.cookies });
      buyerPage = await openPage(browser, PHONE);
      const { page } = buyerPage;
      await page.context().addCookies(account.cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
      await openCheckoutWithCart(page, server.baseURL);
      // A signed-in customer's name and e-mail come filled in.
      expect(await page.getByLabel("Apellido").inputValue()).toBe(buyer.lastName);
      await fillPhoneDocumentAndDelivery(page);
      await page.getByRole("button", { name: "Finalizar compra" }).click();
      await page.getByRole("button", { name: "Simular pago exitoso" }).click();
      await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
      buyer.orderId = new URL(page.url()).searchParams.get("orderId")!;
      expect(await page.getByTestId("order-status").textContent()).toBe("Pagado");
      // The checkout books the first Wednesday it offers (Miraflores is served Mon/Wed/Fri).
      buyer.bookedDate = bookableDates(3)[0]!;

      const desk = await staffPage(DEMO_OPERACIONES, DESKTOP);
      await desk.page.goto(`${server.baseURL}/admin/despacho?fecha=${buyer.bookedDate}`);
      expect(await desk.page.getByRole("heading", { level: 1 }).textContent()).toBe("Despacho");
      expect(await dispatchRow(desk.page, buyer.lastName).getByTestId("delivery-status").textContent()).toBe("Pendiente");
      await expectAccessible(desk.page, "despacho, fecha reservada");
      expect(desk.errors).toEqual([]);
      await desk.close();
      expect(buyerPage.errors).toEqual([]);
    },
  );

  it(
    "the delivery day: operaciones prepares and assigns it, the repartidor delivers it on a phone, and the customer sees Entregado and the bidones",
    { timeout: 180_000 },
    async () => {
      expect(buyer.orderId).not.toBe("");
      await server.stop();
      const today = limaDateOf(new Date());
      const handle = await openDatabase(
        databaseEnv.DATABASE_URL ? { kind: "postgres", url: databaseEnv.DATABASE_URL } : { kind: "pglite", dataDir: databaseEnv.PGLITE_DATA_DIR! },
      );
      try {
        // The day comes: see the file's comment for why this is the one write outside the UI.
        await handle.db.update(deliveries).set({ deliveryDate: today }).where(eq(deliveries.orderId, buyer.orderId));
        await handle.db.update(orders).set({ deliveryDate: today }).where(eq(orders.id, buyer.orderId));
      } finally {
        await handle.close();
      }
      server = await startShopServer({
        env: {
          ...databaseEnv,
          SESSION_SECRET: sessionSecret,
          CULQI_PUBLIC_KEY: culqi.publicKey,
          CULQI_SECRET_KEY: culqi.secretKey,
          CULQI_API_BASE: culqi.apiBase,
          CULQI_WEBHOOK_AUTH: "culqi:webhook-secreto",
        },
      });

      // Operaciones opens Despacho: today is its default day.
      const desk = await staffPage(DEMO_OPERACIONES, DESKTOP);
      await desk.page.goto(`${server.baseURL}/admin/despacho`);
      await desk.page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
      expect(await desk.page.getByTestId("dispatch-date").textContent()).toMatch(/\(hoy\)$/);
      const row = () => dispatchRow(desk.page, buyer.lastName);
      expect(await row().getByTestId("delivery-status").textContent()).toBe("Pendiente");
      await row().getByRole("checkbox").check();
      await desk.page.getByRole("button", { name: "Preparar" }).click();
      await desk.page.getByTestId("dispatch-message").getByText("1 envío pasó a Preparando.").waitFor();
      await row().getByTestId("delivery-status").getByText("Preparando", { exact: true }).waitFor();
      await row().getByRole("checkbox").check();
      await desk.page.getByLabel("Repartidor", { exact: true }).selectOption({ label: driverName });
      await desk.page.getByRole("button", { name: "Asignar a repartidor" }).click();
      await desk.page.getByTestId("dispatch-message").getByText("1 envío asignado al repartidor.").waitFor();
      await row().getByTestId("delivery-status").getByText("Programado", { exact: true }).waitFor();
      expect(await row().textContent()).toContain(`Repartidor: ${driverName}`);
      await expectAccessible(desk.page, "despacho, hoy");
      expect(desk.errors).toEqual([]);
      await desk.close();

      // The repartidor, on the phone.
      const driver = await staffPage(DEMO_REPARTIDOR, PHONE);
      const stop = () => driver.page.getByTestId("driver-stop").filter({ hasText: buyer.lastName });
      await driver.page.goto(`${server.baseURL}/admin/reparto`);
      expect(await stop().getByTestId("delivery-status").textContent()).toBe("Programado");
      expect(await stop().getByTestId("amount-to-collect").textContent()).toBe("Pagado");
      await expectAccessible(driver.page, "reparto");
      await stop().getByRole("button", { name: "Marcar en camino" }).click();
      await driver.page.getByText("Parada marcada en camino. Avisamos al cliente.").waitFor();
      expect(await stop().getByTestId("delivery-status").textContent()).toBe("En camino");
      await stop().getByLabel("Bidones llenos dejados").fill("1");
      await stop().getByLabel("Bidones vacíos recogidos").fill("1");
      await stop().getByLabel("Nombre de quien recibe").fill("Rosa");
      await stop().getByRole("button", { name: "Confirmar entrega" }).click();
      await driver.page.getByText("Entrega registrada. Avisamos al cliente.").waitFor();
      expect(await stop().getByTestId("delivery-status").textContent()).toBe("Entregado");
      expect(await stop().getByTestId("stop-proof").textContent()).toBe("Recibió Rosa. Llenos dejados: 1, vacíos recogidos: 1.");
      expect((await auditLayout(driver.page)).filter((problem) => problem.kind !== "under-chat-button")).toEqual([]);
      expect(driver.errors).toEqual([]);
      await driver.close();

      // The customer's browser from the checkout, still signed in after the restart.
      const { page } = buyerPage;
      await page.goto(`${server.baseURL}/orden/${buyer.orderId}`);
      expect(await page.getByTestId("order-status").textContent()).toBe("Entregado");
      expect(await page.getByTestId("receipt").textContent()).toContain(`Rosa ${buyer.lastName}`);
      await page.goto(`${server.baseURL}/dashboard/envios?filter=delivered`);
      const delivered = page.getByTestId("delivery-row").filter({ hasText: "Entregado" });
      expect(await delivered.count()).toBe(1);
      expect(await page.getByTestId("bidon-lent").textContent()).toBe("1");
      expect(await page.getByTestId("bidon-returned").textContent()).toBe("1");
      expect(await page.getByTestId("bidon-balance").textContent()).toBe("0");
      // "Mis envíos" shortens a long item list with an ellipsis on purpose: only the page's width is checked.
      expect((await auditLayout(page)).filter((problem) => problem.kind === "page-overflow")).toEqual([]);
      expect(buyerPage.errors).toEqual([]);

      // Each step's e-mail came, and the last one's link shows the delivered order without signing in.
      await waitForEmail(server.outboxDir, (email) => email.to === buyer.email && email.kind === "delivery-on-the-way");
      const deliveredEmail = await waitForEmail(server.outboxDir, (email) => email.to === buyer.email && email.kind === "delivery-delivered");
      expect(deliveredEmail.text).toContain("Dejamos 1 bidón lleno y recogimos 1 vacío.");
      expect(deliveredEmail.text).toContain("Bidones nuestros en tu poder: 0.");
      const link = /Ver tu pedido: (\S+)/.exec(deliveredEmail.text)![1]!;
      const stranger = await openPage(browser, PHONE);
      await stranger.page.goto(link);
      expect(await stranger.page.getByTestId("order-status").textContent()).toBe("Entregado");
      expect(stranger.errors).toEqual([]);
      await stranger.close();
    },
  );

  it("refunds part of a Culqi-paid order through the local Culqi, and cancels another before dispatch", { timeout: 180_000 }, async () => {
    const desk = await staffPage(DEMO_OPERACIONES, DESKTOP);
    const { page } = desk;

    // Paid over HTTP: culqi-provider.test.ts drives the checkout and Culqi's payment page in Chromium.
    const refunded = await culqiPaidOrder(server.baseURL, culqi);
    await page.goto(`${server.baseURL}/admin/pedidos/${refunded.orderId}`);
    await expectAccessible(page, "pedido pagado");
    await page.getByRole("link", { name: "Reembolsar" }).click();
    await page.getByRole("heading", { name: /Reembolsar pedido VA-/ }).waitFor();
    await expectAccessible(page, "reembolsar");
    await page.getByRole("radio", { name: "Una parte" }).check();
    await page.getByLabel(/Monto a devolver/).fill("25.50");
    await page.getByLabel("Motivo").fill("Un bidón llegó golpeado");
    await page.getByRole("button", { name: "Reembolsar" }).click();
    await page.waitForURL((url) => url.pathname === `/admin/pedidos/${refunded.orderId}`);
    expect(await page.getByTestId("staff-order-refunds").textContent()).toMatch(/^S\/ 25\.50 · .* · Devuelto/);
    expect(culqi.refunds.filter((refund) => refund.charge_id === refunded.chargeId)).toEqual([
      expect.objectContaining({ amount: 2550, reason: "solicitud_comprador" }),
    ]);
    await waitForEmail(server.outboxDir, (email) => email.kind === "order-refunded" && email.text.includes("Te devolvimos S/ 25.50"));

    // Another order, already being prepared for its day, is cancelled before it leaves: Culqi gives it all back.
    const lastName = surname();
    const cancelled = await culqiPaidOrder(server.baseURL, culqi, { apellido: lastName });
    const bookedDate = cancelled.deliveryDate;
    await page.goto(`${server.baseURL}/admin/despacho?fecha=${bookedDate}`);
    await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
    await dispatchRow(page, lastName).getByRole("checkbox").check();
    await page.getByRole("button", { name: "Preparar" }).click();
    await page.getByTestId("dispatch-message").getByText("1 envío pasó a Preparando.").waitFor();
    await page.goto(`${server.baseURL}/admin/pedidos/${cancelled.orderId}`);
    await page.getByRole("link", { name: "Cancelar pedido" }).click();
    await page.getByRole("heading", { name: /Cancelar pedido VA-/ }).waitFor();
    await expectAccessible(page, "cancelar");
    await page.getByLabel("Motivo de la cancelación").fill("El cliente se mudó");
    await page.getByLabel(/Confirmo que quiero cancelar/).check();
    await page.getByRole("button", { name: "Cancelar pedido" }).click();
    await page.waitForURL((url) => url.pathname === `/admin/pedidos/${cancelled.orderId}`);
    expect(await page.getByTestId("order-status").textContent()).toBe("Reembolsado");
    expect(culqi.refunds.filter((refund) => refund.charge_id === cancelled.chargeId)).toEqual([expect.objectContaining({ amount: 5990 })]);
    await waitForEmail(server.outboxDir, (email) => email.kind === "order-cancelled" && email.text.includes("El cliente se mudó"));
    // Its delivery leaves the day's work: Despacho lists no cancelled delivery.
    await page.goto(`${server.baseURL}/admin/despacho?fecha=${bookedDate}`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Despacho");
    expect(await page.getByTestId("dispatch-delivery").count()).toBeGreaterThan(0);
    expect(await dispatchRow(page, lastName).count()).toBe(0);
    expect(desk.errors).toEqual([]);
    await desk.close();
  });
});
