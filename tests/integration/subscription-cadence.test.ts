/**
 * Decision 0097: a plan's deliveries weekly or every two weeks, its discount and billing unchanged.
 * Fixture clock: Monday 23 November 2026 in Lima, first delivery Wednesday 25 November (Miraflores,
 * served Monday, Wednesday and Friday), 2 × Pack x 12 = S/ 60.00 a delivery.
 */
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@server/db/index.server";
import { deliveries, orders, outboxEmails, subscriptionPeriods } from "@server/db/schema";
import { findOrderReceipt, findStaffOrder } from "@server/orders/index.server";
import { sandboxCardProvider } from "@server/payments/index.server";
import {
  changeNextDeliveryDate,
  changeSubscriptionCadence,
  pauseSubscription,
  renewDueSubscriptions,
  resumeSubscriptionNow,
  scheduleSubscriptionDeliveries,
  skipNextDelivery,
} from "@server/subscriptions/index.server";
import type { DeliveryCadence } from "@core/delivery-cadence";
import { addDays } from "@core/lima-dates";
import { nationalHolidayOn } from "@core/peru-holidays";
import { chargesOf, limaNoon, newCustomer, siteUrl, subscribe, subscriptionRow } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/** A customer subscribed on the fixture's clock with this plan and cadence (the cart: one delivery, S/ 60). */
const subscribeWith = async (db: Database, frequency: "mensual" | "anual", cadence: DeliveryCadence, customer?: { id: string; email: string }) =>
  subscribe(db, customer ?? (await newCustomer(db, cadence)), frequency, "4111111111111111", cadence);

/** The renewal and delivery jobs at noon in Lima, every day from `from` to `to`. */
async function renewAndScheduleDaily(db: Database, from: string, to: string) {
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const now = limaNoon(day);
    await renewDueSubscriptions(db, { now, siteUrl, cardsFor: () => sandboxCardProvider(db) });
    await scheduleSubscriptionDeliveries(db, now);
  }
}

const deliveriesOf = (db: Database, subscriptionId: string) =>
  db
    .select({ date: deliveries.deliveryDate, sequence: deliveries.subscriptionSequence, orderId: deliveries.orderId, status: deliveries.status })
    .from(deliveries)
    .where(and(eq(deliveries.subscriptionId, subscriptionId), isNotNull(deliveries.subscriptionSequence)))
    .orderBy(asc(deliveries.subscriptionSequence));

describe("changing the cadence from the account page (decision 0097)", () => {
  let test: TestDatabase;
  let subscriptionId: string;
  let owner: { id: string; email: string };
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    owner = await newCustomer(test.db, "cambia");
    subscriptionId = await subscribeWith(test.db, "mensual", "monthly", owner);
  }, 120_000);
  afterAll(() => test.close());

  const change = (userId: string, cadence: string, requestKey: string) =>
    changeSubscriptionCadence(test.db, { userId, subscriptionId, requestKey, cadence, now: limaNoon("2026-11-24"), siteUrl });

  it("refuses another customer's subscription and the cadence it already has, changing nothing", async () => {
    const stranger = await newCustomer(test.db, "otra");
    expect(await change(stranger.id, "weekly", "k-stranger")).toEqual({ ok: false, reason: "not_found" });
    expect(await change(owner.id, "monthly", "k-same")).toMatchObject({ ok: false, reason: "refused", message: "Tus entregas ya son mensual" });
    expect(await subscriptionRow(test.db, subscriptionId)).toMatchObject({ deliveryCadence: "monthly", baseAmountCents: 6000, amountCents: 5700 });
  });

  it("bills the next period weekly and delivers it weekly, the month already paid keeping its one delivery; a double submit changes once", async () => {
    const first = await change(owner.id, "weekly", "k-weekly");
    const again = await change(owner.id, "weekly", "k-weekly");
    expect(first).toMatchObject({ ok: true, alreadyApplied: false });
    expect(again).toMatchObject({ ok: true, alreadyApplied: true });
    expect(await subscriptionRow(test.db, subscriptionId)).toMatchObject({ deliveryCadence: "weekly", baseAmountCents: 24000, amountCents: 22800 });
    await renewAndScheduleDaily(test.db, "2026-11-24", "2027-01-13");
    expect((await chargesOf(test.db, subscriptionId)).map((charge) => charge.amountCents)).toEqual([5700, 22800]);
    // November's paid month keeps its one delivery; from the December charge on, weekly from the next date.
    expect((await deliveriesOf(test.db, subscriptionId)).map((delivery) => delivery.date)).toEqual([
      "2026-11-25",
      "2026-12-30",
      "2027-01-06",
      "2027-01-13",
      "2027-01-20",
    ]);
  });
});

