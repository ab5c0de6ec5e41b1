/**
 * What the route-planning db test files set up alike (issues 26, 39 and 40): a seeded database with a
 * day of paid deliveries to plan and the staff who plan them (`routePlanningDay`), and Despacho's
 * "Optimizar rutas" action called through its middlewares against a routing server the file
 * chooses (`despachoOnRoutingServer`). Each registers its describe's hooks.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, vi } from "vitest";
import type * as DespachoRoute from "~/routes/admin/despacho/despacho";
import type * as DbContextModule from "~/server/db-context.server";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import type { Database } from "@server/db/client";
import { deliveries, districts, productVariants, users } from "@server/db/schema";
import { DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import type { VanShift } from "@server/deliveries/index.server";
import { applySandboxAction } from "@server/order-flows/index.server";
import { limaToday } from "@core/lima-dates";
import { checkoutInput } from "./checkout-fixture";
import { bookableDates } from "./lima-clock";
import { postToRoute, sessionCookie, type RouteAnswer } from "./route-call";
import { createTestDatabase, type TestDatabase } from "./test-database";

const started = <T>(value: T | undefined, name: string): T => {
  if (value === undefined) throw new Error(`${name} is read before its beforeAll ran`);
  return value;
};

/** A paid recarga order to place on the day (three bottles a pack: 60 L of a van's capacity each). */
export interface DayOrder {
  district: string;
  window?: "manana" | "tarde";
  point?: { lat: number; lng: number };
  quantity?: number;
}

/** Four pinned stops in districts served on Wednesdays: three in the morning, one in the afternoon. */
export const FOUR_PINNED_ORDERS: Record<string, DayOrder> = {
  larco: { district: "Miraflores", point: { lat: -12.1225, lng: -77.0302 } },
  pardo: { district: "Miraflores", point: { lat: -12.1175, lng: -77.0444 } },
  olivar: { district: "San Isidro", point: { lat: -12.0985, lng: -77.0361 } },
  huaylas: { district: "Chorrillos", window: "tarde", point: { lat: -12.1733, lng: -77.0168 } },
};

/** A van of a day's plan, with Despacho's usual shift and room for 60 bidones unless told otherwise. */
export const van = (driverId: string, overrides: Partial<VanShift> = {}): VanShift => ({
  driverId,
  capacity: 60,
  capacityUnit: "bidones",
  shiftStart: "08:30",
  shiftEnd: "18:30",
  ...overrides,
});

export interface RoutePlanningDay {
  /** The Wednesday planned: `daysAhead` days from the real clock, so it holds only this file's deliveries. */
  readonly day: string;
  /** When the orders were placed and the plans made, unless a case says otherwise. */
  readonly placedAt: Date;
  /** An instant of `day` at a Lima clock time ("15:00"). */
  at(clock: string): Date;
  readonly db: Database;
  /** The demo operaciones, who plans. */
  readonly actor: StaffActor;
  /** The demo repartidor. */
  readonly driver: StaffActor;
  /** A second active repartidor, made for this file. */
  readonly secondDriverId: string;
  /** The delivery and order of each order placed, by name (filled as they are placed). */
  readonly stops: Readonly<Record<string, { deliveryId: string; orderId: string }>>;
  /** Places and pays one more order on the day. */
  placeOrder(name: string, order: DayOrder): Promise<{ deliveryId: string; orderId: string }>;
}

/**
 * A seeded database with `orders` placed and paid by card for one Wednesday `daysAhead` days from
 * the real clock (past the demo data's days; each file picks its own distance), the demo
 * operaciones and repartidor as staff, and a second repartidor.
 */
