import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { and, eq } from "drizzle-orm";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import type { Database } from "@server/db/client";
import { deliveries, orders, productVariants, users } from "@server/db/schema";
import { DEMO_ADMIN, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { seedOnStart } from "@server/db/seed/seed";
import { applySandboxAction } from "@server/order-flows/index.server";
import { limaToday } from "@core/lima-dates";
import { DEMO_CUSTOMER, signInCookies } from "../support/accounts";
import { expectPageError, launchBrowser, openPage } from "../support/browser";
import { checkoutInput, uniqueContact } from "../support/checkout-fixture";
import { auditLayout } from "../support/layout-audit";
import { preparedShopDatabase, startShopServer, type ShopServer } from "../support/shop-server";

const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
/** What Chromium logs for each request it could not send while the test holds it offline. */
const OFFLINE_NOISE = /net::ERR_INTERNET_DISCONNECTED|Failed to fetch/;
/** A point on a hillside of San Juan de Lurigancho, where the typed address finds nothing. */
const PIN = { lat: -11.987654, lng: -76.998765 };
/** No internet here: a tile host that refuses every connection, so the map's list is what is read. */
const TILES_ORIGIN = "http://127.0.0.1:59997";
const tileFailure = new RegExp(`^console: Failed to load resource: net::ERR_CONNECTION_REFUSED <${TILES_ORIGIN.replace(/[.:/]/g, "\\$&")}/`);

/**
 * Issue 40, the driver's day on the street: "Cómo llegar" goes to the pin; a delivery made without
 * signal moves the money, the bidones and the counters at once; the next stop comes first.
 */
describe("the driver app in the field", () => {
  let server: ShopServer;
  let browser: Browser;
  let cleanup: () => Promise<void>;
  const stops: Record<"atDoor" | "noPin" | "photo", { orderId: string; deliveryId: string; address: string }> = {
    // Pago contra entrega in cash for a pack of 3 recargas, with its pin: the first stop of the day.
    atDoor: { orderId: "", deliveryId: "", address: "Mz. B Lt. 4, AA.HH. Cerro Alto" },
    // Paid, without a pin: "Cómo llegar" searches its address.
    noPin: { orderId: "", deliveryId: "", address: "Jr. Sin Pin 505" },
    // The demo customer's own paid order: delivered offline with a photo of the bidones.
    photo: { orderId: "", deliveryId: "", address: "Jr. Con Foto 606" },
  };

  async function prepareStops(db: Database) {
    await seedOnStart(db, { base: true, demo: true });
    const [driver] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    const [customer] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    const [pack] = await db
      .select({ productId: productVariants.productId, variantId: productVariants.id, priceCents: productVariants.priceCents })
      .from(productVariants)
      .where(eq(productVariants.sku, "VA-BH20-R3"));
    // The demo's own stops leave the driver's day: this route is these two stops only.
    await db
      .update(deliveries)
      .set({ assignedDriverId: null, routePosition: null })
      .where(and(eq(deliveries.assignedDriverId, driver!.id), eq(deliveries.deliveryDate, limaToday(new Date()))));
    const placedAt = new Date(Date.now() - 30 * 3_600_000);
    for (const [index, stop] of Object.values(stops).entries()) {
      const atDoor = stop === stops.atDoor;
      const placed = await placeOrder(
        db,
        checkoutInput(placedAt, {
          correo: stop === stops.photo ? DEMO_CUSTOMER.email : `campo-${randomUUID().slice(0, 8)}@prueba.pe`,
          ...uniqueContact(),
          direccion: stop.address,
          ...(atDoor
            ? {
                formaPago: "contra_entrega",
                metodoContraEntrega: "efectivo",
                items: [{ productId: pack!.productId, variantId: pack!.variantId, quantity: 1 }],
                clientSubtotalCents: pack!.priceCents,
              }
            : {}),
        }),
        { now: placedAt, provider: "sandbox", userId: stop === stops.photo ? customer!.id : null, siteUrl: "http://localhost" },
      );
      if (!placed.ok || placed.nextStep !== (atDoor ? "pay_at_door" : "process_payment")) throw new Error("order not placed");
      if (!atDoor) await applySandboxAction(db, placed.paymentId, "approve_card", { now: placedAt, siteUrl: "http://localhost" });
      const [delivery] = await db
        .update(deliveries)
        .set({
          deliveryDate: limaToday(new Date()),
          assignedDriverId: driver!.id,
          routePosition: index + 1,
          status: "scheduled",
          ...(atDoor ? PIN : { lat: null, lng: null }),
        })
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
    cleanup = database.drop;
    server = await startShopServer({ env: { ...database.env, MAP_TILES_URL: `${TILES_ORIGIN}/{z}/{x}/{y}.png` } });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await cleanup?.();
  });

  async function signedIn(account: { email: string; password: string }) {
    const cookies = await signInCookies(server.baseURL, account.email, account.password);
    const tracked = await openPage(browser, PHONE);
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }

  /** The route, with its service worker installed and in control of the page. */
  async function openInstalledApp(page: Page) {
    await page.goto(`${server.baseURL}/admin/reparto`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  }

  const stopCard = (page: Page, address: string) => page.getByTestId("driver-stop").filter({ hasText: address });

  it("sends «Cómo llegar» and Waze to the stop's pin, the typed address only without one, and prints the pin on the route sheet", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR);
    await page.goto(`${server.baseURL}/admin/reparto`);
    const pinned = stopCard(page, stops.atDoor.address);
    expect(await pinned.getByRole("link", { name: "Cómo llegar" }).getAttribute("href")).toBe(
      "https://www.google.com/maps/dir/?api=1&destination=-11.987654,-76.998765",
    );
    expect(await pinned.getByRole("link", { name: "Waze" }).getAttribute("href")).toBe("https://waze.com/ul?ll=-11.987654,-76.998765&navigate=yes");
    expect(await pinned.getByTestId("stop-pin").textContent()).toBe("Ubicación marcada: -11.987654, -76.998765");
    const unpinned = stopCard(page, stops.noPin.address);
    expect(await unpinned.getByRole("link", { name: "Cómo llegar" }).getAttribute("href")).toBe(
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${stops.noPin.address}, Miraflores, Lima, Perú`)}`,
    );
    expect(await unpinned.getByRole("link", { name: "Waze" }).getAttribute("href")).toBe(
      `https://waze.com/ul?q=${encodeURIComponent(`${stops.noPin.address}, Miraflores, Lima, Perú`)}&navigate=yes`,
    );
    // The first stop of the route is the next one, on top; the other waits below.
    expect(await page.getByTestId("next-stop").getByTestId("driver-stop").textContent()).toContain(stops.atDoor.address);
    expect((await auditLayout(page)).filter((problem) => problem.kind !== "under-chat-button")).toEqual([]);
    expect(errors).toEqual([]);
    await close();

    const desk = await signedIn(DEMO_OPERACIONES);
    await desk.page.goto(`${server.baseURL}/admin/despacho/hoja?fecha=${limaToday(new Date())}`);
    const sheetStops = desk.page.locator("li").filter({ hasText: stops.atDoor.address });
    expect(await sheetStops.getByTestId("route-stop-pin").textContent()).toBe("-11.987654, -76.998765");
    expect(await desk.page.locator("li").filter({ hasText: stops.noPin.address }).getByTestId("route-stop-pin").count()).toBe(0);
    expect(desk.errors).toEqual([]);
    await desk.close();
  }, 120_000);

  it("opens a map of the day only when asked: the stops ahead numbered as their cards, the depot, and the list without tiles", async () => {
    expectPageError(tileFailure);
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR);
    const leaflet: string[] = [];
    page.on("request", (request) => {
      if (/route-map|leaflet/.test(request.url())) leaflet.push(request.url());
    });
    await page.goto(`${server.baseURL}/admin/reparto`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    expect(leaflet).toEqual([]);
    await page.getByRole("button", { name: "Ver mapa del día" }).click();
    const map = page.getByTestId("driver-day-map");
    await map.getByTestId("route-map-fallback").waitFor({ timeout: 15_000 });
    expect(leaflet.length).toBeGreaterThan(0);
    const number = (await stopCard(page, stops.atDoor.address).getByRole("heading").first().textContent())!.match(/^(\d+)\./)![1];
    expect(await map.getByTestId("driver-day-map-list").textContent()).toContain(`${number}. ${stops.atDoor.address}`);
    expect(await map.getByTestId("driver-day-map-list").textContent()).toContain(`${stops.noPin.address} (sin ubicación en el mapa)`);
    // The depot and the pinned stop, numbered as its card.
    expect(await map.locator(".leaflet-marker-icon").allTextContents()).toEqual(expect.arrayContaining(["A", number]));
    expect((await auditLayout(page)).filter((problem) => problem.kind !== "under-chat-button")).toEqual([]);
    expect(errors.filter((error) => !tileFailure.test(error))).toEqual([]);
    await close();
  });

  it("moves the money, the bidones and the counters at once when a delivery is confirmed without signal, and keeps them once sent", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR);
    expectPageError(OFFLINE_NOISE);
    await openInstalledApp(page);
    const cash = page.getByTestId("cash-to-hand-over");
    expect(await cash.textContent()).toBe("Efectivo por rendir hoy: S/ 0.00");
    const card = () => stopCard(page, stops.atDoor.address);
    const amount = (await card().getByTestId("amount-to-collect").textContent())!;
    expect(amount).toMatch(/^S\/\s?\d+\.\d\d$/);
    const bidonesBefore = Number(await card().getByTestId("bidon-balance").textContent());

    await page.context().setOffline(true);
    // Without signal the route on screen is the copy kept on the phone, and it says since when.
    await page
      .getByTestId("route-saved-at")
      .getByText(/^Ruta guardada en el teléfono a las \d\d:\d\d\.$/)
      .waitFor();

    await card().getByRole("button", { name: "Marcar en camino" }).click();
    await page.getByTestId("driver-app-banner").getByText("Sin conexión · 1 por enviar").waitFor();
    // «Bidones llenos dejados» starts at what the order carries: a pack of 3 recargas.
    expect(await card().getByLabel("Bidones llenos dejados").inputValue()).toBe("3");
    await card().getByLabel("Nombre de quien recibe").fill("Rosa Quispe");
    await card().getByLabel("Cobré en efectivo").check();
    await card().getByRole("button", { name: "Confirmar entrega" }).click();
    await page.getByTestId("driver-app-banner").getByText("Sin conexión · 2 por enviar").waitFor();

    // At once, before any signal: the cash owed, the stop's money line, the bidones and the counters.
    expect(await cash.textContent()).toBe(`Efectivo por rendir hoy: ${amount}`);
    expect(await page.getByTestId("cash-unsent").textContent()).toBe(`Incluye ${amount} cobrados por enviar`);
    const done = page.getByTestId("done-stops").getByTestId("driver-stop").filter({ hasText: stops.atDoor.address });
    expect(await done.getByTestId("amount-to-collect").textContent()).toBe("Cobrado");
    expect(await done.getByTestId("collected-unsent").textContent()).toBe(`${amount} en efectivo · por enviar`);
    expect(await done.getByTestId("bidon-balance").textContent()).toBe(String(bidonesBefore + 3));
    expect(await page.getByTestId("route-counters").textContent()).toMatch(/3 paradas, 2 por atender, 1 hecha$/);
    expect(await page.getByTestId("done-stops").locator("summary").textContent()).toBe("Hechas (1)");
    // The next stop moved up to the top.
    expect(await page.getByTestId("next-stop").getByTestId("driver-stop").textContent()).toContain(stops.noPin.address);
    expect((await auditLayout(page)).filter((problem) => problem.kind !== "under-chat-button")).toEqual([]);

    // The signal returns: the server's word replaces the phone's, with the same money.
    await page.context().setOffline(false);
    await page.getByTestId("driver-app-banner").waitFor({ state: "detached" });
    await page.getByText("Enviamos 2 confirmaciones guardadas en el teléfono.").waitFor();
    expect(await cash.textContent()).toBe(`Efectivo por rendir hoy: ${amount}`);
    expect(await page.getByTestId("cash-unsent").count()).toBe(0);
    expect(await done.getByTestId("amount-to-collect").textContent()).toBe("Pagado");
    expect(await done.getByTestId("bidon-balance").textContent()).toBe(String(bidonesBefore + 3));
    expect(await done.getByTestId("stop-proof").textContent()).toBe("Recibió Rosa Quispe. Llenos dejados: 3, vacíos recogidos: 0.");
    expect(errors.filter((error) => !OFFLINE_NOISE.test(error))).toEqual([]);
    await close();
  }, 180_000);

  it("keeps a photo of the bidones taken without signal, compressed on the phone, and the order shows it to staff and to its customer once sent", async () => {
    const { page, errors, close } = await signedIn(DEMO_REPARTIDOR);
    expectPageError(OFFLINE_NOISE);
    await openInstalledApp(page);
    await page.context().setOffline(true);
    const card = () => stopCard(page, stops.photo.address);
    await card().getByRole("button", { name: "Marcar en camino" }).click();
    await page.getByTestId("driver-app-banner").getByText("Sin conexión · 1 por enviar").waitFor();
    await card().getByLabel("Nombre de quien recibe").fill("Portería");
    // A camera's photo: 1600 × 1200 pixels of noise, far above 200 KB, which the phone makes small
    // (larger made a loaded CI machine's Chromium slow to decode and redraw it, for nothing more tested).
    const width = 1600;
    const height = 1200;
    const noise = Buffer.alloc(width * height * 3);
    for (let at = 0; at < noise.length; at += 1) noise[at] = (at * 2654435761) >>> 24;
    const camera = await sharp(noise, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(camera.length).toBeGreaterThan(1024 * 1024);
    expect(await card().locator('input[type="file"]').getAttribute("capture")).toBe("environment");
    await card().getByLabel("Foto de los bidones en la puerta (sin personas)").setInputFiles({ name: "bidones.jpg", mimeType: "image/jpeg", buffer: camera });
    const ready = await card()
      .getByTestId("photo-state")
      .getByText(/^Foto lista \((\d+) KB\)\.$/)
      .textContent();
    expect(Number(/\d+/.exec(ready!)![0])).toBeLessThanOrEqual(200);
    await card().getByRole("button", { name: "Confirmar entrega" }).click();
    await page.getByTestId("driver-app-banner").getByText("Sin conexión · 2 por enviar").waitFor();
    // On the phone, in its queue, until the signal returns.
    const kept = await page.evaluate(
      () =>
        new Promise<number[]>((resolve, reject) => {
          const opened = indexedDB.open("va-reparto");
          opened.onerror = () => reject(new Error("no database"));
          opened.onsuccess = () => {
            const request = opened.result.transaction("photos").objectStore("photos").getAll();
            request.onsuccess = () => resolve((request.result as { photo: Blob }[]).map((entry) => entry.photo.size));
            opened.result.close();
          };
        }),
    );
    expect(kept).toHaveLength(1);
    expect(kept[0]).toBeLessThanOrEqual(200 * 1024);

    // The signal comes back weak: the first upload fails (as a loaded server's 503), so the driver
    // hears of the delivery from the retry, not from the signal's return.
    let failedUploads = 0;
    await page.route(
      (url) => url.pathname === "/admin/reparto/fotos",
      async (route) => {
        failedUploads += 1;
        await route.fulfill({ status: 503, body: "" });
      },
      { times: 1 },
    );
    await page.context().setOffline(false);
    // The photo goes up before the taps that name it: two requests more than the test above.
    await page.getByText("Enviamos 2 confirmaciones guardadas en el teléfono.").waitFor({ timeout: 60_000 });
    expect(failedUploads).toBe(1);
    expectPageError(/status of 503/);
    expect(errors.filter((error) => !OFFLINE_NOISE.test(error) && !/status of 503/.test(error))).toEqual([]);
    await close();

    // Staff see it on the order.
    const admin = await signedIn(DEMO_ADMIN);
    await admin.page.goto(`${server.baseURL}/admin/pedidos/${stops.photo.orderId}`);
    const staffPhoto = admin.page.getByTestId("staff-delivery-photo").getByRole("img", { name: "Foto de los bidones en la puerta" });
    expect(await staffPhoto.evaluate((image: HTMLImageElement) => image.decode().then(() => image.naturalWidth))).toBeGreaterThan(0);
    expect(admin.errors).toEqual([]);
    await admin.close();

    // The customer sees it on their delivery, served to them only.
    const customer = await signedIn(DEMO_CUSTOMER);
    await customer.page.goto(`${server.baseURL}/dashboard/envios/${stops.photo.deliveryId}`);
    const own = customer.page.getByTestId("delivery-photo");
    expect(await own.evaluate((image: HTMLImageElement) => image.decode().then(() => image.naturalWidth))).toBeGreaterThan(0);
    expect(customer.errors).toEqual([]);
    await customer.close();
    const anonymous = await fetch(`${server.baseURL}/dashboard/envios/${stops.photo.deliveryId}/foto`, { redirect: "manual" });
    expect(anonymous.status === 302 || anonymous.status === 303 || anonymous.status === 401 || anonymous.status === 404).toBe(true);
    expect(anonymous.headers.get("content-type") ?? "").not.toContain("image");
  }, 180_000);
});
