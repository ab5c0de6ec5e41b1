import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import type { Database } from "@server/db/index.server";
import {
  deliveries,
  invoices,
  orders,
  outboxEmails,
  paymentMethods,
  sandboxCharges,
  subscriptionEvents,
  subscriptionPeriods,
  subscriptions,
  users,
} from "@server/db/schema";
import { sandboxCardProvider, sandboxCardToken, type CardProvider } from "@server/payments/index.server";
import { activateSubscription, renewDueSubscriptions, scheduleSubscriptionDeliveries, sendRenewalReminders } from "@server/subscriptions/index.server";
import { addDays, isoWeekday, limaToday as limaDate } from "@core/lima-dates";
import { nextMonthlyDeliveryDate } from "@core/subscription-dates";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const siteUrl = "http://localhost:3000";
const start = new Date("2026-11-23T15:00:00Z"); // 10:00 in Lima, Monday 23 November 2026
const DAY = 86_400_000;

/** Noon in Lima on the given calendar date: the instant the daily job run is simulated at. */
const limaNoon = (date: string) => new Date(`${date}T17:00:00Z`);

async function newCustomer(db: Database, email: string): Promise<string> {
  const id = `user-${email}`;
  await db.insert(users).values({ id, name: "Rosa Quispe", email, emailVerified: true, firstName: "Rosa", lastName: "Quispe" });
  return id;
}

async function subscribe(db: Database, userId: string, email: string, frequency: "mensual" | "anual") {
  const placed = await placeOrder(
    db,
    checkoutInput(start, {
      purchaseType: "subscription",
      subscriptionFrequency: frequency,
      correo: email,
      items: [{ productId: 1, variantId: 1, quantity: 2 }],
      clientSubtotalCents: 6000,
    }),
    { now: start, provider: "sandbox", userId },
  );
  if (!placed.ok || placed.nextStep !== "tokenize_card") throw new Error("not placed");
  const activated = await activateSubscription(db, {
    subscriptionId: placed.subscriptionId,
    userId,
    token: sandboxCardToken({ number: "4111111111111111" }),
    cards: sandboxCardProvider(db),
    now: start,
    siteUrl,
  });
  if (!activated.ok) throw new Error("not activated");
  return placed.subscriptionId;
}

/** The daily job, day by day from `from` to `to` (inclusive), at noon Lima time. */
async function runDaily(db: Database, from: string, to: string, cards: (db: Database) => CardProvider = sandboxCardProvider) {
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const now = limaNoon(day);
    await renewDueSubscriptions(db, { now, siteUrl, cardsFor: () => cards(db) });
    await scheduleSubscriptionDeliveries(db, now);
    await sendRenewalReminders(db, now, siteUrl);
  }
}

/** The checkout's first date, then the same weekday a month later; those created by the last simulated day. */
function deliveryDatesDue(earned: number): string[] {
  const dates = ["2026-11-25"];
  while (dates.length < earned) dates.push(nextMonthlyDeliveryDate(dates.at(-1)!, [1, 3, 5]));
  return dates.filter((date) => date <= addDays("2028-01-23", 7)).map((date) => HOLIDAY_MOVES[date] ?? date);
}

/** Decision 0030: a delivery due on a holiday goes out on the district's next weekday (Miraflores: Mon/Wed/Fri). */
const HOLIDAY_MOVES: Record<string, string> = { "2027-12-08": "2027-12-10" };

const chargesOf = (db: Database, subscriptionId: string) =>
  db
    .select()
    .from(sandboxCharges)
    .where(like(sandboxCharges.chargeKey, `${subscriptionId}:%`))
    .orderBy(asc(sandboxCharges.createdAt));

