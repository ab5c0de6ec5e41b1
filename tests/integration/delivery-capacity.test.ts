import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder, SLOT_TAKEN_MESSAGE } from "@server/checkout/index.server";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { openDatabase, type Database, type DatabaseHandle } from "@server/db/client";
import * as schema from "@server/db/schema";
import { deliveries, deliveryCapacityDefaults, districts, orders, payments, staffActions, users } from "@server/db/schema";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-accounts";
import {
  addClosedDay,
  capacityForDay,
  offeredDeliverySlots,
  removeClosedDay,
  setDistrictCapacities,
  setCutoffTime,
  setDefaultCapacities,
} from "@server/deliveries/index.server";
import type { StaffActor } from "@server/audit/index.server";
import { expireUnpaidOrders } from "@server/order-flows/index.server";
import { changeNextDeliveryDate, loadSelfServiceOptions } from "@server/subscriptions/index.server";
import { checkoutInput, type CheckoutOverrides } from "../support/checkout-fixture";
import { limaNoon, newCustomer, runJobs, siteUrl, subscribe, subscriptionRow } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 2026-11-24, 10:00 in Lima; the checkout fixture delivers Wednesday the 25th, mañana, in Miraflores.
const now = new Date("2026-11-24T15:00:00Z");
const WEDNESDAY = "2026-11-25";
const WED = 3;

