/**
 * Issue 13 (decision 0046): a claimed batch's paid charges are completed in one transaction, and
 * a subscription's delivery finds its date with room in one query. These pin what the batching
 * must keep: one bad row never fails the others, a retried batch changes nothing twice, invoice
 * numbers stay consecutive; and the scheduling query's rules (full windows in either pool, closed
 * days, the district's weekdays, the wanted date itself) with the slot lock that prevents overbooking.
 */
import { and, asc, eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type DatabaseHandle } from "@server/db/client";
import { rowFailures } from "@server/db/row-failures";
import {
  deliveries,
  deliveryCapacityDefaults,
  deliveryCapacityOverrides,
  deliveryClosedDays,
  deliverySlots,
  districts,
  invoices,
  orders,
  outboxEmails,
  paymentMethods,
  subscriptionEvents,
  subscriptionItems,
  subscriptionPeriods,
  subscriptions,
} from "@server/db/schema";
import { inTransaction } from "@server/db/transaction";
import { claimNextSlotFrom } from "@server/deliveries/index.server";
import { sandboxCardProvider } from "@server/payments/cards";
import { renewDueSubscriptions } from "@server/subscriptions/index.server";
import { completePaidPeriods } from "@server/subscriptions/paid-renewal";
import { insertDueSubscriptions } from "../support/due-renewals";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, rowsOf, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-24T15:00:00Z");
const siteUrl = "http://shop.test";

describe("completing a batch of paid renewals (decision 0046)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("completes a mixed batch: the paid ones together, the declined one as a failed attempt, the bad row alone and left for the reconciler", async () => {
    await insertDueSubscriptions(test.db, now, 6);
    const due = await test.db
      .select({ id: subscriptions.id, methodId: subscriptions.paymentMethodId })
      .from(subscriptions)
      .where(like(subscriptions.userId, "bench-user-%"))
      .orderBy(asc(subscriptions.id));
    const [declining, broken, ...good] = due;
    // The sandbox declines every charge on a card ending 0341.
    await test.db.update(paymentMethods).set({ providerCardId: "sbx_crd_batch_0341" }).where(eq(paymentMethods.id, declining!.methodId!));
    // Its lines are gone: its charge goes through but its order cannot be written, so the batch's
    // one transaction fails and the batch is completed charge by charge.
    await test.db.delete(subscriptionItems).where(eq(subscriptionItems.subscriptionId, broken!.id));
    expectConsoleError(new RegExp(`Job renewals could not handle ${broken!.id}`));

    const report = await renewDueSubscriptions(test.db, { now, siteUrl, cardsFor: () => sandboxCardProvider(test.db) });
    expect(report).toMatchObject({ charged: 4, declined: 1, failed: 1, unknown: 0 });
    expect((await rowFailures(test.db, "renewals")).map((line) => line.rowId)).toEqual([broken!.id]);

    const periods = await test.db
      .select({ subscriptionId: subscriptionPeriods.subscriptionId, status: subscriptionPeriods.status, attempts: subscriptionPeriods.attempts })
      .from(subscriptionPeriods)
      .where(
        and(
          inArray(
            subscriptionPeriods.subscriptionId,
            due.map((row) => row.id),
          ),
          eq(subscriptionPeriods.periodNumber, 2),
        ),
      );
    const statusOf = new Map(periods.map((period) => [period.subscriptionId, period]));
    expect(statusOf.get(declining!.id)).toMatchObject({ status: "failed", attempts: 1 });
    expect(statusOf.get(broken!.id)).toMatchObject({ status: "charging" });
    for (const row of good) expect(statusOf.get(row.id)).toMatchObject({ status: "paid", attempts: 1 });

    const renewed = await test.db
      .select({ id: orders.id, status: orders.status, subscriptionId: orders.subscriptionId })
      .from(orders)
      .where(
        and(
          inArray(
            orders.subscriptionId,
            due.map((row) => row.id),
          ),
          eq(orders.createdAt, now),
        ),
      );
    expect(renewed.map((order) => order.subscriptionId).sort()).toEqual(good.map((row) => row.id).sort());
    expect(renewed.every((order) => order.status === "paid")).toBe(true);
    const issued = await test.db
      .select({ number: invoices.number, series: invoices.series })
      .from(invoices)
      .where(
        inArray(
          invoices.orderId,
          renewed.map((order) => order.id),
        ),
      )
      .orderBy(asc(invoices.number));
    // One series, numbered in one step for the batch: consecutive, no gap, no repeat.
    expect(issued.map((invoice) => invoice.series)).toEqual(["B001", "B001", "B001", "B001"]);
    expect(issued.map((invoice) => invoice.number - issued[0]!.number)).toEqual([0, 1, 2, 3]);
    const confirmations = await test.db
      .select({ key: outboxEmails.dedupeKey })
      .from(outboxEmails)
      .where(
        inArray(
          outboxEmails.dedupeKey,
          renewed.map((order) => `order-confirmation:${order.id}`),
        ),
      );
    expect(confirmations).toHaveLength(4);
    const moved = await test.db
      .select({ id: subscriptions.id, next: subscriptions.nextPeriodNumber })
      .from(subscriptions)
      .where(
        inArray(
          subscriptions.id,
          due.map((row) => row.id),
        ),
      );
    expect(Object.fromEntries(moved.map((row) => [row.id, row.next]))).toEqual(Object.fromEntries(due.map((row) => [row.id, good.includes(row) ? 3 : 2])));
  });

  it("changes nothing when a completed batch is completed again (a retry, or the reconciler after a worker)", async () => {
    // The four the previous test completed, replayed as a retried batch would be.
    const paid = await test.db
      .select({ subscriptionId: subscriptionPeriods.subscriptionId, periodId: subscriptionPeriods.id, chargeId: subscriptionPeriods.providerChargeId })
      .from(subscriptionPeriods)
      .innerJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId))
      .where(and(like(subscriptions.userId, "bench-user-%"), eq(subscriptionPeriods.periodNumber, 2), eq(subscriptionPeriods.status, "paid")));
    expect(paid).toHaveLength(4);
    const counts = async () => {
      const [row] = rowsOf<Record<string, number>>(
        await test.db.execute(sql`select (select count(*)::int from orders) as orders, (select count(*)::int from invoices) as invoices,
          (select count(*)::int from outbox_emails) as emails, (select count(*)::int from subscription_events) as events,
          (select sum(next_period_number)::int from subscriptions) as pointers`),
      );
      return row;
    };
    const before = await counts();
    const again = await inTransaction(test.db, (tx) =>
      completePaidPeriods(
        tx,
        paid.map((row) => ({ subscriptionId: row.subscriptionId, periodId: row.periodId, chargeId: row.chargeId!, provider: "sandbox" })),
        { now, siteUrl },
      ),
    );
    expect(again).toBe(0);
    expect(await counts()).toEqual(before);
    const renewedEvents = await test.db
      .select({ id: subscriptionEvents.id })
      .from(subscriptionEvents)
      .where(
        and(
          eq(subscriptionEvents.kind, "renewed"),
          inArray(
            subscriptionEvents.subscriptionId,
            paid.map((row) => row.subscriptionId),
          ),
        ),
      );
    expect(renewedEvents).toHaveLength(4);
  });
});