describe("renewals over 14 months", () => {
  let test: TestDatabase;
  let monthly: string;
  let yearly: string;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    monthly = await subscribe(test.db, await newCustomer(test.db, "mensual@prueba.pe"), "mensual@prueba.pe", "mensual");
    yearly = await subscribe(test.db, await newCustomer(test.db, "anual@prueba.pe"), "anual@prueba.pe", "anual");
    await runDaily(test.db, "2026-11-24", "2028-01-23");
  }, 240_000);
  afterAll(() => test.close());

  it("charges mensual every month on its billing day: 15 periods, each with one order and one invoice", async () => {
    const charges = await chargesOf(test.db, monthly);
    expect(charges.map((charge) => charge.amountCents)).toEqual(Array(15).fill(5700));
    const periods = await test.db
      .select()
      .from(subscriptionPeriods)
      .where(eq(subscriptionPeriods.subscriptionId, monthly))
      .orderBy(asc(subscriptionPeriods.periodNumber));
    expect(periods.map((period) => period.billingDate)).toEqual([
      "2026-11-23",
      "2026-12-23",
      "2027-01-23",
      "2027-02-23",
      "2027-03-23",
      "2027-04-23",
      "2027-05-23",
      "2027-06-23",
      "2027-07-23",
      "2027-08-23",
      "2027-09-23",
      "2027-10-23",
      "2027-11-23",
      "2027-12-23",
      "2028-01-23",
    ]);
    expect(periods.every((period) => period.status === "paid" && period.attempts === 1)).toBe(true);
    const paidOrders = await test.db.select().from(orders).where(eq(orders.subscriptionId, monthly));
    expect(paidOrders).toHaveLength(15);
    expect(paidOrders.every((order) => order.status === "paid" && order.totalCents === 5700)).toBe(true);
    const invoiced = await test.db.select().from(invoices).innerJoin(orders, eq(orders.id, invoices.orderId)).where(eq(orders.subscriptionId, monthly));
    expect(invoiced).toHaveLength(15);
    const [subscription] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, monthly));
    expect(subscription).toMatchObject({ status: "active", nextPeriodNumber: 16, nextBillingDate: "2028-02-23" });
  });

  it("delivers once a month on the same weekday, only months already paid for", async () => {
    const made = await test.db.select().from(deliveries).where(eq(deliveries.subscriptionId, monthly)).orderBy(asc(deliveries.subscriptionSequence));
    const due = deliveryDatesDue(15);
    expect(made.map((delivery) => delivery.deliveryDate)).toEqual(due);
    expect(made.map((delivery) => delivery.subscriptionSequence)).toEqual(due.map((_, index) => index + 1));
    expect(made.every((delivery) => isoWeekday(delivery.deliveryDate) === 3 || delivery.deliveryDate === "2027-12-10")).toBe(true);
  });

  it("charges anual once a year (12 months at 85%) and still delivers every month", async () => {
    expect((await chargesOf(test.db, yearly)).map((charge) => charge.amountCents)).toEqual([61200, 61200]);
    const made = await test.db.select().from(deliveries).where(eq(deliveries.subscriptionId, yearly)).orderBy(asc(deliveries.subscriptionSequence));
    // Two paid years earn 24 deliveries; those within a week of the last simulated day exist.
    expect(made.map((delivery) => delivery.deliveryDate)).toEqual(deliveryDatesDue(24));
    const yearOrders = await test.db.select().from(orders).where(eq(orders.subscriptionId, yearly));
    expect(yearOrders).toHaveLength(2);
    // The first twelve deliveries belong to the first year's order, the next ones to the second's.
    const firstOrder = yearOrders.find((order) => order.createdAt.getTime() === start.getTime())!;
    const sequencesOfFirst = made.filter((delivery) => delivery.orderId === firstOrder.id).map((delivery) => delivery.subscriptionSequence);
    expect(sequencesOfFirst.sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it("reminds the customer once, three days before each renewal", async () => {
    const reminders = await test.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.toAddress, "mensual@prueba.pe"), eq(outboxEmails.kind, "renewal_reminder")));
    // Periods 2 to 15 renewed in the window; each was announced once.
    expect(reminders).toHaveLength(14);
    expect(reminders[0]!.text).toContain("S/ 57.00");
  });
});