describe("skipping a weekly delivery (decision 0097)", () => {
  let test: TestDatabase;
  let subscriptionId: string;
  let owner: { id: string; email: string };
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    owner = await newCustomer(test.db, "salta");
    subscriptionId = await subscribeWith(test.db, "mensual", "weekly", owner);
    // Wednesday 2 December's delivery is created a week ahead, on 25 November.
    await scheduleSubscriptionDeliveries(test.db, limaNoon("2026-11-25"));
  }, 120_000);
  afterAll(() => test.close());

  it("hands that one delivery back and keeps the month's charge: the four paid deliveries still come, the fifth week used", async () => {
    const skipped = await skipNextDelivery(test.db, { userId: owner.id, subscriptionId, requestKey: "k-skip", now: limaNoon("2026-11-26"), siteUrl });
    expect(skipped).toMatchObject({ ok: true, alreadyApplied: false });
    expect(skipped.ok && skipped.message).toMatch(/^Entrega del 2 de diciembre de 2026 saltada: la recibirás el 9 de diciembre de 2026\. El cobro no cambia/);
    expect(await subscriptionRow(test.db, subscriptionId)).toMatchObject({ nextBillingDate: "2026-12-23", deliveriesMade: 1, nextDeliveryDate: "2026-12-09" });
    await renewAndScheduleDaily(test.db, "2026-11-26", "2026-12-23");
    expect((await chargesOf(test.db, subscriptionId)).map((charge) => charge.amountCents)).toEqual([22800, 22800]);
    // Period 1's four: 25 November, then 9 (a holiday: Friday 11), 16 and 23 December, the week of
    // 2 December skipped and the month's fifth week used; period 2 from the 30th.
    expect((await deliveriesOf(test.db, subscriptionId)).map((delivery) => delivery.date)).toEqual([
      "2026-11-25",
      "2026-12-11",
      "2026-12-16",
      "2026-12-23",
      "2026-12-30",
    ]);
  });
});

describe("a new date re-anchors a weekly month (decision 0097)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  }, 120_000);
  afterAll(() => test.close());

  it("counts the month from the customer's new date («Cambiar fecha») and from where a resume puts the paused deliveries", async () => {
    const moved = await newCustomer(test.db, "cambia-fecha");
    const paused = await newCustomer(test.db, "pausa");
    const movedId = await subscribeWith(test.db, "mensual", "weekly", moved);
    const pausedId = await subscribeWith(test.db, "mensual", "weekly", paused);
    // Period 1 made up to Wednesday 16 December; the next (period 2's first) is Wednesday 30 December.
    await renewAndScheduleDaily(test.db, "2026-11-24", "2026-12-09");
    const context = (userId: string, subscriptionId: string, key: string, day: string) => ({
      userId,
      subscriptionId,
      requestKey: key,
      now: limaNoon(day),
      siteUrl,
    });
    // Weekly on Mondays from 11 January instead; the month counts from that Monday.
    expect(await changeNextDeliveryDate(test.db, { ...context(moved.id, movedId, "k-date", "2026-12-10"), date: "2027-01-11" })).toMatchObject({ ok: true });
    expect(await subscriptionRow(test.db, movedId)).toMatchObject({ nextDeliveryDate: "2027-01-11", deliveryAnchorDate: "2027-01-11" });
    // The pause hands back 11 and 16 December (period 1's third and fourth); resumed on Sunday 10 January they come on Mondays.
    expect(await pauseSubscription(test.db, { ...context(paused.id, pausedId, "k-pause", "2026-12-10"), until: "2027-01-20" })).toMatchObject({ ok: true });
    await renewAndScheduleDaily(test.db, "2026-12-10", "2027-01-09");
    expect(await resumeSubscriptionNow(test.db, context(paused.id, pausedId, "k-resume", "2027-01-10"))).toMatchObject({ ok: true });
    expect(await subscriptionRow(test.db, pausedId)).toMatchObject({ nextDeliveryDate: "2027-01-11", deliveryAnchorDate: "2026-12-28" });
    await renewAndScheduleDaily(test.db, "2027-01-10", "2027-01-25");

    const datesAfter = async (subscriptionId: string) =>
      (await deliveriesOf(test.db, subscriptionId)).filter((delivery) => delivery.date > "2027-01-01").map((delivery) => delivery.date);
    // The next four, 7 days apart from the new date; the next month from 11 February, not from the stale 25th.
    expect(await datesAfter(movedId)).toEqual(["2027-01-11", "2027-01-18", "2027-01-25", "2027-02-01"]);
    expect(await subscriptionRow(test.db, movedId)).toMatchObject({ nextDeliveryDate: "2027-02-15", deliveryAnchorDate: "2027-02-11" });
    // Resumed: period 1's last two at their place in a month counted from 28 December, period 2 from 28 January.
    expect(await datesAfter(pausedId)).toEqual(["2027-01-11", "2027-01-18", "2027-02-01"]);
    expect(await subscriptionRow(test.db, pausedId)).toMatchObject({ nextDeliveryDate: "2027-02-08", deliveryAnchorDate: "2027-01-28" });
  }, 120_000);
});

