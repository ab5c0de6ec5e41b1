import { and, asc, eq, like } from "drizzle-orm";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import type { Database } from "@server/db/client";
import { deliveries, driverConfirmationReceipts, orders, outboxEmails, users } from "@server/db/schema";
import { DEMO_ADMIN, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { seedOnStart } from "@server/db/seed/seed";
import { applySandboxAction } from "@server/order-flows/index.server";
import { limaToday } from "@core/lima-dates";
import { cookieHeader, DEMO_CUSTOMER, signInCookies, type SessionCookie } from "../support/accounts";
import { expectPageError, launchBrowser, openPage } from "../support/browser";
import { checkoutInput } from "../support/checkout-fixture";
import { auditLayout } from "../support/layout-audit";
import { openShopDatabase, preparedShopDatabase, startShopServer, type ShopServer } from "../support/shop-server";

const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
/** What Chromium logs for each request it could not send while the test holds it offline. */
const OFFLINE_NOISE = /net::ERR_INTERNET_DISCONNECTED|Failed to fetch/;

/**
 * Issue 26, decision 0079: /admin/reparto as an app on a driver's phone — installable, kept by its
 * service worker for the repartidor only, and working without signal: taps kept on the phone, a
 * reload without signal, and the queue applied once, in order, with the driver's times when the
 * signal returns (Chromium's offline mode covers the page and the service worker alike).
 */
describe("the driver app on a phone", () => {
  let server: ShopServer;
  let browser: Browser;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let otherDriverId = "";
  const stops: Record<"journey" | "moved", { orderId: string; deliveryId: string; address: string }> = {
    journey: { orderId: "", deliveryId: "", address: "Jr. Sin Señal 111" },
    // Dispatch moves it to another driver while the phone is offline.
    moved: { orderId: "", deliveryId: "", address: "Jr. Reasignada 222" },
  };

  async function prepareStops(db: Database) {
    await seedOnStart(db, { base: true, demo: true });
    const [driver] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    otherDriverId = "staff-otro-repartidor@demo.pe";
    await db.insert(users).values({
      id: otherDriverId,
      name: "Luis Reparto",
      email: "otro-repartidor@demo.pe",
      emailVerified: true,
      firstName: "Luis",
      lastName: "Reparto",
      role: "repartidor",
    });
    const placedAt = new Date(Date.now() - 30 * 3_600_000);
    for (const [index, stop] of Object.values(stops).entries()) {
      const placed = await placeOrder(db, checkoutInput(placedAt, { correo: DEMO_CUSTOMER.email, direccion: stop.address }), {
        now: placedAt,
        provider: "sandbox",
        userId: null,
      });
      if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
      await applySandboxAction(db, placed.paymentId, "approve_card", { now: placedAt, siteUrl: "http://localhost" });
      const [delivery] = await db
        .update(deliveries)
        .set({ deliveryDate: limaToday(new Date()), assignedDriverId: driver!.id, routePosition: index + 1, status: "scheduled" })
        .where(eq(deliveries.orderId, placed.orderId))
        .returning({ id: deliveries.id });
      await db
        .update(orders)
        .set({ deliveryDate: limaToday(new Date()) })
        .where(eq(orders.id, placed.orderId));
      Object.assign(stop, { orderId: placed.orderId, deliveryId: delivery!.id });
    }
  }

  beforeAll(async () => {
    const database = await preparedShopDatabase(inject("databaseTemplates"), prepareStops);
    env = database.env;
    cleanup = database.drop;
    server = await startShopServer({ env });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await cleanup?.();
  });

  async function signedIn(account: { email: string; password: string }) {
    const cookies: SessionCookie[] = await signInCookies(server.baseURL, account.email, account.password);
    const tracked = await openPage(browser, PHONE);
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }

  /** The route, with its service worker installed and in control of the page. */
  async function openInstalledApp(page: Page) {
    await page.goto(`${server.baseURL}/admin/reparto`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${server.baseURL}/admin/reparto`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  }

  const stopCard = (page: Page, address: string) => page.getByTestId("driver-stop").filter({ hasText: address });
  const banner = (page: Page) => page.getByTestId("driver-app-banner");
  const driverAppLeftovers = (page: Page) =>
    page.evaluate(async () => ({
      workers: (await navigator.serviceWorker.getRegistrations()).length,
      caches: (await caches.keys()).filter((name) => name.startsWith("reparto-")),
      databases: (await indexedDB.databases()).map((database) => database.name),
    }));

  it("draws in the phone's own font with the one shared stylesheet, and asks React Router for no routes as it starts", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR);
    const fonts: string[] = [];
    const discoveries: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "font") fonts.push(request.url());
      if (new URL(request.url()).pathname === "/__manifest") discoveries.push(request.url());
    });
    const response = await page.goto(`${server.baseURL}/admin/reparto`);
    expect(/style-src ([^;]*)/.exec(response!.headers()["content-security-policy"]!)![1]).toBe("'self'");
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    expect(await page.locator('head link[rel="stylesheet"]').count()).toBe(1);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^ui-sans-serif, system-ui/);
    expect(await page.locator('link[rel="preload"][as="font"]').count()).toBe(0);
    expect(fonts).toEqual([]);
    // Its links and forms ask React Router for no routes as it starts (handle.discoverLinks).
    expect(await page.locator("[data-discover]").count()).toBe(0);
    expect(discoveries).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it("installs as an app: manifest, reachable icons and iPhone tags, and a service worker for the repartidor only, forgotten on signing out", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR);
    await openInstalledApp(page);
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute("href");
    const manifestResponse = await page.request.get(new URL(manifestHref!, server.baseURL).href);
    expect(manifestResponse.headers()["content-type"]).toContain("application/manifest+json");
    const manifest = (await manifestResponse.json()) as Record<string, unknown> & { icons: { src: string; sizes: string; purpose: string }[] };
    expect(manifest).toMatchObject({
      name: "Vida Alcalina · Reparto",
      short_name: "Reparto",
      start_url: "/admin/reparto",
      scope: "/admin/reparto",
      display: "standalone",
      theme_color: "#0e7490",
      background_color: "#f8fafc",
      lang: "es-PE",
    });
    const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
    const icons = [...manifest.icons.map((icon) => ({ src: icon.src, size: Number(icon.sizes.split("x")[0]) })), { src: appleIcon!, size: 180 }];
    expect(icons.map((icon) => icon.size).sort()).toEqual([180, 192, 512, 512]);
    for (const icon of icons) {
      const response = await page.request.get(new URL(icon.src, server.baseURL).href);
      expect(response.status(), icon.src).toBe(200);
      expect(response.headers()["content-type"]).toBe("image/png");
      // The PNG's own header (IHDR) says its width and height.
      const png = await response.body();
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], icon.src).toEqual([icon.size, icon.size]);
    }
    expect(await page.locator('meta[name="apple-mobile-web-app-capable"]').getAttribute("content")).toBe("yes");
    expect(await page.locator('meta[name="theme-color"]').getAttribute("content")).toBe("#0e7490");
    // The worker's own policy lets it reach this origin (a worker's fetches follow its script's CSP).
    const worker = await page.request.get(`${server.baseURL}/reparto-sw.js`);
    expect(worker.headers()["content-security-policy"]).toContain("default-src 'self'");
    expect(worker.headers()["cache-control"]).toBe("no-cache");
    expect((await auditLayout(page)).filter((problem) => problem.kind !== "under-chat-button")).toEqual([]);

    // "Cerrar sesión" leaves nothing of the route on the phone.
    await page.getByRole("button", { name: "Cerrar sesión" }).click();
    await page.waitForURL(/\/login/);
    expect(await driverAppLeftovers(page)).toEqual({ workers: 0, caches: [], databases: [] });
    expect(errors).toEqual([]);
    await close();

    // The admin may open the page, but their browser neither installs nor keeps it.
    const admin = await signedIn(DEMO_ADMIN);
    await admin.page.goto(`${server.baseURL}/admin/reparto`);
    await admin.page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    expect(await admin.page.locator('link[rel="manifest"]').count()).toBe(0);
    await admin.page.waitForLoadState("load");
    expect(await driverAppLeftovers(admin.page)).toEqual({ workers: 0, caches: [], databases: [] });
    expect(admin.errors).toEqual([]);
    await admin.close();
  }, 120_000);

  it("shows on its stop, in Spanish, a confirmation the server refuses because dispatch moved the stop meanwhile", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR);
    // Offline, the page's own fetches fail by design; the queue is what this test checks.
    expectPageError(OFFLINE_NOISE);
    await openInstalledApp(page);
    await page.context().setOffline(true);
    await stopCard(page, stops.moved.address).getByRole("button", { name: "Marcar en camino" }).click();
    await banner(page).getByText("Sin conexión · 1 por enviar").waitFor();
    expect(await stopCard(page, stops.moved.address).getByTestId("delivery-status").textContent()).toBe("En camino");

    // Operaciones gives the stop to another driver while the phone has no signal.
    const desk = cookieHeader(await signInCookies(server.baseURL, DEMO_OPERACIONES.email, DEMO_OPERACIONES.password));
    const moved = await fetch(`${server.baseURL}/admin/despacho?fecha=${limaToday(new Date())}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: desk, origin: server.baseURL, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "asignar", ids: stops.moved.deliveryId, repartidor: otherDriverId }),
    });
    expect(moved.status).toBeLessThan(400);

    await page.context().setOffline(false);
    const refused = page.getByTestId("refused-stop").filter({ hasText: stops.moved.address });
    await refused.waitFor();
    expect(await refused.getByRole("alert").textContent()).toContain(
      "No se registró «En camino»: Esta parada ya no está en tu ruta: no se registró. Consulta con operaciones.",
    );
    expect(await stopCard(page, stops.moved.address).count()).toBe(0);
    expect(await banner(page).count()).toBe(0);
    // Drawn after the first paint (a class no stop used before): red, not bare.
    expect(await refused.getByRole("alert").evaluate((alert) => getComputedStyle(alert).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
    // Read and dismissed by the driver: only then does it leave the phone.
    await refused.getByRole("button", { name: "Entendido" }).click();
    await refused.waitFor({ state: "detached" });
    expect(errors.filter((error) => !OFFLINE_NOISE.test(error))).toEqual([]);
    await close();
  }, 120_000);

  it("keeps two confirmations made without signal through a reload, and the server applies both once, in order, with the driver's times", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR);
    // Offline, the page's own fetches fail by design; the queue is what this test checks.
    expectPageError(OFFLINE_NOISE);
    await openInstalledApp(page);
    await page.context().setOffline(true);

    const beforeFirst = Date.now();
    await stopCard(page, stops.journey.address).getByRole("button", { name: "Marcar en camino" }).click();
    await banner(page).getByText("Sin conexión · 1 por enviar").waitFor();
    const afterFirst = Date.now();
    const card = stopCard(page, stops.journey.address);
    expect(await card.getByTestId("delivery-status").textContent()).toBe("En camino");
    expect(await card.getByTestId("stop-pending").textContent()).toBe("Guardado en el teléfono: se enviará cuando vuelva la señal.");

    await card.getByLabel("Nombre de quien recibe").fill("Rosa Quispe");
    await card.getByLabel("Bidones llenos dejados").fill("2");
    const beforeSecond = Date.now();
    await card.getByRole("button", { name: "Confirmar entrega" }).click();
    await banner(page).getByText("Sin conexión · 2 por enviar").waitFor();
    const afterSecond = Date.now();
    expect(await card.getByTestId("delivery-status").textContent()).toBe("Entregado");
    expect(await card.getByTestId("stop-proof").textContent()).toBe("Recibió Rosa Quispe. Llenos dejados: 2, vacíos recogidos: 0.");

    // The app opened again without signal: the worker's copy of the page, the phone's route and queue.
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await banner(page).getByText("Sin conexión · 2 por enviar").waitFor();
    expect(await stopCard(page, stops.journey.address).getByTestId("delivery-status").textContent()).toBe("Entregado");
    // The banner and the kept taps fit the phone's width like the rest of the page.
    expect((await auditLayout(page)).filter((problem) => problem.kind !== "under-chat-button")).toEqual([]);

    await page.context().setOffline(false);
    await banner(page).waitFor({ state: "detached" });
    await page.getByText("Enviamos 2 confirmaciones guardadas en el teléfono.").waitFor();
    const done = stopCard(page, stops.journey.address);
    expect(await done.getByTestId("delivery-status").textContent()).toBe("Entregado");
    expect(await done.getByTestId("stop-pending").count()).toBe(0);
    expect(errors.filter((error) => !OFFLINE_NOISE.test(error))).toEqual([]);
    await close();

    // The server's own record, read once it has stopped (the embedded database has one owner at a time).
    await server.stop();
    const handle = await openShopDatabase(env);
    try {
      const [row] = await handle.db.select().from(deliveries).where(eq(deliveries.id, stops.journey.deliveryId));
      const steps = row!.statusHistory.filter((entry) => ["shipped", "in_transit", "delivered"].includes(entry.status));
      expect(steps.map((entry) => [entry.status, entry.actor])).toEqual([
        ["shipped", DEMO_REPARTIDOR.email],
        ["in_transit", DEMO_REPARTIDOR.email],
        ["delivered", DEMO_REPARTIDOR.email],
      ]);
      const at = (status: string) => Date.parse(steps.find((entry) => entry.status === status)!.timestamp);
      // The phone's times, not the time the signal came back.
      expect(at("in_transit")).toBeGreaterThanOrEqual(beforeFirst);
      expect(at("in_transit")).toBeLessThanOrEqual(afterFirst);
      expect(at("delivered")).toBeGreaterThanOrEqual(beforeSecond);
      expect(at("delivered")).toBeLessThanOrEqual(afterSecond);
      const receipts = await handle.db
        .select()
        .from(driverConfirmationReceipts)
        .where(eq(driverConfirmationReceipts.deliveryId, stops.journey.deliveryId))
        .orderBy(asc(driverConfirmationReceipts.recordedAt));
      expect(receipts.map((receipt) => receipt.intent)).toEqual(["en_camino", "entregado"]);
      const emails = await handle.db
        .select({ kind: outboxEmails.kind })
        .from(outboxEmails)
        .where(and(like(outboxEmails.dedupeKey, `delivery-%${stops.journey.deliveryId}%`)));
      expect(emails.map((email) => email.kind).sort()).toEqual(["delivery-delivered", "delivery-on-the-way"]);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
