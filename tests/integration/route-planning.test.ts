import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { deliveries, orders, routeOptimisations, routePlans, staffActions, users } from "@server/db/schema";
import { DEMO_CUSTOMER, DEMO_REPARTIDOR } from "@server/db/seed/demo-accounts";
import {
  deliveryTracking,
  DispatchRefusedError,
  loadRouteOverview,
  loadRouteSheets,
  moveRouteStop,
  applyRoutePlan,
  planRoutes,
  setOrderLocation,
  type VanShift,
} from "@server/deliveries/index.server";
import { confirmDriverStop } from "@server/order-flows/index.server";
import { limaDateOf } from "../support/lima-clock";
import { FOUR_PINNED_ORDERS, routePlanningDay, van } from "../support/route-planning-test-bed";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const siteUrl = "http://shop.test";
const minuteOfDay = (instant: Date) => {
  const lima = new Date(instant.getTime() - 5 * 3_600_000);
  return lima.getUTCHours() * 60 + lima.getUTCMinutes();
};

/**
 * "Optimizar rutas" then "Aplicar plan" (issue 40) with every stop that does not fit ticked to come
 * off its route: what one press did before plans waited for staff. The plan/apply flow itself is
 * tests/integration/route-plan-apply.test.ts.
 */
async function optimiseRoutes(db: TestDatabase["db"], actor: StaffActor, input: { date: string; vans: VanShift[]; requestKey: string; now: Date }) {
  const { run, repeated } = await planRoutes(db, actor, input);
  if (repeated) return { result: run.result, repeated };
  const kept = run.result.plan!.vans.flatMap((van) => van.stops.filter((stop) => stop.keptReason).map((stop) => stop.deliveryId));
  const applied = await applyRoutePlan(db, actor, { runId: run.id, date: input.date, applyKey: randomUUID(), remove: kept, now: input.now });
  return { result: applied.result, repeated: false };
}