describe("delivery capacity (issue 10)", () => {
  let test: TestDatabase;
  let actor: StaffActor;
  let miraflores: number;
  let sanIsidro: number;
  const extraHandles: DatabaseHandle[] = [];

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [staff] = await test.db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    actor = { id: staff!.id, email: staff!.email, role: "operaciones", clientAddress: "127.0.0.1" };
    const byName = async (name: string) => (await test.db.select({ id: districts.id }).from(districts).where(eq(districts.name, name)))[0]!.id;
    miraflores = await byName("Miraflores");
    sanIsidro = await byName("San Isidro");
  });
  afterAll(async () => {
    for (const handle of extraHandles) await handle.close();
    await test.close();
  });

  /** Places taken in the shop-wide pool (the demo data may already have some that day). */
  const shopUsed = async (window: "manana" | "tarde" = "manana") => (await capacityForDay(test.db, WEDNESDAY)).shop.find((row) => row.window === window)!.used;
  const setShopCapacity = (capacity: number, window: "manana" | "tarde" = "manana") =>
    setDefaultCapacities(test.db, actor, [{ dayNumber: WED, window, capacity }]);
  const order = (email: string, overrides: CheckoutOverrides = {}) => checkoutInput(now, { correo: email, ...overrides });

  /** On PostgreSQL, checkouts come through several connection pools, as several server processes would. */
  async function databases(count: number): Promise<Database[]> {
    if (!test.env.DATABASE_URL) return [test.db];
    const dbs: Database[] = [test.db];
    while (dbs.length < count) {
      const handle = await openDatabase({ kind: "postgres", url: test.env.DATABASE_URL });
      extraHandles.push(handle);
      dbs.push(handle.db);
    }
    return dbs;
  }

  it("claims the place last, right before the commit, in at most 3 statements per order (decisions 0063, 0069, 0101, 0102)", async () => {
    // The same database through a Drizzle that writes down each statement it sends (the driver's
    // own BEGIN/COMMIT on PGlite are not among them; node-postgres's are, and are left out here).
    const sent: string[] = [];
    const logger = { logQuery: (query: string) => void sent.push(query) };
    const client = (test.db as unknown as { $client: never }).$client;
    const observed = (test.handle.kind === "postgres"
      ? drizzleNodePg(client, { schema, logger })
      : drizzlePglite(client, { schema, logger })) as unknown as Database;
    expect(await placeOrder(observed, order("primero@example.pe"), { now, provider: "sandbox" })).toMatchObject({ ok: true });
    sent.length = 0;
    expect(await placeOrder(observed, order("medido@example.pe"), { now, provider: "sandbox" })).toMatchObject({ ok: true });
    const statements = sent.filter((text) => !/^(begin|commit)$/i.test(text.trim()));
    // Every order for one date and window waits for the slot's row in turn: its lock and its count
    // are one statement, the last before the commit (decision 0102), and the count is the row's
    // own, not a count of the slot's deliveries (only the claim's own delivery is looked up, by id).
    const lock = statements.findIndex((text) => /"delivery_slots".*for update/is.test(text));
    expect(lock).toBe(statements.length - 1);
    expect(statements[lock]).toMatch(/s\.open_count - \(select count\(\*\) from "deliveries" d\s+where d\.id = any/is);
    expect(statements.findIndex((text) => /insert into "payments"/i.test(text))).toBeLessThan(lock);
    expect(statements.findIndex((text) => /insert into "deliveries"/i.test(text))).toBeLessThan(lock);
    // Calendar, capacity figures and prices in one read (decision 0101), then the order with
    // everything it writes in one statement (decision 0069), then the lock and the count.
    expect(statements[0]).toMatch(/as cart_prices/);
    expect(statements.length).toBeLessThanOrEqual(3);
  });

  it("gives the last 5 places to exactly 5 of 20 simultaneous checkouts; the others get the Spanish message and no order or charge", async () => {
    for (let index = 0; index < 3; index += 1)
      expect(await placeOrder(test.db, order(`antes${index}@example.pe`), { now, provider: "sandbox" })).toMatchObject({ ok: true });
    const taken = await shopUsed();
    await setShopCapacity(taken + 5);

    const dbs = await databases(3);
    const emails = Array.from({ length: 20 }, (_, index) => `carrera${index}@example.pe`);
    const results = await Promise.all(emails.map((email, index) => placeOrder(dbs[index % dbs.length]!, order(email), { now, provider: "sandbox" })));

    expect(results.filter((result) => result.ok)).toHaveLength(5);
    const refused = results.filter((result) => !result.ok);
    expect(refused).toHaveLength(15);
    for (const result of refused) expect(result).toEqual({ ok: false, reason: "slot_taken", fieldErrors: { rangoHorario: SLOT_TAKEN_MESSAGE } });
    expect(await shopUsed()).toBe(taken + 5);
    // Nothing half-written for the refused ones: no order, so no payment attempt to charge.
    const written = await test.db.select({ email: orders.customerEmail }).from(orders).where(inArray(orders.customerEmail, emails));
    expect(written).toHaveLength(5);
    const attempts = await test.db
      .select({ id: payments.id })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(inArray(orders.customerEmail, emails));
    expect(attempts).toHaveLength(5);
  });

  it("offers a full window as full, and a date with no window left not at all", async () => {
    const offered = async () => (await offeredDeliverySlots(test.db, { now, districts: [{ id: miraflores, dayNumbers: [1, 3, 5] }] }))[miraflores]!;
    // Mañana is full from the previous test; tarde still has room.
    expect((await offered()).find((day) => day.date === WEDNESDAY)).toEqual({
      date: WEDNESDAY,
      windows: [
        { window: "manana", hasRoom: false },
        { window: "tarde", hasRoom: true },
      ],
    });
    await setShopCapacity(await shopUsed("tarde"), "tarde");
    expect((await offered()).map((day) => day.date)).not.toContain(WEDNESDAY);
    expect((await offered()).map((day) => day.date).slice(0, 3)).toEqual(["2026-11-27", "2026-11-30", "2026-12-02"]);
    await setShopCapacity(120, "tarde");
  });

  it("frees the place of an order that expired unpaid", async () => {
    await setShopCapacity((await shopUsed()) + 1);
    const first = await placeOrder(test.db, order("expira@example.pe"), { now, provider: "sandbox" });
    expect(first).toMatchObject({ ok: true });
    expect(await placeOrder(test.db, order("espera@example.pe"), { now, provider: "sandbox" })).toMatchObject({ ok: false, reason: "slot_taken" });
    // The card window (30 minutes) runs out: the order is cancelled, and so is its delivery.
    await expireUnpaidOrders(test.db, new Date(now.getTime() + 31 * 60_000));
    expect(await placeOrder(test.db, order("espera@example.pe"), { now, provider: "sandbox" })).toMatchObject({ ok: true });
  });

  it("counts a district with its own figure on its own, outside the shop-wide pool", async () => {
    await setShopCapacity(await shopUsed());
    expect(await placeOrder(test.db, order("sanisidro@example.pe", { districtId: sanIsidro }), { now, provider: "sandbox" })).toMatchObject({
      ok: false,
      reason: "slot_taken",
    });
    const [row] = await test.db
      .select({ n: sql<number>`count(*)::int` })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.districtId, miraflores),
          eq(deliveries.deliveryDate, WEDNESDAY),
          eq(deliveries.deliveryWindow, "manana"),
          // Every delivery holding a place, the demo data's (dated from today) included.
          inArray(deliveries.status, ["pending", "preparing", "scheduled", "shipped", "in_transit", "rescheduled", "failed"]),
        ),
      );
    const mirafloresOpen = Number(row!.n);
    expect(mirafloresOpen).toBeGreaterThan(0);
    // Miraflores gets one place more than it holds: its deliveries leave the shop-wide pool, which has room again.
    await setDistrictCapacities(test.db, actor, miraflores, [{ dayNumber: WED, window: "manana", capacity: mirafloresOpen + 1 }]);
    expect(await placeOrder(test.db, order("sanisidro@example.pe", { districtId: sanIsidro }), { now, provider: "sandbox" })).toMatchObject({ ok: true });
    expect(await placeOrder(test.db, order("miraflores1@example.pe"), { now, provider: "sandbox" })).toMatchObject({ ok: true });
    expect(await placeOrder(test.db, order("miraflores2@example.pe"), { now, provider: "sandbox" })).toMatchObject({ ok: false, reason: "slot_taken" });
    const day = await capacityForDay(test.db, WEDNESDAY);
    expect(day.districts.find((entry) => entry.districtId === miraflores && entry.window === "manana")).toMatchObject({
      ownCapacity: mirafloresOpen + 1,
      used: mirafloresOpen + 1,
    });
    expect(day.districts.find((entry) => entry.districtId === sanIsidro && entry.window === "manana")).toMatchObject({ ownCapacity: null, used: 1 });
  });

  it("refuses a day staff closed, and the cut-off staff set, with audit entries for each change", async () => {
    const friday = "2026-11-27";
    const input = order("cerrado@example.pe", { diaHabil: 5, fecha: friday });
    expect(await addClosedDay(test.db, actor, { date: friday, kind: "cierre", name: "Inventario" })).toEqual({ ok: true });
    expect(await addClosedDay(test.db, actor, { date: friday, kind: "cierre", name: "Inventario" })).toMatchObject({ ok: false, field: "date" });
    expect(await placeOrder(test.db, input, { now, provider: "sandbox" })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { fecha: "No repartimos el viernes, 27 de noviembre (Inventario). Elige otra fecha." },
    });
    await removeClosedDay(test.db, actor, friday);
    await removeClosedDay(test.db, actor, friday);
    expect(await placeOrder(test.db, input, { now, provider: "sandbox" })).toMatchObject({ ok: true });

    // 10:00 in Lima with the cut-off moved to 09:30: tomorrow (Wednesday) is no longer offered.
    expect(await setCutoffTime(test.db, actor, "9:30", now)).toMatchObject({ ok: false, field: "cutoffTime" });
    await setCutoffTime(test.db, actor, "09:30", now);
    await setDefaultCapacities(test.db, actor, [{ dayNumber: WED, window: "tarde", capacity: 500 }]);
    expect(await placeOrder(test.db, order("corte@example.pe", { rangoHorario: "tarde", districtId: sanIsidro }), { now, provider: "sandbox" })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { fecha: "Los pedidos para mañana se reciben hasta las 09:30. Elige otra fecha." },
    });
    await setCutoffTime(test.db, actor, "18:00", now);

    const audit = await test.db
      .select({ action: staffActions.action, entityId: staffActions.entityId })
      .from(staffActions)
      .where(eq(staffActions.actorId, actor.id));
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "calendar.closed_day.add", entityId: friday },
        { action: "calendar.closed_day.remove", entityId: friday },
        { action: "calendar.cutoff", entityId: "cutoff" },
        { action: "calendar.capacity.default", entityId: "3:tarde" },
        { action: "district.capacity", entityId: `${miraflores}:3:manana` },
      ]),
    );
    // A repeated removal (a double click) is recorded once.
    expect(audit.filter((row) => row.action === "calendar.closed_day.remove")).toHaveLength(1);
    const [defaults] = await test.db
      .select()
      .from(deliveryCapacityDefaults)
      .where(and(eq(deliveryCapacityDefaults.dayNumber, WED), eq(deliveryCapacityDefaults.deliveryWindow, "tarde")));
    expect(defaults!.capacity).toBe(500);
  });
});

