import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { deliveries, routeOptimisations, staffActions } from "@server/db/schema";
import { applyRoutePlan, assignDeliveries, DispatchRefusedError, planRoutes, STALE_PLAN } from "@server/deliveries/index.server";
import { FOUR_PINNED_ORDERS, routePlanningDay, van } from "../support/route-planning-test-bed";

/**
 * Issue 40: "Optimizar rutas" computes a plan and keeps it; nothing reaches the deliveries until
 * "Aplicar plan", which writes once per key and refuses a plan whose deliveries changed since.
 */
describe("plans staff accept: Optimizar rutas, then Aplicar plan", () => {
  // Sixty days from the real clock, past the demo data's days and route-planning.test.ts's: the day holds only this file's deliveries.
  const test = routePlanningDay({ daysAhead: 60, orders: FOUR_PINNED_ORDERS });
  const { day, placedAt, at, stops: dayStops } = test;
  let actor: StaffActor;
  let driverId: string;
  let secondDriverId: string;
  beforeAll(() => {
    ({ actor, secondDriverId } = test);
    driverId = test.driver.id;
  });

  /** The day's deliveries as routes see them: driver, place, status, arrival. */
  const routesOfTheDay = () =>
    test.db
      .select({
        id: deliveries.id,
        driver: deliveries.assignedDriverId,
        position: deliveries.routePosition,
        status: deliveries.status,
        arrival: deliveries.estimatedArrivalAt,
      })
      .from(deliveries)
      .where(eq(deliveries.deliveryDate, day))
      .orderBy(asc(deliveries.id));
  const optimiseAudit = async () => (await test.db.select().from(staffActions).where(eq(staffActions.action, "delivery.optimise"))).length;

  it("writes nothing when it computes; «Aplicar plan» pressed twice at once with one key writes once, and the routes are the plan's", async () => {
    const before = await routesOfTheDay();
    const audit = await optimiseAudit();
    const { run } = await planRoutes(test.db, actor, { date: day, vans: [van(driverId), van(secondDriverId)], requestKey: randomUUID(), now: placedAt });
    expect(run.status).toBe("planned");
    expect(run.result.plan!.placed).toBe(4);
    expect(await routesOfTheDay()).toEqual(before);
    expect(await optimiseAudit()).toBe(audit);

    const applyKey = randomUUID();
    const apply = () => applyRoutePlan(test.db, actor, { runId: run.id, date: day, applyKey, remove: [], now: placedAt });
    const answers = await Promise.all([apply(), apply()]);
    expect(answers.map((answer) => answer.repeated).sort()).toEqual([false, true]);
    expect(await optimiseAudit()).toBe(audit + 4);
    expect((await apply()).repeated).toBe(true);
    expect(await optimiseAudit()).toBe(audit + 4);
    const [stored] = await test.db.select().from(routeOptimisations).where(eq(routeOptimisations.id, run.id));
    expect([stored!.status, stored!.applyKey]).toEqual(["applied", applyKey]);
    // Each van's stops, in the plan's order, are its route now.
    for (const planned of run.result.plan!.vans) {
      const route = await test.db
        .select({ id: deliveries.id })
        .from(deliveries)
        .where(and(eq(deliveries.deliveryDate, day), eq(deliveries.assignedDriverId, planned.driverId)))
        .orderBy(asc(deliveries.routePosition));
      expect(route.map((row) => row.id)).toEqual(planned.stops.map((stop) => stop.deliveryId));
    }
    // Another key on the same plan is a second press of something already done: refused.
    await expect(applyRoutePlan(test.db, actor, { runId: run.id, date: day, applyKey: randomUUID(), remove: [], now: placedAt })).rejects.toThrow(
      "Este plan ya se aplicó",
    );
  });

  it("refuses a plan whose deliveries changed after it was computed, and writes nothing", async () => {
    const { run } = await planRoutes(test.db, actor, { date: day, vans: [van(driverId)], requestKey: randomUUID(), now: placedAt });
    expect(run.result.plan!.placed).toBe(4);
    // Meanwhile someone gives one stop to the other driver by hand.
    await assignDeliveries(test.db, actor, { ids: [dayStops.olivar!.deliveryId], driverId: secondDriverId, now: placedAt });
    const afterHand = await routesOfTheDay();
    const audit = await optimiseAudit();
    const refusal = applyRoutePlan(test.db, actor, { runId: run.id, date: day, applyKey: randomUUID(), remove: [], now: placedAt });
    await expect(refusal).rejects.toBeInstanceOf(DispatchRefusedError);
    await expect(refusal).rejects.toThrow(STALE_PLAN);
    expect(await routesOfTheDay()).toEqual(afterHand);
    expect(await optimiseAudit()).toBe(audit);
    const [stored] = await test.db.select().from(routeOptimisations).where(eq(routeOptimisations.id, run.id));
    expect(stored!.status).toBe("planned");
  });

  it("never takes a driver's stop off their route unless staff tick it", async () => {
    // A van of one bidón cannot carry any stop (three recargas each): the plan places none.
    const vans = [van(secondDriverId, { capacity: 1 })];
    const first = await planRoutes(test.db, actor, { date: day, vans, requestKey: randomUUID(), now: placedAt });
    const stops = first.run.result.plan!.vans[0]!.stops;
    expect(stops.map((stop) => stop.deliveryId)).toContain(dayStops.olivar!.deliveryId);
    expect(stops.every((stop) => stop.keptReason === "La carga de esta entrega no entra en ningún vehículo seleccionado.")).toBe(true);
    expect(first.run.result.unassigned.map((left) => left.deliveryId)).not.toContain(dayStops.olivar!.deliveryId);
    const mine = stops.map((stop) => stop.deliveryId);

    await applyRoutePlan(test.db, actor, { runId: first.run.id, date: day, applyKey: randomUUID(), remove: [], now: placedAt });
    const kept = await test.db.select({ id: deliveries.id, driver: deliveries.assignedDriverId }).from(deliveries).where(inArray(deliveries.id, mine));
    expect(kept.every((row) => row.driver === secondDriverId)).toBe(true);

    // Ticked: only that stop comes off, with its reason; the rest stay.
    const second = await planRoutes(test.db, actor, { date: day, vans, requestKey: randomUUID(), now: placedAt });
    const applied = await applyRoutePlan(test.db, actor, {
      runId: second.run.id,
      date: day,
      applyKey: randomUUID(),
      remove: [dayStops.olivar!.deliveryId],
      now: placedAt,
    });
    expect(applied.result.unassigned.find((left) => left.deliveryId === dayStops.olivar!.deliveryId)?.reason).toBe(
      "La carga de esta entrega no entra en ningún vehículo seleccionado.",
    );
    const after = await test.db.select({ id: deliveries.id, driver: deliveries.assignedDriverId }).from(deliveries).where(inArray(deliveries.id, mine));
    expect(Object.fromEntries(after.map((row) => [row.id, row.driver]))).toEqual(
      Object.fromEntries(mine.map((id) => [id, id === dayStops.olivar!.deliveryId ? null : secondDriverId])),
    );
  });

  it("plans a stop whose window has passed as early as the route allows, marked late, instead of dropping it", async () => {
    // At 15:00 on the day the morning window has closed; the van works until 18:30.
    const { run } = await planRoutes(test.db, actor, { date: day, vans: [van(driverId), van(secondDriverId)], requestKey: randomUUID(), now: at("15:00") });
    const plan = run.result.plan!;
    const planned = plan.vans.flatMap((route) => route.stops);
    const morning = planned.filter((stop) => stop.deliveryWindow === "manana");
    expect(morning.map((stop) => stop.deliveryId).sort()).toEqual([dayStops.larco!.deliveryId, dayStops.pardo!.deliveryId, dayStops.olivar!.deliveryId].sort());
    expect(morning.every((stop) => stop.lateMinutes > 0 && !stop.keptReason && stop.arrival! >= "15:00")).toBe(true);
    expect(planned.find((stop) => stop.deliveryId === dayStops.huaylas!.deliveryId)!.lateMinutes).toBe(0);
    expect(run.result.unassigned).toEqual([]);
    expect(plan.late).toBe(3);
  });

  it("says a plan assigns nothing when no van can reach any stop, and keeps the drivers' stops where they are", async () => {
    const before = await routesOfTheDay();
    // 20:20, every shift over: nothing can be placed.
    const { run } = await planRoutes(test.db, actor, {
      date: day,
      vans: [van(driverId), van(secondDriverId)],
      requestKey: randomUUID(),
      now: at("20:20"),
    });
    const plan = run.result.plan!;
    expect(plan.placed).toBe(0);
    const assigned = before.filter((row) => row.driver !== null).map((row) => row.id);
    expect(
      plan.vans
        .flatMap((route) => route.stops.map((stop) => stop.deliveryId))
        .sort()
        .filter((id) => assigned.includes(id)),
    ).toEqual([...assigned].sort());
    expect(await routesOfTheDay()).toEqual(before);
  });
});