describe("Route planning: Optimizar rutas, arrival times and the customer's tracking (issue 26)", () => {
  // Fifty days from the real clock, past the demo data's days: the Wednesday then holds only this file's deliveries.
  const test = routePlanningDay({
    daysAhead: 50,
    orders: {
      ...FOUR_PINNED_ORDERS,
      sinPunto: { district: "San Isidro", window: "tarde" },
      norte: { district: "San Martín de Porres", window: "tarde", point: { lat: -12.0012, lng: -77.0601 } },
    },
  });
  const { day, placedAt, at, stops } = test;
  let actor: StaffActor;
  let driver: StaffActor;
  let secondDriverId: string;
  beforeAll(() => {
    ({ actor, driver, secondDriverId } = test);
  });
  const rowOf = async (name: string) => (await test.db.select().from(deliveries).where(eq(deliveries.id, stops[name]!.deliveryId)))[0]!;

  it("assigns and orders every stop so windows and capacities hold, with an arrival time each", async () => {
    const { result, repeated } = await optimiseRoutes(test.db, actor, {
      date: day,
      vans: [van(driver.id), van(secondDriverId, { capacity: 10 })],
      requestKey: randomUUID(),
      now: placedAt,
    });
    expect(repeated).toBe(false);
    expect(result.unassigned).toEqual([]);
    expect(result.routes.reduce((sum, route) => sum + route.stops, 0)).toBe(6);
    const rows = await test.db
      .select()
      .from(deliveries)
      .where(
        inArray(
          deliveries.id,
          Object.values(stops).map((stop) => stop.deliveryId),
        ),
      )
      .orderBy(asc(deliveries.assignedDriverId), asc(deliveries.routePosition));
    for (const row of rows) {
      expect(row.status).toBe("scheduled");
      expect(row.assignedDriverId).not.toBeNull();
      const minute = minuteOfDay(row.estimatedArrivalAt!);
      const [open, close] = row.deliveryWindow === "manana" ? [540, 720] : [840, 1080];
      expect(minute, row.deliveryNumber).toBeGreaterThanOrEqual(open);
      expect(minute, row.deliveryNumber).toBeLessThanOrEqual(close);
    }
    // Positions 1…n per van, arrivals rising along each route.
    for (const driverId of [driver.id, secondDriverId]) {
      const route = rows.filter((row) => row.assignedDriverId === driverId);
      expect(route.map((row) => row.routePosition)).toEqual(route.map((_, index) => index + 1));
      const arrivals = route.map((row) => row.estimatedArrivalAt!.getTime());
      expect(arrivals).toEqual([...arrivals].sort((a, b) => a - b));
    }
    // The second van carries 10 bidones (200 L): its stops' packs of 3 recargas (60 L each) fit it.
    expect(rows.filter((row) => row.assignedDriverId === secondDriverId).length * 60).toBeLessThanOrEqual(200);
    const plans = await test.db.select().from(routePlans).where(eq(routePlans.deliveryDate, day));
    expect(plans.map((plan) => [plan.driverId, plan.capacity]).sort()).toEqual(
      [
        [driver.id, 60],
        [secondDriverId, 10],
      ].sort(),
    );
    // Every stop that changed is in the audit log.
    const audit = await test.db.select().from(staffActions).where(eq(staffActions.action, "delivery.optimise"));
    expect(audit.length).toBe(6);
  });

  it("plans the same day the same way again: nothing changes, and a repeated key is the same run", async () => {
    const before = await test.db.select().from(deliveries).where(eq(deliveries.deliveryDate, day)).orderBy(asc(deliveries.id));
    const key = randomUUID();
    const vans = [van(driver.id), van(secondDriverId, { capacity: 10 })];
    const first = await optimiseRoutes(test.db, actor, { date: day, vans, requestKey: key, now: placedAt });
    expect(first.result.changed).toBe(0);
    const again = await optimiseRoutes(test.db, actor, { date: day, vans, requestKey: key, now: placedAt });
    expect(again.repeated).toBe(true);
    expect(await test.db.select().from(routeOptimisations).where(eq(routeOptimisations.requestKey, key))).toHaveLength(1);
    const after = await test.db.select().from(deliveries).where(eq(deliveries.deliveryDate, day)).orderBy(asc(deliveries.id));
    expect(after.map((row) => [row.id, row.assignedDriverId, row.routePosition, row.estimatedArrivalAt?.getTime()])).toEqual(
      before.map((row) => [row.id, row.assignedDriverId, row.routePosition, row.estimatedArrivalAt?.getTime()]),
    );
  });

  it("lists what cannot fit with its reason, and takes it off the route instead of dropping it silently", async () => {
    // A van of 5 bidones cannot take a stop of 9 (three packs of 3); an afternoon-only shift cannot reach the morning stops.
    await test.placeOrder("grande", { district: "Miraflores", point: { lat: -12.125, lng: -77.028 }, quantity: 3 });
    const routeOfSecond = () =>
      test.db
        .select({ id: deliveries.id, position: deliveries.routePosition, arrival: deliveries.estimatedArrivalAt })
        .from(deliveries)
        .where(and(eq(deliveries.deliveryDate, day), eq(deliveries.assignedDriverId, secondDriverId)))
        .orderBy(asc(deliveries.id));
    const secondBefore = await routeOfSecond();
    const { result } = await optimiseRoutes(test.db, actor, {
      date: day,
      vans: [van(driver.id, { capacity: 5, shiftStart: "13:00", shiftEnd: "18:30" })],
      requestKey: randomUUID(),
      now: placedAt,
    });
    const reasons = Object.fromEntries(result.unassigned.map((left) => [left.deliveryId, left.reason]));
    expect(reasons[stops.grande!.deliveryId]).toBe("La carga de esta entrega no entra en ningún vehículo seleccionado.");
    expect(reasons[stops.larco!.deliveryId]).toBe("Ningún vehículo llega dentro del horario de entrega y vuelve antes del fin de su turno.");
    // Deliveries of the other driver were not this run's: they stay where they were.
    expect(await routeOfSecond()).toEqual(secondBefore);
    for (const left of result.unassigned) {
      const row = (await test.db.select().from(deliveries).where(eq(deliveries.id, left.deliveryId)))[0]!;
      expect(row.assignedDriverId).toBeNull();
      expect(row.estimatedArrivalAt).toBeNull();
    }
    const overview = await loadRouteOverview(test.db, day, placedAt);
    expect(overview.lastRun?.unassigned.map((left) => left.deliveryId).sort()).toEqual(result.unassigned.map((left) => left.deliveryId).sort());
  });

  it("never moves a stop already on its way: a re-optimisation keeps it with its driver and place", async () => {
    const vans = [van(driver.id), van(secondDriverId)];
    await optimiseRoutes(test.db, actor, { date: day, vans, requestKey: randomUUID(), now: placedAt });
    const first = (
      await test.db
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.deliveryDate, day), eq(deliveries.assignedDriverId, driver.id), eq(deliveries.routePosition, 1)))
    )[0]!;
    const confirmed = await confirmDriverStop(test.db, { deliveryId: first.id, driver, confirmation: { kind: "on_the_way" }, now: at("08:40"), siteUrl });
    expect(confirmed).toEqual({ ok: true, changed: true });
    // The first driver's van again, too small now for anything: its en camino stop stays on its route, where it was.
    const { result } = await optimiseRoutes(test.db, actor, { date: day, vans: [van(driver.id, { capacity: 1 })], requestKey: randomUUID(), now: placedAt });
    expect(result.kept).toBe(1);
    const kept = (await test.db.select().from(deliveries).where(eq(deliveries.id, first.id)))[0]!;
    expect([kept.status, kept.assignedDriverId, kept.routePosition]).toEqual(["in_transit", driver.id, 1]);
  });

  it("recomputes arrival times when staff move a stop by hand, and flags a window it would miss", async () => {
    // Everything open on the second van (the first one keeps only its stop on the road).
    await optimiseRoutes(test.db, actor, { date: day, vans: [van(driver.id, { capacity: 1 })], requestKey: randomUUID(), now: placedAt });
    await optimiseRoutes(test.db, actor, { date: day, vans: [van(secondDriverId)], requestKey: randomUUID(), now: placedAt });
    const [sheet] = await loadRouteSheets(test.db, { date: day, driverId: secondDriverId });
    expect(sheet!.stops.every((stop) => stop.lateMinutes === 0)).toBe(true);
    // Move the last afternoon stop to the top: the van waits for 14:00 there, so the morning stops after it are late.
    const lastIndex = sheet!.stops.length - 1;
    expect(sheet!.stops[lastIndex]!.deliveryWindow).toBe("tarde");
    expect(sheet!.stops[0]!.deliveryWindow).toBe("manana");
    for (let position = lastIndex + 1; position > 1; position--) {
      const moved = await moveRouteStop(test.db, actor, { deliveryId: sheet!.stops[lastIndex]!.id, direction: "up", fromPosition: position, now: placedAt });
      expect(moved).toBe("moved");
    }
    const [after] = await loadRouteSheets(test.db, { date: day, driverId: secondDriverId });
    expect(after!.stops[0]!.id).toBe(sheet!.stops[lastIndex]!.id);
    expect(after!.stops[0]!.estimatedArrival).toBe("14:00");
    const late = after!.stops.filter((stop) => stop.deliveryWindow === "manana");
    expect(late.length).toBeGreaterThan(0);
    expect(late.every((stop) => stop.lateMinutes > 0)).toBe(true);
  });

  it("routes a stop without a point to its district's centre, marked approximate, until staff place it", async () => {
    const [sheet] = (await loadRouteSheets(test.db, { date: day })).filter((each) => each.stops.some((stop) => stop.id === stops.sinPunto!.deliveryId));
    expect(sheet!.stops.find((stop) => stop.id === stops.sinPunto!.deliveryId)!.approximate).toBe(true);
    expect(await setOrderLocation(test.db, actor, { orderId: stops.sinPunto!.orderId, point: { lat: -12.095, lng: -77.04 }, now: placedAt })).toBe("saved");
    expect(await setOrderLocation(test.db, actor, { orderId: stops.sinPunto!.orderId, point: { lat: -12.095, lng: -77.04 }, now: placedAt })).toBe("unchanged");
    const row = await rowOf("sinPunto");
    expect([row.lat, row.lng]).toEqual([-12.095, -77.04]);
    const [again] = (await loadRouteSheets(test.db, { date: day })).filter((each) => each.stops.some((stop) => stop.id === stops.sinPunto!.deliveryId));
    expect(again!.stops.find((stop) => stop.id === stops.sinPunto!.deliveryId)!.approximate).toBe(false);
  });

  it("tells the customer how many stops are left and when, narrowing as the driver finishes the ones before", async () => {
    // A fresh plan of the whole day on one van, seen on the day itself before the van leaves.
    await optimiseRoutes(test.db, actor, { date: day, vans: [van(driver.id), van(secondDriverId, { capacity: 1 })], requestKey: randomUUID(), now: placedAt });
    const route = await test.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.deliveryDate, day), eq(deliveries.assignedDriverId, driver.id)))
      .orderBy(asc(deliveries.routePosition));
    const open = route.filter((row) => !["delivered", "failed"].includes(row.status));
    const target = open.at(-1)!;
    const before = open.length - 1;
    expect(before).toBeGreaterThanOrEqual(2);
    const morning = at("08:00");
    expect(limaDateOf(morning)).toBe(day);
    const first = await deliveryTracking(test.db, target.id, morning);
    expect(first.kind).toBe("on_route");
    if (first.kind !== "on_route") return;
    expect(first.stopsBefore).toBe(before);
    expect(first.isNext).toBe(false);
    const width = (tracking: typeof first) => minuteOfDay(at(tracking.window!.to)) - minuteOfDay(at(tracking.window!.from));
    // The driver finishes the first open stop on time.
    const done = open[0]!;
    const result = await confirmDriverStop(test.db, {
      deliveryId: done.id,
      driver,
      confirmation: { kind: "delivered", receiverName: "Portería", fullBidonesLeft: 1, emptyBidonesCollected: 1 },
      now: done.estimatedArrivalAt!,
      siteUrl,
    });
    expect(result.ok).toBe(true);
    const second = await deliveryTracking(test.db, target.id, done.estimatedArrivalAt!);
    if (second.kind !== "on_route") throw new Error(`expected on_route, got ${second.kind}`);
    expect(second.stopsBefore).toBe(before - 1);
    expect(second.started).toBe(true);
    expect(width(second)).toBeLessThan(width(first));
    // The receipt of the finished stop says who received it and the bidones.
    expect(await deliveryTracking(test.db, done.id, done.estimatedArrivalAt!)).toMatchObject({
      kind: "delivered",
      receiverName: "Portería",
      fullBidones: 1,
      emptyBidones: 1,
    });
    // Another day, nothing to tell.
    expect(await deliveryTracking(test.db, target.id, placedAt)).toEqual({ kind: "none" });
  });

  it("refuses a driver who is not an active repartidor, and an empty choice of vans", async () => {
    await expect(optimiseRoutes(test.db, actor, { date: day, vans: [van(actor.id)], requestKey: randomUUID(), now: placedAt })).rejects.toBeInstanceOf(
      DispatchRefusedError,
    );
    await expect(optimiseRoutes(test.db, actor, { date: day, vans: [], requestKey: randomUUID(), now: placedAt })).rejects.toThrow(
      "Elige al menos un repartidor para optimizar.",
    );
  });
});