describe("renewals that go wrong", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("two workers at once renew each period once", async () => {
    const id = await subscribe(test.db, await newCustomer(test.db, "dos@prueba.pe"), "dos@prueba.pe", "mensual");
    const now = limaNoon("2026-12-23");
    await Promise.all([0, 1, 2].map(() => renewDueSubscriptions(test.db, { now, siteUrl, cardsFor: () => sandboxCardProvider(test.db) })));
    expect(await chargesOf(test.db, id)).toHaveLength(2);
    expect(await test.db.select().from(orders).where(eq(orders.subscriptionId, id))).toHaveLength(2);
  });

  it("reconciles a crash between the charge and the write without charging again", async () => {
    const id = await subscribe(test.db, await newCustomer(test.db, "caida@prueba.pe"), "caida@prueba.pe", "mensual");
    // The provider charges, then the process dies before the shop writes anything.
    const crashing = (db: Database): CardProvider => {
      const real = sandboxCardProvider(db);
      return {
        ...real,
        chargeCard: async (input) => {
          await real.chargeCard(input);
          throw new Error("process killed");
        },
      };
    };
    const dueAt = limaNoon("2026-12-23");
    const first = await renewDueSubscriptions(test.db, { now: dueAt, siteUrl, cardsFor: () => crashing(test.db) });
    expect(first.unknown).toBe(1);
    const [stuck] = await test.db
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, id), eq(subscriptionPeriods.periodNumber, 2)));
    expect(stuck?.status).toBe("charging");

    // Running again at once finds the attempt in flight and does nothing; minutes later it is reconciled.
    await renewDueSubscriptions(test.db, { now: new Date(dueAt.getTime() + 1000), siteUrl, cardsFor: () => sandboxCardProvider(test.db) });
    const later = await renewDueSubscriptions(test.db, { now: new Date(dueAt.getTime() + 5 * 60_000), siteUrl, cardsFor: () => sandboxCardProvider(test.db) });
    expect(later.reconciled).toBe(1);
    expect(await chargesOf(test.db, id)).toHaveLength(2);
    const [settled] = await test.db
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, id), eq(subscriptionPeriods.periodNumber, 2)));
    expect(settled).toMatchObject({ status: "paid", attempts: 1 });
    expect(await test.db.select().from(orders).where(eq(orders.subscriptionId, id))).toHaveLength(2);
  });

  it("retries a declined renewal 3 times, 3 days apart, then pauses it as past due and never charges it again", async () => {
    const id = await subscribe(test.db, await newCustomer(test.db, "rechazo@prueba.pe"), "rechazo@prueba.pe", "mensual");
    const [subscription] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, id));
    // The customer's card now refuses every charge.
    await test.db.update(paymentMethods).set({ providerCardId: "sbx_crd_renewals_0341" }).where(eq(paymentMethods.id, subscription!.paymentMethodId!));
    await runDaily(test.db, "2026-12-20", "2027-03-31");

    const attempts = await chargesOf(test.db, id);
    expect(attempts.filter((charge) => charge.chargeKey.startsWith(`${id}:2:`)).map((charge) => [charge.chargeKey, charge.paid])).toEqual([
      [`${id}:2:1`, false],
      [`${id}:2:2`, false],
      [`${id}:2:3`, false],
      [`${id}:2:4`, false],
    ]);
    const history = await test.db.select().from(subscriptionEvents).where(eq(subscriptionEvents.subscriptionId, id)).orderBy(asc(subscriptionEvents.id));
    expect(history.filter((event) => event.kind !== "activated").map((event) => [event.kind, limaDate(event.createdAt)])).toEqual([
      ["renewal_failed", "2026-12-23"],
      ["renewal_failed", "2026-12-26"],
      ["renewal_failed", "2026-12-29"],
      ["past_due", "2027-01-01"],
    ]);
    const [period] = await test.db
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, id), eq(subscriptionPeriods.periodNumber, 2)));
    expect(period).toMatchObject({ status: "failed", attempts: 4, nextAttemptDate: null });
    const [paused] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, id));
    expect(paused?.status).toBe("past_due");
    expect(attempts).toHaveLength(5); // the first period's charge and the four attempts; nothing after

    const emails = await test.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, "rechazo@prueba.pe"));
    const failed = emails.filter((email) => email.kind === "renewal_failed");
    expect(failed.map((email) => /de nuevo el ([^.]+)\./.exec(email.text)?.[1])).toEqual([
      "sábado, 26 de diciembre",
      "martes, 29 de diciembre",
      "viernes, 1 de enero",
    ]);
    expect(emails.filter((email) => email.kind === "subscription_past_due")).toHaveLength(1);
  });

  it("never charges a paused or a cancelled subscription", async () => {
    const paused = await subscribe(test.db, await newCustomer(test.db, "pausa@prueba.pe"), "pausa@prueba.pe", "mensual");
    const cancelled = await subscribe(test.db, await newCustomer(test.db, "baja@prueba.pe"), "baja@prueba.pe", "mensual");
    await test.db.update(subscriptions).set({ status: "paused", pausedUntil: "2030-01-01" }).where(eq(subscriptions.id, paused));
    await test.db
      .update(subscriptions)
      .set({ status: "cancelled", cancelledAt: new Date(start.getTime() + DAY) })
      .where(eq(subscriptions.id, cancelled));
    await runDaily(test.db, "2026-12-01", "2027-04-30");
    expect(await chargesOf(test.db, paused)).toHaveLength(1);
    expect(await chargesOf(test.db, cancelled)).toHaveLength(1);
    expect(await test.db.select().from(deliveries).where(eq(deliveries.subscriptionId, paused))).toHaveLength(1);
  });
});
