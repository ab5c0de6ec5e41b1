import { eq } from "drizzle-orm";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import type { Database } from "@server/db/client";
import { deliveries, orders, users } from "@server/db/schema";
import { DEMO_ADMIN, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { seedOnStart } from "@server/db/seed/seed";
import { applySandboxAction } from "@server/order-flows/index.server";
import { limaToday } from "@core/lima-dates";
import { cookieHeader, DEMO_CUSTOMER, signInCookies, type SessionCookie } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { waitForHydration } from "../support/e2e";
import { launchBrowser, openPage } from "../support/browser";
import { checkoutInput } from "../support/checkout-fixture";
import { auditLayout } from "../support/layout-audit";
import { preparedShopDatabase, startShopServer, type ShopServer } from "../support/shop-server";

const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

/**
 * Issue 10, the driver's day on a phone: a paid order of the demo customer, on the demo
 * repartidor's route today, is marked en camino and then entregado with 1 bidón left and 1
 * collected; the customer's order page then says "Entregado" and "Mis envíos" shows the bidones.
 * The stops are written into the shop's database before its server starts (the embedded database
 * has one owner at a time), then everything else goes through the browser.
 */
describe("the driver's route on a phone", () => {
  let server: ShopServer;
  let browser: Browser;
  let cleanup: () => Promise<void>;
  const stops: Record<"withJs" | "withoutJs" | "otherDriver" | "withCode", { orderId: string; deliveryId: string; address: string }> = {
    withJs: { orderId: "", deliveryId: "", address: "Jr. Reparto Uno 101" },
    withoutJs: { orderId: "", deliveryId: "", address: "Jr. Reparto Dos 202" },
    // On the admin's route: the demo repartidor may not touch it.
    otherDriver: { orderId: "", deliveryId: "", address: "Jr. Reparto Tres 303" },
    // Pago contra entrega in cash, paying with S/ 100 (issue 38): the driver collects at the door and brings change.
    withCode: { orderId: "", deliveryId: "", address: "Jr. Reparto Cuatro 404" },
  };

  async function prepareStops(db: Database) {
    await seedOnStart(db, { base: true, demo: true });
    const [customer] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    const [driver] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email));
    // Placed yesterday in Lima for a valid Miraflores day, then moved to today's route, as dispatch would.
    const placedAt = new Date("2026-11-24T15:00:00Z");
    for (const [index, stop] of Object.values(stops).entries()) {
      const assignee = stop === stops.otherDriver ? admin! : driver!;
      const atDoor = stop === stops.withCode;
      const door = atDoor ? { formaPago: "contra_entrega", metodoContraEntrega: "efectivo", pagaCon: "100" } : {};
      const placed = await placeOrder(db, checkoutInput(placedAt, { correo: DEMO_CUSTOMER.email, direccion: stop.address, ...door }), {
        now: placedAt,
        provider: "sandbox",
        userId: customer!.id,
        siteUrl: "http://localhost",
      });
      if (!placed.ok || placed.nextStep !== (atDoor ? "pay_at_door" : "process_payment")) throw new Error("order not placed");
      if (!atDoor) await applySandboxAction(db, placed.paymentId, "approve_card", { now: placedAt, siteUrl: "http://localhost" });
      const [delivery] = await db
        .update(deliveries)
        .set({ deliveryDate: limaToday(new Date()), assignedDriverId: assignee.id, routePosition: index + 1, status: "scheduled" })
        .where(eq(deliveries.orderId, placed.orderId))
        .returning({ id: deliveries.id });
      stop.deliveryId = delivery!.id;
      await db
        .update(orders)
        .set({ deliveryDate: limaToday(new Date()) })
        .where(eq(orders.id, placed.orderId));
      stop.orderId = placed.orderId;
    }
  }

  beforeAll(async () => {
    // A copy of the run's seeded template (migrated and seeded: the stops are added to it).
    const database = await preparedShopDatabase(inject("databaseTemplates"), prepareStops);
    cleanup = database.drop;
    server = await startShopServer({ env: database.env });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await cleanup?.();
  });

  async function signedIn(account: { email: string; password: string }, options: BrowserContextOptions) {
    const cookies: SessionCookie[] = await signInCookies(server.baseURL, account.email, account.password);
    const tracked = await openPage(browser, { ...PHONE, ...options });
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }

  /** What the driver collected at the door in the collection journey, as their phone showed it. */
  let collectedAmount = "";

  const stopCard = (page: Page, address: string) => page.getByTestId("driver-stop").filter({ hasText: address });

  /** No serious axe finding, no sideways scroll; `uncut` also asks that no text be cut or pushed off the screen. */
  async function expectPhoneReady(page: Page, label: string, uncut: boolean) {
    expect(await seriousAxeViolations(page, label)).toEqual([]);
    // "Mis envíos" shortens a long item list with an ellipsis on purpose, so there only the page width is checked.
    expect((await auditLayout(page)).filter((problem) => (uncut ? problem.kind !== "under-chat-button" : problem.kind === "page-overflow"))).toEqual([]);
  }

  /** `audit`: axe and the layout audit run scripts in the page, so only the run with JavaScript checks them. */
  async function driveStop(page: Page, address: string, label: string, audit: boolean) {
    await page.goto(`${server.baseURL}/admin/reparto`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Mi ruta de hoy");
    const card = stopCard(page, address);
    expect(await card.getByTestId("delivery-status").textContent()).toBe("Programado");
    expect(await card.getByRole("link", { name: "Llamar" }).getAttribute("href")).toBe("tel:+51987654321");
    expect(await card.getByRole("link", { name: "WhatsApp" }).getAttribute("href")).toMatch(/^https:\/\/wa\.me\/51987654321\?text=/);
    // No pin on this order: "Cómo llegar" searches the typed address (issue 40).
    expect(await card.getByRole("link", { name: "Cómo llegar" }).getAttribute("href")).toBe(
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${address}, Miraflores, Lima, Perú`)}`,
    );
    expect(await card.getByTestId("amount-to-collect").textContent()).toBe("Pagado");
    if (audit) await expectPhoneReady(page, `${label}: ruta`, true);

    await card.getByRole("button", { name: "Marcar en camino" }).click();
    await page.getByText("Parada marcada en camino. Avisamos al cliente.").waitFor();
    expect(await stopCard(page, address).getByTestId("delivery-status").textContent()).toBe("En camino");

    const onTheRoad = stopCard(page, address);
    await onTheRoad.getByLabel("Bidones llenos dejados").fill("1");
    await onTheRoad.getByLabel("Bidones vacíos recogidos").fill("1");
    // A name of blanks passes the browser's `required` but not the server, which says why and keeps the counts typed.
    await onTheRoad.getByLabel("Nombre de quien recibe").fill("   ");
    await onTheRoad.getByRole("button", { name: "Confirmar entrega" }).click();
    await page.getByText("Ingresa el nombre de quien recibe").waitFor();
    expect(await stopCard(page, address).getByTestId("delivery-status").textContent()).toBe("En camino");
    expect(await stopCard(page, address).getByLabel("Bidones llenos dejados").inputValue()).toBe("1");
    expect(await stopCard(page, address).getByLabel("Bidones vacíos recogidos").inputValue()).toBe("1");
    await onTheRoad.getByLabel("Nombre de quien recibe").fill("Rosa Quispe");
    if (audit) await expectPhoneReady(page, `${label}: entrega`, true);
    await onTheRoad.getByRole("button", { name: "Confirmar entrega" }).click();
    await page.getByText("Entrega registrada. Avisamos al cliente.").waitFor();
    const done = stopCard(page, address);
    expect(await done.getByTestId("delivery-status").textContent()).toBe("Entregado");
    expect(await done.getByTestId("stop-proof").textContent()).toBe("Recibió Rosa Quispe. Llenos dejados: 1, vacíos recogidos: 1.");
    expect(await done.getByRole("button").count()).toBe(0);
  }

  async function customerSees(orderId: string, label: string) {
    const { page, errors, close } = await signedIn(DEMO_CUSTOMER, {});
    await page.goto(`${server.baseURL}/orden/${orderId}`);
    expect(await page.getByTestId("order-status").textContent()).toBe("Entregado");
    await page.goto(`${server.baseURL}/dashboard/envios?filter=delivered`);
    expect(await page.getByTestId("delivery-row").first().getByTestId("delivery-status").textContent()).toBe("Entregado");
    const ledger = page.getByRole("list", { name: "Últimos movimientos de bidones" });
    expect(await ledger.getByText("Recibiste 1 bidón lleno").count()).toBeGreaterThan(0);
    expect(await ledger.getByText("Devolviste 1 vacío").count()).toBeGreaterThan(0);
    // She held 10 from her history before the ledger (migration 0046, issue 41); one swapped leaves 10.
    expect(await page.getByTestId("bidon-balance").textContent()).toBe("10");
    await expectPhoneReady(page, `${label}: Mis envíos`, false);
    expect(errors).toEqual([]);
    await close();
  }

  it("takes a stop from Programado to Entregado with JavaScript, and the customer sees it delivered", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR, {});
    await driveStop(page, stops.withJs.address, "con JavaScript", true);
    expect(errors).toEqual([]);
    await close();
    await customerSees(stops.withJs.orderId, "con JavaScript");
  }, 120_000);

  it("does the same without JavaScript: every button is a plain form post", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR, { javaScriptEnabled: false });
    await driveStop(page, stops.withoutJs.address, "sin JavaScript", false);
    expect(errors).toEqual([]);
    await close();
    await customerSees(stops.withoutJs.orderId, "sin JavaScript");
  }, 120_000);

  it("records money collected at the door: a contra-entrega stop shows the change to bring, asks how it was collected, then the order is paid", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR, {});
    await page.goto(`${server.baseURL}/admin/reparto`);
    // A tap before React takes over the page can be lost with the server-rendered button.
    await waitForHydration(page);
    const card = stopCard(page, stops.withCode.address);
    const amount = (await card.getByTestId("amount-to-collect").textContent())!;
    expect(amount).toBe("S/ 59.90");
    expect(await card.getByTestId("collect-line").textContent()).toBe("efectivo (paga con S/ 100.00: vuelto S/ 40.10)");
    await card.getByRole("button", { name: "Marcar en camino" }).click();
    await page.getByText("Parada marcada en camino. Avisamos al cliente.").waitFor();
    const onTheRoad = stopCard(page, stops.withCode.address);
    expect(await onTheRoad.getByRole("group", { name: `Cobro de ${amount}` }).isVisible()).toBe(true);
    await onTheRoad.getByLabel("Nombre de quien recibe").fill("Rosa Quispe");
    await onTheRoad.getByLabel("Cobré en efectivo").check();
    await onTheRoad.getByRole("button", { name: "Confirmar entrega" }).click();
    await page.getByText("Entrega registrada. Avisamos al cliente.").waitFor();
    expect(await stopCard(page, stops.withCode.address).getByTestId("amount-to-collect").textContent()).toBe("Pagado");
    // Decision 0060: the driver sees the cash they owe the shop today (only their own).
    expect(await page.getByTestId("cash-to-hand-over").textContent()).toBe(`Efectivo por rendir hoy: ${amount}`);
    collectedAmount = amount;
    await page.goto(`${server.baseURL}/orden/${stops.withCode.orderId}`);
    expect(await page.getByTestId("order-status").textContent()).toBe("Entregado");
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it("shows operaciones the cash in Caja and records the driver's rendición, also without JavaScript", async () => {
    expect(collectedAmount).toMatch(/^S\/\s?\d/);
    const desk = await signedIn(DEMO_OPERACIONES, { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });
    await desk.page.goto(`${server.baseURL}/admin/caja`);
    const box = desk.page.getByTestId("driver-cash-box").filter({ hasText: DEMO_REPARTIDOR.email });
    expect(await box.getByTestId("door-collection").count()).toBe(1);
    expect(await box.getByTestId("door-collection").textContent()).toContain(`${collectedAmount} · Efectivo`);
    expect(await box.getByTestId("cash-due").textContent()).toBe(collectedAmount);
    expect(await box.getByText("Sin rendición registrada.").isVisible()).toBe(true);
    expect(await seriousAxeViolations(desk.page, "caja: escritorio")).toEqual([]);

    // The count typed on a phone without JavaScript: a wrong amount is refused and stays typed.
    const phone = await signedIn(DEMO_OPERACIONES, { javaScriptEnabled: false });
    await phone.page.goto(`${server.baseURL}/admin/caja`);
    const phoneBox = () => phone.page.getByTestId("driver-cash-box").filter({ hasText: DEMO_REPARTIDOR.email });
    await phoneBox().getByLabel("Efectivo contado (S/)").fill("cincuenta");
    await phoneBox().getByLabel("Nota (opcional)").fill("Entregó en sobre");
    await phoneBox().getByRole("button", { name: "Registrar rendición" }).click();
    await phone.page.getByText("Escribe el efectivo contado en soles, por ejemplo 150.50").waitFor();
    expect(await phoneBox().getByLabel("Efectivo contado (S/)").inputValue()).toBe("cincuenta");
    expect(await phoneBox().getByLabel("Nota (opcional)").inputValue()).toBe("Entregó en sobre");
    await phoneBox()
      .getByLabel("Efectivo contado (S/)")
      .fill(collectedAmount.replace(/^S\/\s?/, ""));
    await phoneBox().getByRole("button", { name: "Registrar rendición" }).click();
    await phone.page.getByText("Rendición registrada.").waitFor();
    expect(await phoneBox().getByTestId("handover-status").textContent()).toBe(`Rendición: ${collectedAmount} · Cuadra`);
    expect(await phoneBox().getByRole("button", { name: "Registrar corrección" }).isVisible()).toBe(true);
    expect(phone.errors).toEqual([]);
    await phone.close();

    await desk.page.setViewportSize({ width: 360, height: 740 });
    await desk.page.reload();
    await expectPhoneReady(desk.page, "caja: teléfono", true);
    expect(desk.errors).toEqual([]);
    await desk.close();
  }, 120_000);

  it("refuses, with the Spanish 404, a stop on another driver's route and an unknown stop, and leaves them as they were", async () => {
    const cookie = cookieHeader(await signInCookies(server.baseURL, DEMO_REPARTIDOR.email, DEMO_REPARTIDOR.password));
    const post = (deliveryId: string) =>
      fetch(`${server.baseURL}/admin/reparto`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, origin: server.baseURL, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "en_camino", deliveryId }),
      });
    for (const deliveryId of [stops.otherDriver.deliveryId, "00000000-0000-4000-8000-000000000000", "no-es-un-id"]) {
      const answer = await post(deliveryId);
      expect(answer.status, deliveryId).toBe(404);
      expect(await answer.text()).toContain("Página no encontrada");
    }
    const { page, close } = await openPage(browser, PHONE);
    await page.goto(`${server.baseURL}/orden/${stops.otherDriver.orderId}`);
    expect(await page.getByTestId("order-status").textContent()).toBe("Pagado");
    await close();
    // Nor does it appear on the repartidor's page.
    const route = await fetch(`${server.baseURL}/admin/reparto`, { headers: { cookie } });
    expect(await route.text()).not.toContain(stops.otherDriver.address);
  });
});
