import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, districts, productVariants, routeOptimisations, staffActions, users } from "@server/db/schema";
import { DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-accounts";
import { applyRoutePlan, assignDeliveries, DispatchRefusedError, planRoutes, STALE_PLAN, type VanShift } from "@server/deliveries/index.server";
import { applySandboxAction } from "@server/order-flows/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { bookableDates } from "../support/lima-clock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Sixty days from the real clock, past the demo data's days and route-planning.test.ts's: the day holds only this file's deliveries.
const placedAt = new Date(Date.now() + 60 * 86_400_000);
const day = bookableDates(3, placedAt)[0]!;
/** An instant of `day` at a Lima clock time. */
const at = (clock: string) => new Date(`${day}T${clock}:00-05:00`);

/**
 * Issue 40: "Optimizar rutas" computes a plan and keeps it; nothing reaches the deliveries until
 * "Aplicar plan", which writes once per key and refuses a plan whose deliveries changed since.
 */
describe("plans staff accept: Optimizar rutas, then Aplicar plan", () => {
  let test: TestDatabase;
  let actor: StaffActor;
  let driverId: string;
  let secondDriverId: string;
  const ids: Record<string, string> = {};
  let recarga: { productId: number; variantId: number; priceCents: number };

  async function order(name: string, input: { district: string; window?: "manana" | "tarde"; point: { lat: number; lng: number } }) {
    const db = test.db;
    const [district] = await db.select({ id: districts.id }).from(districts).where(eq(districts.name, input.district));
    const placed = await placeOrder(
      db,
      checkoutInput(placedAt, {
        correo: `plan-${randomUUID().slice(0, 8)}@prueba.pe`,
        districtId: district!.id,
        direccion: `Calle ${name} 200`,
        fecha: day,
        diaHabil: 3,
        rangoHorario: input.window ?? "manana",
        items: [{ productId: recarga.productId, variantId: recarga.variantId, quantity: 1 }],
        clientSubtotalCents: recarga.priceCents,
        ubicacion: input.point,
      }),
      { now: placedAt, provider: "sandbox", userId: null },
    );
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error(`order ${name} not placed`);
    await applySandboxAction(db, placed.paymentId, "approve_card", { now: placedAt, siteUrl: "http://shop.test" });
    const [delivery] = await db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.orderId, placed.orderId));
    ids[name] = delivery!.id;
  }

  const van = (driver: string, overrides: Partial<VanShift> = {}): VanShift => ({
    driverId: driver,
    capacity: 60,
    capacityUnit: "bidones",
    shiftStart: "08:30",
    shiftEnd: "18:30",
    ...overrides,
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

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const db = test.db;
    const [staff] = await db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    actor = { id: staff!.id, email: staff!.email, role: "operaciones", clientAddress: "127.0.0.1" };
    driverId = (await db.select().from(users).where(eq(users.email, DEMO_REPARTIDOR.email)))[0]!.id;
    secondDriverId = randomUUID();
    await db.insert(users).values({
      id: secondDriverId,
      name: "Segunda Conductora",
      email: `segunda-${secondDriverId.slice(0, 6)}@vidaalcalina.pe`,
      firstName: "Segunda",
      lastName: "Conductora",
      role: "repartidor",
      emailVerified: true,
    });
    const [row] = await db
      .select({ productId: productVariants.productId, variantId: productVariants.id, priceCents: productVariants.priceCents })
      .from(productVariants)
      .where(eq(productVariants.sku, "VA-BH20-R3"));
    recarga = row!;
    await order("larco", { district: "Miraflores", point: { lat: -12.1225, lng: -77.0302 } });
    await order("pardo", { district: "Miraflores", point: { lat: -12.1175, lng: -77.0444 } });
    await order("olivar", { district: "San Isidro", point: { lat: -12.0985, lng: -77.0361 } });
    await order("huaylas", { district: "Chorrillos", window: "tarde", point: { lat: -12.1733, lng: -77.0168 } });
  }, 120_000);
  afterAll(() => test.close());

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
    await assignDeliveries(test.db, actor, { ids: [ids.olivar!], driverId: secondDriverId, now: placedAt });
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
    expect(stops.map((stop) => stop.deliveryId)).toContain(ids.olivar);
    expect(stops.every((stop) => stop.keptReason === "La carga de esta entrega no entra en ningún vehículo seleccionado.")).toBe(true);
    expect(first.run.result.unassigned.map((left) => left.deliveryId)).not.toContain(ids.olivar);
    const mine = stops.map((stop) => stop.deliveryId);

    await applyRoutePlan(test.db, actor, { runId: first.run.id, date: day, applyKey: randomUUID(), remove: [], now: placedAt });
    const kept = await test.db.select({ id: deliveries.id, driver: deliveries.assignedDriverId }).from(deliveries).where(inArray(deliveries.id, mine));
    expect(kept.every((row) => row.driver === secondDriverId)).toBe(true);

    // Ticked: only that stop comes off, with its reason; the rest stay.
    const second = await planRoutes(test.db, actor, { date: day, vans, requestKey: randomUUID(), now: placedAt });
    const applied = await applyRoutePlan(test.db, actor, { runId: second.run.id, date: day, applyKey: randomUUID(), remove: [ids.olivar!], now: placedAt });
    expect(applied.result.unassigned.find((left) => left.deliveryId === ids.olivar)?.reason).toBe(
      "La carga de esta entrega no entra en ningún vehículo seleccionado.",
    );
    const after = await test.db.select({ id: deliveries.id, driver: deliveries.assignedDriverId }).from(deliveries).where(inArray(deliveries.id, mine));
    expect(Object.fromEntries(after.map((row) => [row.id, row.driver]))).toEqual(
      Object.fromEntries(mine.map((id) => [id, id === ids.olivar ? null : secondDriverId])),
    );
  });

  it("plans a stop whose window has passed as early as the route allows, marked late, instead of dropping it", async () => {
    // At 15:00 on the day the morning window has closed; the van works until 18:30.
    const { run } = await planRoutes(test.db, actor, { date: day, vans: [van(driverId), van(secondDriverId)], requestKey: randomUUID(), now: at("15:00") });
    const plan = run.result.plan!;
    const planned = plan.vans.flatMap((route) => route.stops);
    const morning = planned.filter((stop) => stop.deliveryWindow === "manana");
    expect(morning.map((stop) => stop.deliveryId).sort()).toEqual([ids.larco, ids.pardo, ids.olivar].sort());
    expect(morning.every((stop) => stop.lateMinutes > 0 && !stop.keptReason && stop.arrival! >= "15:00")).toBe(true);
    expect(planned.find((stop) => stop.deliveryId === ids.huaylas)!.lateMinutes).toBe(0);
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