export function routePlanningDay({ daysAhead, orders }: { daysAhead: number; orders: Record<string, DayOrder> }): RoutePlanningDay {
  const placedAt = new Date(Date.now() + daysAhead * 86_400_000);
  const day = bookableDates(3, placedAt)[0]!;
  let test: TestDatabase | undefined;
  let actor: StaffActor | undefined;
  let driver: StaffActor | undefined;
  let secondDriverId: string | undefined;
  let recarga: { productId: number; variantId: number; priceCents: number } | undefined;
  const stops: Record<string, { deliveryId: string; orderId: string }> = {};

  async function place(name: string, order: DayOrder) {
    const db = started(test, "routePlanningDay").db;
    const pack = started(recarga, "routePlanningDay");
    const [district] = await db.select({ id: districts.id }).from(districts).where(eq(districts.name, order.district));
    const quantity = order.quantity ?? 1;
    const placed = await placeOrder(
      db,
      checkoutInput(placedAt, {
        correo: `ruta-${randomUUID().slice(0, 8)}@prueba.pe`,
        districtId: district!.id,
        direccion: `Calle ${name} 100`,
        fecha: day,
        diaHabil: 3,
        rangoHorario: order.window ?? "manana",
        items: [{ productId: pack.productId, variantId: pack.variantId, quantity }],
        clientSubtotalCents: pack.priceCents * quantity,
        ubicacion: order.point ?? null,
      }),
      { now: placedAt, provider: "sandbox", userId: null },
    );
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error(`order ${name} not placed: ${JSON.stringify(placed)}`);
    await applySandboxAction(db, placed.paymentId, "approve_card", { now: placedAt, siteUrl: "http://shop.test" });
    const [delivery] = await db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.orderId, placed.orderId));
    const stop = { deliveryId: delivery!.id, orderId: placed.orderId };
    stops[name] = stop;
    return stop;
  }

  const staffActor = async (db: Database, email: string, role: StaffActor["role"]): Promise<StaffActor> => {
    const [row] = await db.select().from(users).where(eq(users.email, email));
    return { id: row!.id, email: row!.email, role, clientAddress: "127.0.0.1" };
  };

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const db = test.db;
    actor = await staffActor(db, DEMO_OPERACIONES.email, "operaciones");
    driver = await staffActor(db, DEMO_REPARTIDOR.email, "repartidor");
    const id = randomUUID();
    await db.insert(users).values({
      id,
      name: "Segundo Repartidor",
      email: `segundo-${id.slice(0, 6)}@vidaalcalina.pe`,
      firstName: "Segundo",
      lastName: "Repartidor",
      role: "repartidor",
      emailVerified: true,
    });
    secondDriverId = id;
    [recarga] = await db
      .select({ productId: productVariants.productId, variantId: productVariants.id, priceCents: productVariants.priceCents })
      .from(productVariants)
      .where(eq(productVariants.sku, "VA-BH20-R3"));
    for (const [name, order] of Object.entries(orders)) await place(name, order);
  }, 120_000);
  afterAll(() => test?.close());

  return {
    day,
    placedAt,
    at: (clock) => new Date(`${day}T${clock}:00-05:00`),
    get db() {
      return started(test, "routePlanningDay").db;
    },
    get actor() {
      return started(actor, "routePlanningDay");
    },
    get driver() {
      return started(driver, "routePlanningDay");
    },
    get secondDriverId() {
      return started(secondDriverId, "routePlanningDay");
    },
    stops,
    placeOrder: place,
  };
}

export interface DespachoOnRoutingServer {
  readonly db: Database;
  /** The demo repartidor's id. */
  readonly driverId: string;
  /** Despacho's form for "Optimizar rutas" with these vans, each with a valid capacity and shift. */
  optimiseForm(vans: string[]): URLSearchParams;
  /** Posts a form to today's Despacho as the demo operaciones, through the staff area's middleware. */
  postToDespacho(body: URLSearchParams): Promise<RouteAnswer>;
}

/**
 * A seeded database and Despacho's route module loaded with ROUTING_URL at `routingUrl()` (read
 * once per file's modules, decision 0068, so it is set before the first import).
 */
export function despachoOnRoutingServer(routingUrl: () => Promise<string>): DespachoOnRoutingServer {
  let test: TestDatabase | undefined;
  let route: typeof DespachoRoute | undefined;
  let staffArea: readonly unknown[] = [];
  let dbContext: (typeof DbContextModule)["dbContext"] | undefined;
  let operaciones: string | undefined;
  let driverId: string | undefined;

  beforeAll(async () => {
    vi.stubEnv("ROUTING_URL", await routingUrl());
    test = await createTestDatabase("seeded");
    ({ dbContext } = await import("~/server/db-context.server"));
    route = await import("~/routes/admin/despacho/despacho");
    staffArea = [(await import("~/server/staff.server")).staffAreaMiddleware];
    operaciones = await sessionCookie(test.db, DEMO_OPERACIONES);
    driverId = (await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email)))[0]!.id;
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await test?.close();
  });

  return {
    get db() {
      return started(test, "despachoOnRoutingServer").db;
    },
    get driverId() {
      return started(driverId, "despachoOnRoutingServer");
    },
    optimiseForm(vans) {
      const form = new URLSearchParams({ intent: "optimizar", clave: randomUUID() });
      for (const id of vans) {
        form.append("vans", id);
        form.set(`capacidad-${id}`, "45");
        form.set(`unidad-${id}`, "bidones");
        form.set(`inicio-${id}`, "08:30");
        form.set(`fin-${id}`, "17:00");
      }
      return form;
    },
    postToDespacho: (body) =>
      postToRoute({
        db: started(test, "despachoOnRoutingServer").db,
        dbContext: started(dbContext, "despachoOnRoutingServer"),
        route: started(route, "despachoOnRoutingServer"),
        outer: staffArea,
        path: `/admin/despacho?fecha=${limaToday(new Date())}`,
        body,
        cookie: started(operaciones, "despachoOnRoutingServer"),
      }),
  };
}
