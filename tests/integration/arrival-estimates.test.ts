/**
 * Issue 40, decision 0094: one arrival estimate. The driver's card and the customer's tracking read
 * the same window for every stop, recomputed from the later of the plan and now when a stop is done;
 * a stop that will miss the slot promised at checkout is late with its reason, for the customer, in
 * Despacho's list and on Inicio (admin and operaciones, never a repartidor); customers with
 * WhatsApp on get exactly one "pedido_retrasado" per delivery and day, through the outbox.
 *
 * The demo route of the real Lima today is re-planned here at known times (9:00, 9:30, … in Lima),
 * and every function is asked at a `now` on that same day, so the test reads the same on any day
 * and at any hour.
 */
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { deliveries, deliveryProofs, orders, users, whatsappMessages } from "@server/db/schema";
import { DEMO_CUSTOMER, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { deliveryTracking, lateDeliveriesAlarm, lateDeliveriesOfDay, listDriverStops, tellLateDeliveries } from "@server/deliveries/index.server";
import { limaDateOf } from "../support/lima-clock";
import { startWhatsappCloudMock, type WhatsappCloudMock } from "../support/whatsapp-cloud-mock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const today = limaDateOf(new Date());
/** An instant of Lima's today, at HH:MM (Lima is UTC−5 all year). */
const at = (clock: string) => new Date(`${today}T${clock}:00-05:00`);
const siteUrl = "http://shop.test";

describe("one arrival estimate for the driver and the customer (issue 40)", () => {
  let test: TestDatabase;
  let cloud: WhatsappCloudMock;
  let driverId: string;
  /** The demo route of today in its order; the demo customer's stop among them. */
  let route: { id: string; orderId: string; email: string }[] = [];
  let mine: number;

  beforeAll(async () => {
    cloud = await startWhatsappCloudMock();
    // WhatsApp is on for this file: the configuration is read once, on first use, after this.
    for (const [name, value] of Object.entries(cloud.env)) vi.stubEnv(name, value);
    test = await createTestDatabase("seeded");
    const [driver] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    driverId = driver!.id;
    route = await test.db
      .select({ id: deliveries.id, orderId: deliveries.orderId, email: orders.customerEmail })
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .where(and(eq(deliveries.assignedDriverId, driverId), eq(deliveries.deliveryDate, today), isNotNull(deliveries.routePosition)))
      .orderBy(asc(deliveries.routePosition));
    mine = route.findIndex((stop) => stop.email === DEMO_CUSTOMER.email);
    expect(route.length).toBeGreaterThanOrEqual(5);
    expect(mine).toBe(3);
  }, 60_000);
  afterAll(async () => {
    await test?.close();
    await cloud?.close();
    vi.unstubAllEnvs();
  });

  /** Today's route planned every half hour from 9:00, all in the morning slot (9–12), nothing done. */
  async function planTheMorning() {
    await test.db.delete(deliveryProofs).where(
      inArray(
        deliveryProofs.deliveryId,
        route.map((stop) => stop.id),
      ),
    );
    for (const [index, stop] of route.entries()) {
      const minutes = 9 * 60 + 30 * index;
      const clock = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
      await test.db
        .update(deliveries)
        .set({ status: "scheduled", deliveryWindow: "manana", assignedDriverId: driverId, estimatedArrivalAt: at(clock) })
        .where(eq(deliveries.id, stop.id));
    }
  }

  /** The driver's card and the customer's tracking of every open stop at `now`. */
  async function bothSides(now: Date) {
    const cards = await listDriverStops(test.db, driverId, now);
    const sides = [];
    for (const stop of route) {
      const card = cards.find((each) => each.id === stop.id)!;
      const tracking = await deliveryTracking(test.db, stop.id, now);
      sides.push({ card: card.arrival, tracking });
    }
    return sides;
  }

  it("gives the driver's card and the customer's page the same window for every stop, narrowing as stops are done", async () => {
    await planTheMorning();
    const early = await bothSides(at("08:30"));
    for (const [index, side] of early.entries()) {
      expect(side.tracking.kind, `stop ${index + 1}`).toBe("on_route");
      if (side.tracking.kind !== "on_route") continue;
      expect(side.card, `stop ${index + 1}`).toEqual({ ...side.tracking.window, late: null });
      expect(side.tracking.delayed).toBeNull();
    }
    // The demo customer's stop: planned 10:30, three stops before it (± 10 + 3 × 5 minutes).
    expect(early[mine]!.tracking).toMatchObject({
      kind: "on_route",
      started: false,
      stopsBefore: 3,
      window: { from: "10:05", to: "10:55" },
      delayed: null,
      driverFirstName: DEMO_REPARTIDOR.firstName,
    });

    // At 9:25 the van has not reported: the first stop (9:00) is 25 minutes overdue, the route with it.
    const waiting = await bothSides(at("09:25"));
    expect(waiting[mine]!.card).toEqual({ from: "10:30", to: "11:20", late: null });
    // The driver hands the first stop over at 9:20 (planned 9:00, 6 minutes' service): 14 minutes late,
    // one stop fewer before hers. Both sides move the same way at once.
    await test.db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.id, route[0]!.id));
    await test.db.insert(deliveryProofs).values({ deliveryId: route[0]!.id, outcome: "delivered", receiverName: "Portería", driverId, createdAt: at("09:20") });
    const after = await bothSides(at("09:25"));
    expect(after[0]!.tracking.kind).toBe("delivered");
    expect(after[mine]!.tracking).toMatchObject({ kind: "on_route", started: true, stopsBefore: 2, window: { from: "10:20", to: "11:05" } });
    expect(after[mine]!.card).toEqual({ from: "10:20", to: "11:05", late: null });
  });

  it("marks a stop late with its reason when the route will miss its slot, the same on both sides", async () => {
    await planTheMorning();
    // 11:00 and nothing done: the first stop was due at 9:00, the route runs two hours late.
    const sides = await bothSides(at("11:00"));
    const reason = "el repartidor va retrasado en su ruta";
    // Stops planned 9:00–10:00 still make noon (the third exactly at 12:00); the rest do not.
    for (const index of [0, 1, 2]) {
      expect(sides[index]!.card?.late, `stop ${index + 1}`).toBeNull();
      expect(sides[index]!.tracking).toMatchObject({ delayed: null });
    }
    for (const index of [3, 4]) {
      expect(sides[index]!.card?.late, `stop ${index + 1}`).toBe(reason);
      expect(sides[index]!.tracking, `stop ${index + 1}`).toMatchObject({ kind: "on_route", delayed: { reason } });
      if (sides[index]!.tracking.kind === "on_route") expect(sides[index]!.card).toEqual({ ...sides[index]!.tracking.window, late: reason });
    }
    // Hers: 10:30 + 2 h = 12:30, ± 25 minutes.
    expect(sides[mine]!.card).toEqual({ from: "12:05", to: "12:55", late: reason });

    const late = await lateDeliveriesOfDay(test.db, { date: today, now: at("11:00") });
    const lateIds = new Set(late.map((row) => row.deliveryId));
    expect(route.filter((stop) => lateIds.has(stop.id)).map((stop) => stop.id)).toEqual(route.slice(3).map((stop) => stop.id));
    expect(late.find((row) => row.deliveryId === route[mine]!.id)?.estimate.late).toEqual({ reason: "route_delayed", minutes: 30 });
  });

  it("tracks a delivery already «En camino», on the route or on none, naming only the driver's first name", async () => {
    await planTheMorning();
    const customerStop = route[mine]!.id;
    await test.db.update(deliveries).set({ status: "in_transit" }).where(eq(deliveries.id, customerStop));
    const onRoute = await deliveryTracking(test.db, customerStop, at("08:30"));
    expect(onRoute).toMatchObject({ kind: "on_route", started: true, stopsBefore: 3, driverFirstName: DEMO_REPARTIDOR.firstName });
    expect(JSON.stringify(onRoute)).not.toMatch(/lat|lng|address|direcci|Torres/i);
    expect(JSON.stringify(onRoute)).not.toContain(DEMO_REPARTIDOR.lastName);
    // Set «en camino» by staff with no driver: still followed, without stops to count.
    await test.db.update(deliveries).set({ assignedDriverId: null }).where(eq(deliveries.id, customerStop));
    expect(await deliveryTracking(test.db, customerStop, at("08:30"))).toEqual({
      kind: "on_route",
      started: true,
      stopsBefore: null,
      isNext: false,
      window: null,
      delayed: null,
      driverFirstName: null,
    });
    // Past its slot's close, it says it is late even without a time to give.
    expect(await deliveryTracking(test.db, customerStop, at("12:30"))).toMatchObject({
      kind: "on_route",
      delayed: { reason: "el pedido aún no tiene hora de llegada en la ruta" },
    });
    // Still on its way from yesterday: followed, and late.
    const yesterday = limaDateOf(new Date(at("12:00").getTime() - 86_400_000));
    await test.db.update(deliveries).set({ deliveryDate: yesterday }).where(eq(deliveries.id, customerStop));
    expect(await deliveryTracking(test.db, customerStop, at("08:30"))).toMatchObject({
      kind: "on_route",
      stopsBefore: null,
      delayed: { reason: "el pedido aún no tiene hora de llegada en la ruta" },
    });
    await test.db.update(deliveries).set({ deliveryDate: today, assignedDriverId: driverId }).where(eq(deliveries.id, customerStop));
  });

  it("raises Inicio's alarm for admin and operaciones, counted and linked, and none for a repartidor", async () => {
    await planTheMorning();
    const now = at("11:00");
    const late = await lateDeliveriesOfDay(test.db, { date: today, now });
    for (const role of ["admin", "operaciones"] as const) {
      const alarm = await lateDeliveriesAlarm(test.db, { role }, now);
      expect(alarm, role).not.toBeNull();
      expect(alarm!.date).toBe(today);
      expect(alarm!.count).toBe(late.length);
      const hers = alarm!.rows.find((row) => row.deliveryId === route[mine]!.id);
      expect(hers).toMatchObject({
        orderId: route[mine]!.orderId,
        minutes: 30,
        reason: "el repartidor va retrasado en su ruta",
        driverName: `${DEMO_REPARTIDOR.firstName} ${DEMO_REPARTIDOR.lastName}`,
      });
      // Stops that still make their slot are not in it.
      expect(alarm!.rows.map((row) => row.deliveryId)).not.toContain(route[1]!.id);
    }
    expect(await lateDeliveriesAlarm(test.db, { role: "repartidor" }, now)).toBeNull();
    // Early in the morning nothing of the route is late.
    const calm = await lateDeliveriesAlarm(test.db, { role: "operaciones" }, at("08:30"));
    expect(calm!.rows.filter((row) => route.some((stop) => stop.id === row.deliveryId))).toEqual([]);
  });

  it("queues one «pedido_retrasado» WhatsApp per late delivery and day, however often the job runs", async () => {
    await planTheMorning();
    const mineId = route[mine]!.id;
    const retrasados = () =>
      test.db
        .select({ dedupeKey: whatsappMessages.dedupeKey, orderId: whatsappMessages.orderId, parameters: whatsappMessages.parameters })
        .from(whatsappMessages)
        .where(eq(whatsappMessages.templateName, "pedido_retrasado"));
    // On time: nothing.
    expect(await tellLateDeliveries(test.db, { now: at("08:30"), siteUrl })).toEqual({ queued: 0 });
    expect(await retrasados()).toEqual([]);

    // 11:00: the stops from hers on are late (every demo route customer has WhatsApp on).
    expect(await tellLateDeliveries(test.db, { now: at("11:00"), siteUrl })).toEqual({ queued: route.length - 3 });
    // The job's next pass: nothing more.
    expect(await tellLateDeliveries(test.db, { now: at("11:00"), siteUrl })).toEqual({ queued: 0 });
    // 11:40, the route later still: only the two stops that became late now get theirs.
    expect(await tellLateDeliveries(test.db, { now: at("11:40"), siteUrl })).toEqual({ queued: 2 });
    const rows = await retrasados();
    expect(rows).toHaveLength(route.length - 1);
    expect(new Set(rows.map((row) => row.orderId)).size).toBe(rows.length);
    const hers = rows.filter((row) => row.dedupeKey === `delivery-late:${mineId}:${today}`);
    expect(hers).toHaveLength(1);
    expect(hers[0]!.orderId).toBe(route[mine]!.orderId);
    expect(hers[0]!.parameters?.body).toEqual([
      DEMO_CUSTOMER.firstName,
      expect.stringMatching(/^VA-\d+$/),
      "Mañana (9am - 12pm)",
      "el repartidor va retrasado en su ruta",
      "Nueva llegada estimada: entre las 12:05 y las 12:55",
    ]);
    // Only late deliveries: the first stop, due at 11:40 itself, still makes its slot and gets none.
    expect(rows.map((row) => row.dedupeKey)).not.toContain(`delivery-late:${route[0]!.id}:${today}`);
  });
});