describe("subscription deliveries and date changes against capacity (decision 0037)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("moves a delivery due on a full day to the district's next weekday with room, keeping the monthly rhythm; date changes refuse full days", async () => {
    const customer = await newCustomer(test.db, "cupos");
    // Mensual in Miraflores (Mon/Wed/Fri), mañana: billed 23 December, next delivery Wednesday 30 December.
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    const [staff] = await test.db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    const actor: StaffActor = { id: staff!.id, email: staff!.email, role: "operaciones", clientAddress: null };
    const [miraflores] = await test.db.select({ id: districts.id }).from(districts).where(eq(districts.name, "Miraflores"));
    // Wednesday mornings in Miraflores are full (no place at all).
    await setDistrictCapacities(test.db, actor, miraflores!.id, [{ dayNumber: WED, window: "manana", capacity: 0 }]);

    const as = { userId: customer.id, subscriptionId, requestKey: randomUUID(), now: limaNoon("2026-12-01"), siteUrl };
    const options = await loadSelfServiceOptions(test.db, customer.id, subscriptionId, limaNoon("2026-12-01"));
    expect(options!.deliveryDates.slice(0, 3)).toEqual(["2026-12-28", "2027-01-04", "2027-01-08"]);
    expect(await changeNextDeliveryDate(test.db, { ...as, date: "2027-01-06" })).toMatchObject({
      ok: false,
      field: "date",
      message: "Ya no quedan cupos para esa fecha. Elige otra.",
    });

    await runJobs(test.db, "2026-12-20", "2026-12-31");
    const made = await test.db.select().from(deliveries).where(eq(deliveries.subscriptionId, subscriptionId)).orderBy(asc(deliveries.subscriptionSequence));
    // Wednesday 30 December is full and Friday 1 January is New Year's Day: Monday 4 January.
    expect(made.map((delivery) => delivery.deliveryDate)).toEqual(["2026-11-25", "2027-01-04"]);
    expect(made[1]!.statusHistory[0]!.note).toBe("Fecha movida del 2026-12-30: día cerrado o sin cupos");
    // The month after is counted from the wanted Wednesday, not from the Monday it went out on.
    expect(await subscriptionRow(test.db, subscriptionId)).toMatchObject({ nextDeliveryDate: "2027-02-03" });
  });
});