// Literal dates, months past any demo data and clear of the seeded holidays. Miraflores is served
// Mon/Wed/Fri here (passed in).
const MON = "2027-05-10";
const TUE = "2027-05-11";
const WED = "2027-05-12";
const FRI = "2027-05-14";
const NEXT_MON = "2027-05-17";
const NEXT_WED = "2027-05-19";
const MON_WED_FRI = [1, 3, 5];

describe("finding a subscription delivery's date with room in one query (issue 13, decision 0037)", () => {
  let test: TestDatabase;
  let miraflores: { id: number; name: string };
  let sanIsidro: { id: number; name: string };
  let orderId: string;
  const extraHandles: DatabaseHandle[] = [];

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const byName = async (name: string) =>
      (await test.db.select({ id: districts.id, name: districts.name }).from(districts).where(eq(districts.name, name)))[0]!;
    miraflores = await byName("Miraflores");
    sanIsidro = await byName("San Isidro");
    orderId = (await test.db.select({ id: orders.id }).from(orders).limit(1))[0]!.id;
    // Tarde: Miraflores has 2 places of its own on Mondays; the shop's pool has 1 on Fridays.
    await test.db
      .insert(deliveryCapacityOverrides)
      .values({ districtId: miraflores.id, dayNumber: 1, deliveryWindow: "tarde", capacity: 2 })
      .onConflictDoUpdate({
        target: [deliveryCapacityOverrides.districtId, deliveryCapacityOverrides.dayNumber, deliveryCapacityOverrides.deliveryWindow],
        set: { capacity: 2 },
      });
    await test.db
      .update(deliveryCapacityDefaults)
      .set({ capacity: 1 })
      .where(and(eq(deliveryCapacityDefaults.dayNumber, 5), eq(deliveryCapacityDefaults.deliveryWindow, "tarde")));
    await test.db.insert(deliveryClosedDays).values({ closedOn: WED, kind: "cierre", name: "Inventario" });
  });
  afterAll(async () => {
    for (const handle of extraHandles) await handle.close();
    await test.close();
  });

  const deliveryOn = (date: string, district: { id: number; name: string }, status = "pending") =>
    test.db.insert(deliveries).values({
      orderId,
      districtId: district.id,
      districtName: district.name,
      address: "Calle de prueba 1",
      deliveryDate: date,
      deliveryWindow: "tarde",
      status,
    });
  const claim = (db: Database, wantedDate: string, districtDays = MON_WED_FRI) =>
    inTransaction(db, (tx) => claimNextSlotFrom(tx, { districtId: miraflores.id, window: "tarde", wantedDate, districtDays }));

  it("takes the wanted date while it has room, whatever its weekday, and locks its slot", async () => {
    expect(await claim(test.db, MON)).toEqual({ date: MON });
    expect(await claim(test.db, TUE)).toEqual({ date: TUE });
    const slots = await test.db
      .select()
      .from(deliverySlots)
      .where(inArray(deliverySlots.deliveryDate, [MON, TUE]));
    expect(slots.map((slot) => `${slot.deliveryDate} ${slot.scope}`).sort()).toEqual([`${MON} district:${miraflores.id}`, `${TUE} shop`]);
  });

  it("passes over a full window of the district's own pool, a closed day, days the district is not served and a full shop pool", async () => {
    // Monday's two Miraflores places are taken (a cancelled delivery frees its place).
    await deliveryOn(MON, miraflores);
    await deliveryOn(MON, miraflores);
    await deliveryOn(MON, miraflores, "cancelled");
    // Friday's one shop place is taken by a San Isidro delivery.
    await deliveryOn(FRI, sanIsidro);
    // Tuesday and Thursday are not Miraflores days, Wednesday is closed, Friday is full.
    expect(await claim(test.db, MON)).toEqual({ date: NEXT_MON });
    // With no weekdays on record, any open day with room will do.
    expect(await claim(test.db, MON, [])).toEqual({ date: TUE });
  });

  it("counts a district with its own figure apart from the shop's pool", async () => {
    // San Isidro gets its own Friday places: its delivery leaves the shop's pool, which has room again.
    await test.db.insert(deliveryCapacityOverrides).values({ districtId: sanIsidro.id, dayNumber: 5, deliveryWindow: "tarde", capacity: 5 });
    expect(await claim(test.db, MON)).toEqual({ date: FRI });
    await test.db
      .delete(deliveryCapacityOverrides)
      .where(and(eq(deliveryCapacityOverrides.districtId, sanIsidro.id), eq(deliveryCapacityOverrides.dayNumber, 5)));
  });

  it("answers null when nothing within 60 days has room", async () => {
    await test.db.update(deliveryCapacityDefaults).set({ capacity: 0 }).where(eq(deliveryCapacityDefaults.deliveryWindow, "tarde"));
    await test.db.update(deliveryCapacityOverrides).set({ capacity: 0 }).where(eq(deliveryCapacityOverrides.districtId, miraflores.id));
    expect(await claim(test.db, MON)).toBeNull();
    await test.db.update(deliveryCapacityDefaults).set({ capacity: 1 }).where(eq(deliveryCapacityDefaults.deliveryWindow, "tarde"));
    await test.db.update(deliveryCapacityOverrides).set({ capacity: 2 }).where(eq(deliveryCapacityOverrides.districtId, miraflores.id));
  });

  it("never overbooks: simultaneous claims for the last place take turns under the slot's lock", async () => {
    // Next Monday has 2 places; three deliveries are scheduled at once, each claiming and inserting.
    const dbs: Database[] = [test.db];
    while (test.env.DATABASE_URL && dbs.length < 3) {
      const handle = await openDatabase({ kind: "postgres", url: test.env.DATABASE_URL });
      extraHandles.push(handle);
      dbs.push(handle.db);
    }
    const schedule = (db: Database) =>
      inTransaction(db, async (tx) => {
        const slot = await claimNextSlotFrom(tx, { districtId: miraflores.id, window: "tarde", wantedDate: NEXT_MON, districtDays: MON_WED_FRI });
        await tx.insert(deliveries).values({
          orderId,
          districtId: miraflores.id,
          districtName: miraflores.name,
          address: "Calle de prueba 2",
          deliveryDate: slot!.date,
          deliveryWindow: "tarde",
          status: "pending",
        });
        return slot!.date;
      });
    const dates = await Promise.all([0, 1, 2].map((index) => schedule(dbs[index % dbs.length]!)));
    expect(dates.sort()).toEqual([NEXT_MON, NEXT_MON, NEXT_WED]);
  });
});
