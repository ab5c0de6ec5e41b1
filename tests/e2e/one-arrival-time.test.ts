import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Browser, BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { appSecret } from "@server/config/app-secret";
import { openDatabase, type Database } from "@server/db/client";
import { deliveries, deliveryProofs, orders, users } from "@server/db/schema";
import { DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { receiptToken } from "@server/orders/index.server";
import { DEMO_CUSTOMER, signInCookies } from "../support/accounts";
import { launchBrowser, openPage, type TrackedPage } from "../support/browser";
import { limaDateOf } from "../support/lima-clock";
import { createShopDatabase, startShopServer, type ShopServer } from "../support/shop-server";

const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const minutes = (count: number) => count * 60_000;

/**
 * Issue 40 in real Chromium at phone width, on a server of its own: the driver's stop card and the
 * customer's pages (Mis envíos and the order's page) show the same arrival window, on time and
 * when the route runs late, where the customer also reads "Con retraso" and why. Today's demo route
 * is re-planned from the real clock (its first stop 20 minutes from now), so the test reads the
 * same whatever the day and the Lima hour; the late route is one whose first stop was handed over
 * long enough after its plan that her evening slot (18–22) can no longer be kept.
 */
describe("one arrival time on the driver's card and the customer's page", () => {
  let server: ShopServer;
  let browser: Browser;
  let cleanup: () => Promise<void>;
  let env: Record<string, string>;
  let route: { deliveryId: string; orderId: string; address: string; email: string }[] = [];
  let driverId: string;

  async function withDatabase(work: (db: Database) => Promise<void>) {
    const handle = await openDatabase(env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL } : { kind: "pglite", dataDir: env.PGLITE_DATA_DIR! });
    try {
      await handle.migrate(work);
    } finally {
      await handle.close();
    }
  }

  async function start() {
    server = await startShopServer({
      env: {
        ...env,
        SESSION_SECRET: appSecret(),
        ...(process.env.FAKETIME ? { FAKETIME: process.env.FAKETIME, LD_PRELOAD: process.env.LD_PRELOAD ?? "" } : {}),
      },
    });
  }

  /** Today's route planned from `from`: a stop every 20 minutes, all in the evening slot (18–22). */
  async function planRoute(db: Database, from: Date) {
    for (const [index, stop] of route.entries()) {
      await db
        .update(deliveries)
        .set({ status: "scheduled", deliveryWindow: "noche", estimatedArrivalAt: new Date(from.getTime() + minutes(20 * (index + 1))) })
        .where(eq(deliveries.id, stop.deliveryId));
    }
  }

  beforeAll(async () => {
    const database = await createShopDatabase({ templates: inject("databaseTemplates") });
    cleanup = database.drop;
    env = database.env as Record<string, string>;
    const today = limaDateOf(new Date());
    await withDatabase(async (db) => {
      const [driver] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
      driverId = driver!.id;
      route = await db
        .select({ deliveryId: deliveries.id, orderId: deliveries.orderId, address: deliveries.address, email: orders.customerEmail })
        .from(deliveries)
        .innerJoin(orders, eq(orders.id, deliveries.orderId))
        .where(and(eq(deliveries.assignedDriverId, driverId), eq(deliveries.deliveryDate, today), isNotNull(deliveries.routePosition)))
        .orderBy(asc(deliveries.routePosition));
      await planRoute(db, new Date());
    });
    await start();
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await cleanup?.();
  });

  async function open(account: { email: string; password: string } | null): Promise<TrackedPage> {
    const tracked = await openPage(browser, PHONE);
    if (account) {
      const cookies = await signInCookies(server.baseURL, account.email, account.password);
      await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    }
    return tracked;
  }

  /** What the driver's card, the customer's delivery page and the order's page say of her stop. */
  async function readAllSides(mine: { deliveryId: string; orderId: string; address: string }) {
    const driver = await open(DEMO_REPARTIDOR);
    await driver.page.goto(`${server.baseURL}/admin/reparto`);
    const card = driver.page.getByTestId("driver-stop").filter({ hasText: mine.address });
    const driverText = (await card.getByTestId("driver-stop-arrival").textContent())!;
    const customer = await open(DEMO_CUSTOMER);
    await customer.page.goto(`${server.baseURL}/dashboard/envios/${mine.deliveryId}`);
    const account = customer.page.getByTestId("delivery-tracking");
    const accountWindow = (await account.getByTestId("delivery-tracking-window").textContent())!;
    const accountLate = (await account.getByTestId("delivery-tracking-late").count())
      ? await account.getByTestId("delivery-tracking-late").textContent()
      : null;
    const accountDriver = await account.getByTestId("delivery-tracking-driver").textContent();
    const visitor = await open(null);
    await visitor.page.goto(`${server.baseURL}/orden/${mine.orderId}?token=${receiptToken(mine.orderId)}`);
    const orderWindow = await visitor.page.getByTestId("delivery-tracking-window").textContent();
    const orderLate = (await visitor.page.getByTestId("delivery-tracking-late").count())
      ? await visitor.page.getByTestId("delivery-tracking-late").textContent()
      : null;
    for (const page of [driver, customer, visitor]) {
      expect(page.errors).toEqual([]);
      await page.close();
    }
    const shown = /^Llegada estimada: (\d\d:\d\d)–(\d\d:\d\d)(Con retraso)?$/.exec(driverText);
    expect(shown, driverText).not.toBeNull();
    return { driver: { from: shown![1], to: shown![2], late: Boolean(shown![3]) }, accountWindow, accountLate, accountDriver, orderWindow, orderLate };
  }

  it("shows the same window to the driver and the customer on time, and the same late window with «Con retraso» and why", async () => {
    const mineIndex = route.findIndex((stop) => stop.email === DEMO_CUSTOMER.email);
    expect(mineIndex).toBeGreaterThanOrEqual(2);
    const mine = route[mineIndex]!;

    const planned = await readAllSides(mine);
    expect(planned.accountWindow).toBe(`Llegada estimada entre ${planned.driver.from} y ${planned.driver.to}`);
    expect(planned.orderWindow).toBe(planned.accountWindow);
    expect(planned.accountDriver).toBe(`Te atiende ${DEMO_REPARTIDOR.firstName}.`);
    // On time whenever the plan still fits the evening slot: both sides agree either way.
    expect(planned.accountLate !== null).toBe(planned.driver.late);
    expect(planned.orderLate).toBe(planned.accountLate);
    const limaHour = new Date(Date.now() - minutes(5 * 60)).getUTCHours();
    if (limaHour < 20) expect(planned.driver.late).toBe(false);

    // The route falls behind: the first stop is handed over hours after its plan, and her
    // stop is already on its way. Written while the server is stopped (the embedded database has one owner).
    await server.stop();
    await withDatabase(async (db) => {
      const now = new Date();
      await planRoute(db, now);
      // Her stop planned inside her slot (18–22), at 21:50 at the latest, so the route's delay is
      // what makes her late, not the plan.
      const herPlan = Math.min(now.getTime() + minutes(80), Date.parse(`${limaDateOf(now)}T21:50:00-05:00`));
      await db
        .update(deliveries)
        .set({ estimatedArrivalAt: new Date(herPlan) })
        .where(eq(deliveries.id, mine.deliveryId));
      // Late enough that she is expected past 22:30 and at least an hour from now, whatever the hour.
      const delay = Math.max(minutes(30), Date.parse(`${limaDateOf(now)}T22:30:00-05:00`) - herPlan, now.getTime() + minutes(60) - herPlan);
      // The first stop is handed over now, `delay` after its plan and its 6 minutes of service.
      await db
        .update(deliveries)
        .set({ status: "delivered", estimatedArrivalAt: new Date(now.getTime() - delay - minutes(6)) })
        .where(eq(deliveries.id, route[0]!.deliveryId));
      await db.insert(deliveryProofs).values({ deliveryId: route[0]!.deliveryId, outcome: "delivered", receiverName: "Portería", driverId, createdAt: now });
      await db.update(deliveries).set({ status: "in_transit" }).where(eq(deliveries.id, mine.deliveryId));
    });
    await start();

    const late = await readAllSides(mine);
    expect(late.driver.late).toBe(true);
    expect(late.accountWindow).toBe(`Llegada estimada entre ${late.driver.from} y ${late.driver.to}`);
    expect(late.orderWindow).toBe(late.accountWindow);
    expect(late.accountLate).toBe("Con retrasoNo llegaremos en el horario que elegiste: el repartidor va retrasado en su ruta.");
    expect(late.orderLate).toBe(late.accountLate);
    expect(late.driver.from).not.toBe(planned.driver.from);
  });
});