describe("the demo's route of the day (issue 26)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("gives the demo repartidor six stops with points and arrival times, the demo customer's fourth or later", async () => {
    const [driverRow] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    // The day the template was seeded: the demo customer's delivery on the route names it.
    const [customerStop] = await test.db
      .select({ date: deliveries.deliveryDate, position: deliveries.routePosition })
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .where(and(eq(orders.customerEmail, DEMO_CUSTOMER.email), eq(deliveries.assignedDriverId, driverRow!.id)));
    expect(customerStop!.position).toBeGreaterThanOrEqual(4);
    const route = await test.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.assignedDriverId, driverRow!.id), eq(deliveries.deliveryDate, customerStop!.date)))
      .orderBy(asc(deliveries.routePosition));
    expect(route.length).toBeGreaterThanOrEqual(6);
    expect(route.every((stop) => stop.lat !== null && stop.lng !== null && stop.estimatedArrivalAt !== null)).toBe(true);
    expect(new Set(route.map((stop) => stop.districtName)).size).toBeGreaterThanOrEqual(4);
    // Planned from the shift's start, in route order, each within its window.
    const arrivals = route.map((stop) => stop.estimatedArrivalAt!.getTime());
    expect(arrivals).toEqual([...arrivals].sort((a, b) => a - b));
    const sheet = (await loadRouteSheets(test.db, { date: customerStop!.date, driverId: driverRow!.id }))[0]!;
    expect(sheet.stops.every((stop) => stop.lateMinutes === 0 && !stop.approximate)).toBe(true);
  });
});
