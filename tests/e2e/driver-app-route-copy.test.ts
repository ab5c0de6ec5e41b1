import { eq } from "drizzle-orm";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import type { Database } from "@server/db/client";
import { deliveries, orders, users } from "@server/db/schema";
import { DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { seedOnStart } from "@server/db/seed/seed";
import { applySandboxAction } from "@server/order-flows/index.server";
import { limaToday } from "@core/lima-dates";
import { cookieHeader, DEMO_CUSTOMER, signInCookies } from "../support/accounts";
import { expectPageError, launchBrowser, openPage } from "../support/browser";
import { checkoutInput } from "../support/checkout-fixture";
import { preparedShopDatabase, startShopServer, type ShopServer } from "../support/shop-server";

const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
/** What Chromium logs for each request it could not send while the test holds it offline. */
const OFFLINE_NOISE = /net::ERR_INTERNET_DISCONNECTED|Failed to fetch/;
const HOUR = 3_600_000;

interface StoredCopy {
  route: { loadedAt: string; today: string; data: { stops: { address: string }[] } }[];
  queue: { key: string; state: string; stopLabel: string; occurredAt: number }[];
  pageCaches: string[];
}

/**
 * Issue 39, finding 7, decision 0089: the copy of the day's route the driver app keeps on the
 * phone (customers' names, addresses, phones) leaves it when the server says the session is gone,
 * and when the app starts more than a day after the copy was made. Read straight from IndexedDB.
 */
describe("the driver app's copy of the route on the phone", () => {
  let server: ShopServer;
  let browser: Browser;
  let cleanup: () => Promise<void>;
  const addresses = ["Jr. Copia Uno 101", "Jr. Copia Dos 202", "Jr. Copia Tres 303"];

  async function prepareStops(db: Database) {
    await seedOnStart(db, { base: true, demo: true });
    const [driver] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    const placedAt = new Date(Date.now() - 30 * HOUR);
    for (const [index, address] of addresses.entries()) {
      const placed = await placeOrder(db, checkoutInput(placedAt, { correo: DEMO_CUSTOMER.email, direccion: address }), {
        now: placedAt,
        provider: "sandbox",
        userId: null,
      });
      if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
      await applySandboxAction(db, placed.paymentId, "approve_card", { now: placedAt, siteUrl: "http://localhost" });
      await db
        .update(deliveries)
        .set({ deliveryDate: limaToday(new Date()), assignedDriverId: driver!.id, routePosition: index + 1, status: "scheduled" })
        .where(eq(deliveries.orderId, placed.orderId));
      await db
        .update(orders)
        .set({ deliveryDate: limaToday(new Date()) })
        .where(eq(orders.id, placed.orderId));
    }
  }

  beforeAll(async () => {
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

  /** A driver's phone with the app installed and in control of the page; its session cookie, to end it from outside. */
  async function installedApp() {
    const cookies = await signInCookies(server.baseURL, DEMO_REPARTIDOR.email, DEMO_REPARTIDOR.password);
    const tracked = await openPage(browser, PHONE);
    const { page } = tracked;
    await page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    await page.goto(`${server.baseURL}/admin/reparto`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // The page keeps the route once it has loaded it with signal.
    await expect.poll(async () => (await storedCopy(page))?.route.length ?? 0).toBe(1);
    return { ...tracked, cookie: cookieHeader(cookies) };
  }

  /** The session ends on the server (signed out elsewhere, expired, revoked): the phone is not told. */
  async function endSession(cookie: string) {
    const response = await fetch(`${server.baseURL}/logout`, { method: "POST", redirect: "manual", headers: { cookie, origin: server.baseURL } });
    expect(response.status).toBe(302);
  }

  /** What the phone keeps, read from IndexedDB without creating the database when it is not there. */
  function storedCopy(page: Page): Promise<StoredCopy | null> {
    return page.evaluate(async () => {
      const pageCaches = (await caches.keys()).filter((name) => name === "reparto-pages");
      if (!(await indexedDB.databases()).some((database) => database.name === "va-reparto")) return null;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const opening = indexedDB.open("va-reparto");
        opening.onsuccess = () => resolve(opening.result);
        opening.onerror = () => reject(opening.error);
      });
      const all = <T>(store: string) =>
        new Promise<T[]>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result as T[]);
          request.onerror = () => reject(request.error);
        });
      try {
        return { route: await all<StoredCopy["route"][number]>("route"), queue: await all<StoredCopy["queue"][number]>("queue"), pageCaches };
      } finally {
        db.close();
      }
    });
  }

  const stopCard = (page: Page, address: string) => page.getByTestId("driver-stop").filter({ hasText: address });

  it("forgets the route when a send finds the session gone, keeping the unsent tap without the customer's address", async () => {
    const { page, errors, close, cookie } = await installedApp();
    expect((await storedCopy(page))!.route[0]!.data.stops.map((stop) => stop.address)).toEqual(expect.arrayContaining(addresses));
    await endSession(cookie);

    await stopCard(page, addresses[0]!).getByRole("button", { name: "Marcar en camino" }).click();
    await page.getByTestId("driver-app-banner").getByText("Tu sesión terminó · 1 por enviar").waitFor();
    await expect.poll(async () => (await storedCopy(page))!.route).toEqual([]);
    const copy = (await storedCopy(page))!;
    expect(copy.queue.map((tap) => tap.state)).toEqual(["pending"]);
    expect(copy.queue[0]!.stopLabel).toMatch(/^Parada \d+$/);
    expect(JSON.stringify(copy)).not.toContain("Copia");
    expect(copy.pageCaches).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it("forgets the route when the app is opened again after the session ended", async () => {
    const { page, errors, close, cookie } = await installedApp();
    await endSession(cookie);
    // The service worker hears the server send the app to /login.
    await page.goto(`${server.baseURL}/admin/reparto`);
    await page.waitForURL(/\/login/);
    const copy = await storedCopy(page);
    expect(copy?.route ?? []).toEqual([]);
    expect(copy?.pageCaches ?? []).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it("forgets a copy and a tap more than a day old when the app starts, without sending the tap", async () => {
    const { page, errors, close } = await installedApp();
    expectPageError(OFFLINE_NOISE);
    await page.context().setOffline(true);
    await stopCard(page, addresses[2]!).getByRole("button", { name: "Marcar en camino" }).click();
    await page.getByTestId("driver-app-banner").getByText("Sin conexión · 1 por enviar").waitFor();
    // A day and an hour pass: the copy's own times are moved back, the clock is left alone.
    const dayAgo = Date.now() - 25 * HOUR;
    await page.evaluate(async (dayAgo) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const opening = indexedDB.open("va-reparto");
        opening.onsuccess = () => resolve(opening.result);
        opening.onerror = () => reject(opening.error);
      });
      const tx = db.transaction(["route", "queue"], "readwrite");
      const routes = tx.objectStore("route");
      const request = routes.get("today");
      request.onsuccess = () => routes.put({ ...request.result, loadedAt: new Date(dayAgo).toISOString() }, "today");
      const queue = tx.objectStore("queue");
      const taps = queue.getAll();
      taps.onsuccess = () => {
        for (const tap of taps.result as { occurredAt: number }[]) queue.put({ ...tap, occurredAt: dayAgo });
      };
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }, dayAgo);
    const stale = (await storedCopy(page))!;
    expect(stale.route[0]!.loadedAt).toBe(new Date(dayAgo).toISOString());
    expect(stale.queue.map((tap) => tap.occurredAt)).toEqual([dayAgo]);

    // The app is closed without signal and opened again with it (a page left open would send on the signal's return).
    await page.goto("about:blank");
    await page.context().setOffline(false);
    const restarted = Date.now();
    await page.goto(`${server.baseURL}/admin/reparto`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await expect.poll(async () => (await storedCopy(page))!.queue).toEqual([]);
    // The route kept now is the one just loaded, not the day-old one; the stale tap was never sent.
    await expect.poll(async () => Date.parse((await storedCopy(page))!.route[0]?.loadedAt ?? "0")).toBeGreaterThanOrEqual(restarted - 60_000);
    expect(await stopCard(page, addresses[2]!).getByTestId("delivery-status").textContent()).toBe("Programado");
    expect(await page.getByTestId("driver-app-banner").count()).toBe(0);
    expect(errors.filter((error) => !OFFLINE_NOISE.test(error))).toEqual([]);
    await close();
  }, 120_000);
});