describe("delivery cadence within a plan (decision 0097)", () => {
  let test: TestDatabase;
  let weekly: string;
  let biweeklyYear: string;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    weekly = await subscribeWith(test.db, "mensual", "weekly");
    biweeklyYear = await subscribeWith(test.db, "anual", "biweekly");
    // Wednesday 9 December is a national holiday (Batalla de Ayacucho): that week's delivery goes out on Friday 11.
    expect(nationalHolidayOn("2026-12-09")).not.toBeNull();
    await renewAndScheduleDaily(test.db, "2026-11-24", "2027-01-20");
  }, 240_000);
  afterAll(() => test.close());

  it("prices a weekly mensual plan as four deliveries at 95 % and bills it monthly, the same amount each month", async () => {
    const subscription = await subscriptionRow(test.db, weekly);
    expect(subscription).toMatchObject({ deliveryCadence: "weekly", baseAmountCents: 24000, amountCents: 22800, frequency: "mensual" });
    expect((await chargesOf(test.db, weekly)).map((charge) => charge.amountCents)).toEqual([22800, 22800]);
    const periods = await test.db
      .select({ billingDate: subscriptionPeriods.billingDate, status: subscriptionPeriods.status })
      .from(subscriptionPeriods)
      .where(eq(subscriptionPeriods.subscriptionId, weekly))
      .orderBy(asc(subscriptionPeriods.periodNumber));
    expect(periods).toEqual([
      { billingDate: "2026-11-23", status: "paid" },
      { billingDate: "2026-12-23", status: "paid" },
    ]);
    const periodOrders = await test.db
      .select({ subtotal: orders.subtotalCents, total: orders.totalCents, cadence: orders.deliveryCadence })
      .from(orders)
      .where(eq(orders.subscriptionId, weekly))
      .orderBy(asc(orders.createdAt));
    expect(periodOrders.every((order) => order.subtotal === 24000 && order.total === 22800 && order.cadence === "weekly")).toBe(true);
  });

  it("names the plan and its cadence in the order confirmation e-mail, as the checkout's summary does", async () => {
    const confirmationOf = async (subscriptionId: string) => {
      const [first] = await test.db
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.subscriptionId, subscriptionId))
        .orderBy(asc(orders.createdAt))
        .limit(1);
      const [email] = await test.db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.dedupeKey, `order-confirmation:${first!.id}`));
      return email!;
    };
    const weeklyEmail = await confirmationOf(weekly);
    expect(weeklyEmail.text).toContain("\nSuscripción Mensual · Entrega semanal (4 al mes)\n");
    expect(weeklyEmail.html).toContain("<strong>Suscripción Mensual · Entrega semanal (4 al mes)</strong>");
    expect((await confirmationOf(biweeklyYear)).text).toContain("\nSuscripción Anual · Entrega cada 2 semanas (2 al mes)\n");
    // The staff order page and the order's own page (its owner) read the same phrase.
    const orderId = weeklyEmail.dedupeKey.split(":")[1]!;
    expect((await findStaffOrder(test.db, orderId))?.plan).toBe("Suscripción Mensual · Entrega semanal (4 al mes)");
    expect((await findOrderReceipt(test.db, orderId, { owner: true }))?.details?.plan).toBe("Suscripción Mensual · Entrega semanal (4 al mes)");
  });

  it("delivers four times a month on the customer's weekday, anchored to the month: the fifth week has none", async () => {
    const made = await deliveriesOf(test.db, weekly);
    expect(made.map((delivery) => delivery.date)).toEqual([
      // Period 1: from the checkout's Wednesday; the holiday of 9 December moves to Friday 11 only.
      "2026-11-25",
      "2026-12-02",
      "2026-12-11",
      "2026-12-16",
      // Wednesday 23 December is the month's fifth week: no delivery. Period 2 counts from 25 December.
      "2026-12-30",
      "2027-01-06",
      "2027-01-13",
      "2027-01-20",
    ]);
    expect(made.map((delivery) => delivery.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Each period's order carries its own four deliveries.
    expect(new Set(made.slice(0, 4).map((delivery) => delivery.orderId)).size).toBe(1);
    expect(new Set(made.slice(4, 8).map((delivery) => delivery.orderId)).size).toBe(1);
    expect(made[0]!.orderId).not.toBe(made[4]!.orderId);
    // Period 3 (billed 23 January, after the last run) opens on Wednesday 27 January, a month after 25 December's anchor.
    expect(await subscriptionRow(test.db, weekly)).toMatchObject({ nextDeliveryDate: "2027-01-27", deliveryAnchorDate: "2027-01-25", deliveriesMade: 8 });
  });

  it("prices an annual plan every two weeks as 24 deliveries at 85 %, charged once", async () => {
    const subscription = await subscriptionRow(test.db, biweeklyYear);
    expect(subscription).toMatchObject({ deliveryCadence: "biweekly", baseAmountCents: 12000, amountCents: 122400, frequency: "anual" });
    expect((await chargesOf(test.db, biweeklyYear)).map((charge) => charge.amountCents)).toEqual([122400]);
    const made = await deliveriesOf(test.db, biweeklyYear);
    // 9 December (a holiday) goes out on Friday 11; the next month counts from 25 December, then 25 January.
    expect(made.map((delivery) => delivery.date)).toEqual(["2026-11-25", "2026-12-11", "2026-12-30", "2027-01-13", "2027-01-27"]);
    expect(new Set(made.map((delivery) => delivery.orderId)).size).toBe(1);
  });
});
