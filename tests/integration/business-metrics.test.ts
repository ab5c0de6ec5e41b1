import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessMetrics, metricsCsv, type BusinessMetrics } from "@server/metrics/index.server";
import {
  bidonMovements,
  deliveries,
  districts,
  orders,
  payments,
  refunds,
  subscriptionPeriods,
  subscriptionStateChanges,
  subscriptions,
  users,
} from "@server/db/schema";
import { cancelSubscription, changeSubscriptionFrequency, pauseSubscription } from "@server/subscriptions/index.server";
import { parseMetricsRange, weeksOfRange } from "@core/metrics-range";
import { limaNoon, newCustomer, runJobs, siteUrl, subscribe, subscriptionRow } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Issue 11: every figure of /admin/metricas against a small fixture whose answers were worked out
 * by hand (below, next to each row). An empty database with literal dates, so nothing depends on
 * the demo data or on today. The range is Monday 4 – Tuesday 12 March 2030 (Lima), two weeks.
 * Instants near midnight check that days and weeks are Lima's (UTC−5), not UTC's.
 */
const RANGE = { from: "2030-03-04", to: "2030-03-12" };

describe("business metrics (issue 11, /admin/metricas)", () => {
  let test: TestDatabase;
  let metrics: BusinessMetrics;

  beforeAll(async () => {
    test = await createTestDatabase("empty");
    const db = test.db;
    const [miraflores, surco] = await db
      .insert(districts)
      .values([
        { ubigeo: "150122", name: "Miraflores", province: "Lima", served: true },
        { ubigeo: "150140", name: "Santiago de Surco", province: "Lima", served: true },
      ])
      .returning();
    const A = { districtId: miraflores!.id, districtName: "Miraflores" };
    const B = { districtId: surco!.id, districtName: "Santiago de Surco" };
    await db.insert(users).values([
      { id: "u1", name: "Uno", email: "uno@example.pe", firstName: "Uno", lastName: "Cliente" },
      { id: "u2", name: "Dos", email: "dos@example.pe", firstName: "Dos", lastName: "Cliente" },
    ]);

    const order = (number: string, district: typeof A, type: "one-time" | "subscription", totalCents: number, paidAt: string | null) => ({
      orderNumber: number,
      status: paidAt ? "paid" : "pending",
      orderType: type,
      customerFirstName: "Ana",
      customerLastName: "Quispe",
      customerEmail: "ana@example.pe",
      customerPhone: "+51 999 999 999",
      documentType: "dni",
      documentNumber: "12345678",
      ...district,
      address: "Av. Larco 100",
      deliveryDate: "2030-03-05",
      deliveryWindow: "manana",
      subtotalCents: totalCents,
      discountCents: 0,
      totalCents,
      paymentProvider: "sandbox",
      paidAt: paidAt ? new Date(paidAt) : null,
    });
    const placed = await db
      .insert(orders)
      .values([
        order("T-1", A, "one-time", 5000, "2030-03-04T15:00:00Z"), // Lima 4 Mar
        order("T-2", A, "one-time", 3000, "2030-03-05T04:30:00Z"), // Lima 4 Mar 23:30 (UTC says the 5th)
        order("T-3", B, "subscription", 9500, "2030-03-06T12:00:00Z"), // Lima 6 Mar
        order("T-4", B, "one-time", 2000, "2030-03-13T04:59:00Z"), // Lima 12 Mar 23:59: the last minute of the range
        order("T-5", A, "one-time", 7000, "2030-03-13T05:00:00Z"), // Lima 13 Mar 00:00: after the range
        order("T-6", A, "one-time", 4000, null), // never paid
        order("T-7", A, "one-time", 1000, "2030-03-03T12:00:00Z"), // paid before the range, refunded in it
      ])
      .returning({ id: orders.id, number: orders.orderNumber });
    const id = Object.fromEntries(placed.map((row) => [row.number, row.id])) as Record<string, string>;

    const paidWith = await db
      .insert(payments)
      .values(
        ["T-1", "T-2", "T-3", "T-7"].map((number) => ({
          orderId: id[number]!,
          provider: "sandbox",
          status: "succeeded",
          amountCents: 1,
          providerReference: number,
        })),
      )
      .returning({ id: payments.id, orderId: payments.orderId });
    const payment = (number: string) => paidWith.find((row) => row.orderId === id[number])!.id;
    const refund = (number: string, amountCents: number, reason: string, status: string, refundedAt: string | null) => ({
      paymentId: payment(number),
      orderId: id[number]!,
      provider: "sandbox",
      chargeReference: `chr_${number}_${reason}`,
      amountCents,
      reason,
      status,
      requestKey: `${number}:${reason}`,
      nextAttemptAt: new Date("2030-03-01T00:00:00Z"),
      refundedAt: refundedAt ? new Date(refundedAt) : null,
      createdAt: new Date("2030-03-01T00:00:00Z"),
      updatedAt: new Date("2030-03-01T00:00:00Z"),
    });
    await db.insert(refunds).values([
      refund("T-7", 1000, "staff_refund", "succeeded", "2030-03-07T15:00:00Z"), // −10 one-time on 7 Mar
      refund("T-3", 9500, "order_cancelled", "succeeded", "2030-03-08T15:00:00Z"), // −95 subscription on 8 Mar
      refund("T-1", 5000, "late_payment", "succeeded", "2030-03-05T15:00:00Z"), // a second charge given back: never counted
      refund("T-2", 3000, "staff_refund", "pending", null), // not given back yet
    ]);

    const delivery = (number: string, district: typeof A, date: string, status: string) => ({
      orderId: id[number]!,
      ...district,
      address: "Av. Larco 100",
      deliveryDate: date,
      deliveryWindow: "manana",
      status,
    });
    const made = await db
      .insert(deliveries)
      .values([
        delivery("T-1", A, "2030-03-05", "delivered"),
        delivery("T-3", B, "2030-03-05", "delivered"),
        delivery("T-2", A, "2030-03-10", "delivered"),
        delivery("T-6", A, "2030-03-06", "scheduled"), // not delivered
        delivery("T-5", A, "2030-03-13", "delivered"), // after the range
      ])
      .returning({ id: deliveries.id, orderId: deliveries.orderId, date: deliveries.deliveryDate });
    const deliveryOf = (number: string) => made.find((row) => row.orderId === id[number])!.id;

    // Bidones by the range's end (13 Mar 05:00 UTC): u1 2, the guest 0, u2 1 → 3 bidones with 2 customers.
    const movement = (number: string, userId: string | null, email: string, kind: "lent" | "returned", quantity: number, at: string) => ({
      deliveryId: deliveryOf(number),
      orderId: id[number]!,
      userId,
      customerEmail: email,
      kind,
      quantity,
      createdAt: new Date(at),
    });
    await db.insert(bidonMovements).values([
      movement("T-1", "u1", "uno@example.pe", "lent", 3, "2030-02-01T15:00:00Z"),
      movement("T-1", "u1", "uno@example.pe", "returned", 1, "2030-02-01T15:00:00Z"),
      movement("T-3", null, "invitado@example.pe", "lent", 2, "2030-03-05T15:00:00Z"),
      movement("T-2", null, "invitado@example.pe", "returned", 2, "2030-03-10T15:00:00Z"),
      movement("T-2", "u2", "dos@example.pe", "lent", 1, "2030-03-12T15:00:00Z"),
      movement("T-5", "u2", "dos@example.pe", "lent", 4, "2030-03-14T15:00:00Z"), // after the range
    ]);

    // Each subscription is written as its paths write it: inserted waiting for payment, then each
    // change an update stamped with the shop's clock (`updated_at`), which the history trigger
    // records (decision 0067-subscription-state-history). The columns the other figures read
    // (start_date, cancelled_at) are set where the real paths set them.
    const subscription = (number: string, frequency: "mensual" | "anual", amountCents: number, createdAt: string, billingMethod = "card") => ({
      subscriptionNumber: number,
      userId: "u1",
      status: "pending_payment",
      frequency,
      discountRateBasisPoints: frequency === "anual" ? 1500 : 500,
      baseAmountCents: amountCents,
      amountCents,
      ...A,
      address: "Av. Larco 100",
      deliveryWindow: "manana",
      billingMethod,
      createdAt: new Date(createdAt),
      updatedAt: new Date(createdAt),
    });
    const subscribed = await db
      .insert(subscriptions)
      .values([
        subscription("S1", "mensual", 5000, "2030-01-10T14:00:00Z"),
        subscription("S2", "mensual", 6000, "2030-03-05T14:00:00Z"), // new in the week of 4 Mar
        subscription("S3", "anual", 51000, "2029-06-01T14:00:00Z"), // MRR 510 / 12 = 42.50
        subscription("S4", "mensual", 5000, "2030-02-01T14:00:00Z"),
        subscription("S5", "mensual", 5000, "2030-02-15T14:00:00Z"),
        subscription("S6", "anual", 51000, "2030-01-01T14:00:00Z"),
        subscription("S7", "mensual", 5000, "2030-03-06T14:00:00Z"), // never paid: never active
        subscription("S8", "mensual", 5000, "2030-03-11T14:00:00Z"),
        subscription("S9", "mensual", 5000, "2029-12-01T14:00:00Z"),
        subscription("S10", "mensual", 4000, "2029-01-01T14:00:00Z", "payment_link"),
        subscription("S11", "mensual", 5000, "2030-03-06T14:00:00Z"), // its checkout expired unpaid: closed as cancelled
        subscription("S12", "mensual", 5700, "2030-01-20T14:00:00Z"),
      ])
      .returning({ id: subscriptions.id, number: subscriptions.subscriptionNumber });
    const change = (number: string, at: string, set: Partial<typeof subscriptions.$inferInsert>) =>
      db
        .update(subscriptions)
        .set({ ...set, updatedAt: new Date(at) })
        .where(eq(subscriptions.subscriptionNumber, number));
    const activate = (number: string, startDate: string) => change(number, `${startDate}T15:00:00Z`, { status: "active", startDate });
    await activate("S10", "2029-01-01");
    await activate("S3", "2029-06-01");
    await change("S10", "2029-12-01T15:00:00Z", { status: "cancelled", cancelledAt: new Date("2029-12-01T15:00:00Z") });
    await activate("S9", "2029-12-01");
    await activate("S6", "2030-01-01");
    await activate("S1", "2030-01-10");
    await activate("S12", "2030-01-20");
    await activate("S4", "2030-02-01");
    await activate("S5", "2030-02-15");
    await change("S5", "2030-03-01T15:00:00Z", { status: "cancelled", cancelledAt: new Date("2030-03-01T15:00:00Z") }); // gone before the range
    // The range: week of Monday 4 March.
    await activate("S2", "2030-03-05");
    await change("S3", "2030-03-05T12:00:00Z", { status: "paused", pausedUntil: "2030-03-12" }); // paused in the range…
    await change("S9", "2030-03-08T17:00:00Z", { status: "past_due" });
    // Lima Sunday 10 March 23:00: S4 asks to cancel; it stays active until its paid period ends.
    await change("S4", "2030-03-11T04:00:00Z", { cancelledAt: new Date("2030-03-11T04:00:00Z"), endsOn: "2030-03-12" });
    // Lima Sunday 10 March 23:30: S1's renewal applies a parked catalogue price (S/ 50 → S/ 55).
    await change("S1", "2030-03-11T04:30:00Z", { amountCents: 5500, baseAmountCents: 5500 });
    // Week of Monday 11 March. Lima Monday 00:00 exactly: S6's pause starts (so it is active on Sunday night).
    await change("S6", "2030-03-11T05:00:00Z", { status: "paused", pausedUntil: "2030-04-01" });
    await activate("S8", "2030-03-11");
    await change("S3", "2030-03-12T05:00:00Z", { status: "active", pausedUntil: null }); // …and resumed by itself at Lima midnight
    await change("S4", "2030-03-12T05:05:00Z", { status: "cancelled" }); // the cancellation takes effect
    await change("S8", "2030-03-12T12:00:00Z", { status: "cancelled", cancelledAt: new Date("2030-03-12T12:00:00Z") }); // new and cancelled in the week of 11 Mar
    await change("S11", "2030-03-12T13:00:00Z", { status: "cancelled", cancelledAt: new Date("2030-03-12T13:00:00Z") }); // never started: not a cancellation
    // Lima 12 March 10:00: S12's renewal moves it to the anual plan it asked for (12 × 85 % of its base).
    await change("S12", "2030-03-12T15:00:00Z", { frequency: "anual", amountCents: 61150, discountRateBasisPoints: 1500 });
    // After the range: not counted.
    await change("S2", "2030-03-13T05:00:00Z", { status: "paused", pausedUntil: "2030-04-01" });
    const sub = Object.fromEntries(subscribed.map((row) => [row.number, row.id])) as Record<string, string>;
    const period = (number: string, periodNumber: number, billingDate: string, status: string, attempts: number) => ({
      subscriptionId: sub[number]!,
      periodNumber,
      billingDate,
      status,
      attempts,
      amountCents: 5000,
    });
    await db.insert(subscriptionPeriods).values([
      period("S1", 3, "2030-03-10", "paid", 1), // paid at the first try: no failure
      period("S9", 4, "2030-03-06", "failed", 4), // failed, never recovered
      period("S6", 2, "2030-03-07", "paid", 3), // failed twice, paid at the third: recovered
      period("S4", 2, "2030-03-08", "paid", 5), // paid after the automatic retries (a later card update): failed, not recovered
      period("S3", 2, "2030-03-11", "charging", 2), // failed once, retry under way: failed, not (yet) recovered
      period("S1", 2, "2030-02-10", "paid", 2), // billed before the range
      period("S2", 1, "2030-03-05", "failed", 1), // the checkout's own period, not a renewal
      period("S10", 5, "2030-03-09", "failed", 4), // paid by link, not a card renewal
    ]);

    metrics = await businessMetrics(db, RANGE);
  });
  afterAll(() => test.close());

  it("sums revenue per Lima day by type, net of the refunds of counted orders, and counts paid orders and deliveries", () => {
    const nonZero = metrics.days.filter((day) => day.oneTimeCents || day.subscriptionCents || day.refundedCents || day.orders || day.deliveries);
    expect(metrics.days).toHaveLength(9);
    expect(metrics.days[0]!.date).toBe("2030-03-04");
    expect(metrics.days.at(-1)!.date).toBe("2030-03-12");
    expect(nonZero).toEqual([
      { date: "2030-03-04", oneTimeCents: 8000, subscriptionCents: 0, refundedCents: 0, orders: 2, deliveries: 0 },
      { date: "2030-03-05", oneTimeCents: 0, subscriptionCents: 0, refundedCents: 0, orders: 0, deliveries: 2 },
      { date: "2030-03-06", oneTimeCents: 0, subscriptionCents: 9500, refundedCents: 0, orders: 1, deliveries: 0 },
      { date: "2030-03-07", oneTimeCents: -1000, subscriptionCents: 0, refundedCents: 1000, orders: 0, deliveries: 0 },
      { date: "2030-03-08", oneTimeCents: 0, subscriptionCents: -9500, refundedCents: 9500, orders: 0, deliveries: 0 },
      { date: "2030-03-10", oneTimeCents: 0, subscriptionCents: 0, refundedCents: 0, orders: 0, deliveries: 1 },
      { date: "2030-03-12", oneTimeCents: 2000, subscriptionCents: 0, refundedCents: 0, orders: 1, deliveries: 0 },
    ]);
    expect(metrics.totals).toEqual({
      netCents: 9000,
      oneTimeCents: 9000,
      subscriptionCents: 0,
      grossCents: 19500,
      refundedCents: 10500,
      orders: 4,
      deliveries: 3,
      averageOrderCents: 4875, // 195.00 / 4
    });
  });

  it("counts paid orders and deliveries per district", () => {
    expect(metrics.districts.map(({ name, orders: placed, deliveries: delivered }) => ({ name, placed, delivered }))).toEqual([
      { name: "Miraflores", placed: 2, delivered: 2 },
      { name: "Santiago de Surco", placed: 2, delivered: 1 },
    ]);
  });

  it("counts the subscriptions active by plan and their MRR at the end of each week and of the range, from their history", () => {
    // End of Sunday 10 March (Lima): mensual S1 (S/ 55 since 23:30 that night), S2, S4 (cancellation
    // asked, not yet effective), S12 = 4, S/ 222.00; anual S6 (paused only from Monday 00:00) = 1,
    // 510 / 12 = S/ 42.50. S3 is paused, S9 past due, S5 and S10 gone, S7, S8 and S11 never active.
    const week1 = {
      monday: "2030-03-04",
      asOf: "2030-03-10",
      plans: [
        { plan: "mensual", active: 4, periodCents: 22200, mrrCents: 22200 },
        { plan: "anual", active: 1, periodCents: 51000, mrrCents: 4250 },
      ],
      mrrCents: 26450,
    };
    // End of Tuesday 12 March, the range's last day: mensual S1, S2 = 2, S/ 115.00; anual S3 (resumed
    // at 00:00) and S12 (moved to anual at its renewal) = 2, (510 + 611.50) / 12 = 93.458… → S/ 93.46.
    // S4 and S8 have ended, S6 is paused; S2's pause after the range does not count.
    const week2 = {
      monday: "2030-03-11",
      asOf: "2030-03-12",
      plans: [
        { plan: "mensual", active: 2, periodCents: 11500, mrrCents: 11500 },
        { plan: "anual", active: 2, periodCents: 112150, mrrCents: 9346 },
      ],
      mrrCents: 20846,
    };
    expect(metrics.activeWeeks).toEqual([week1, week2]);
    expect(metrics.plans).toEqual(week2.plans);
    expect(metrics.mrrCents).toBe(20846);
  });

  it("takes a week's figures at its Sunday's Lima midnight even when the range ends later", async () => {
    // 4–11 March: the first week ends on Sunday 10 March, the second point is Monday 11 March's end
    // (S6 paused, S8 new, S3 still paused, S4 not yet ended, S12 still mensual).
    const shorter = await businessMetrics(test.db, { from: "2030-03-04", to: "2030-03-11" });
    expect(shorter.activeWeeks.map(({ asOf, plans, mrrCents }) => ({ asOf, active: plans.map((plan) => plan.active), mrrCents }))).toEqual([
      { asOf: "2030-03-10", active: [4, 1], mrrCents: 26450 },
      { asOf: "2030-03-11", active: [5, 0], mrrCents: 27200 },
    ]);
  });

  it("counts new and cancelled subscriptions per Lima week, and the churn of the subscribers at the start", () => {
    expect(metrics.weeks).toEqual([
      { monday: "2030-03-04", started: 1, cancelled: 1 },
      { monday: "2030-03-11", started: 1, cancelled: 1 },
    ]);
    // At the start: S1, S3, S4, S6, S9, S12 (S5 and S10 had left, S2/S8 came later, S7 and S11 never
    // started); S4 left in the range. S11's abandoned checkout is not a cancellation.
    expect(metrics.churn).toEqual({ subscribersAtStart: 6, cancelled: 1, rate: 1 / 6 });
  });

  it("measures the failed-payment recovery of the card renewals billed in the range", () => {
    expect(metrics.recovery).toEqual({ failed: 4, recovered: 1, rate: 0.25 });
  });

  it("counts the bidones still out at the end of the range and who holds them", () => {
    expect(metrics.bidones).toEqual({ outstanding: 3, customers: 2 });
  });

  it("writes each table as a UTF-8 CSV with a byte order mark, comma-separated like the order export", () => {
    const days = metricsCsv(metrics, "dias");
    expect(days.startsWith("\uFEFFFecha,Compras únicas netas (S/),")).toBe(true);
    const lines = days.slice(1).split("\r\n");
    expect(lines).toHaveLength(1 + 9 + 1); // header, nine days, the empty string after the last CRLF
    expect(lines[1]).toBe("2030-03-04,80.00,0.00,0.00,80.00,2,0");
    expect(lines[4]).toBe("2030-03-07,-10.00,0.00,10.00,-10.00,0,0");
    expect(metricsCsv(metrics, "planes")).toContain("Anual,2,1121.50,93.46\r\n");
    expect(metricsCsv(metrics, "activas").slice(1).split("\r\n")).toEqual([
      "Semana (lunes),Al cierre del,Activas mensual,Activas anual,Cobro por periodo mensual (S/),Cobro por periodo anual (S/),MRR mensual (S/),MRR anual (S/),MRR (S/)",
      "2030-03-04,2030-03-10,4,1,222.00,510.00,222.00,42.50,264.50",
      "2030-03-11,2030-03-12,2,2,115.00,1121.50,115.00,93.46,208.46",
      "",
    ]);
    expect(metricsCsv(metrics, "distritos")).toContain("Santiago de Surco,2,1\r\n");
    expect(metricsCsv(metrics, "semanas")).toContain("2030-03-11,1,1\r\n");
    const summary = metricsCsv(metrics, "resumen");
    for (const line of [
      "Ticket promedio (S/),48.75",
      "Suscripciones activas al cierre,4",
      "MRR al cierre (S/),208.46",
      "Tasa de cancelación (%),16.67",
      "Tasa de recuperación (%),25.00",
      "Bidones por devolver,3",
    ])
      expect(summary).toContain(`${line}\r\n`);
  });

  it("answers zero, not an error, for a range without activity", async () => {
    const empty = await businessMetrics(test.db, { from: "2031-01-01", to: "2031-01-02" });
    expect(empty.totals.averageOrderCents).toBeNull();
    expect(empty.recovery.rate).toBeNull();
    expect(empty.days.map((day) => day.orders)).toEqual([0, 0]);
    expect(metricsCsv(empty, "resumen")).toContain("Ticket promedio (S/),\r\n");
  });
});

/**
 * Decision 0067-subscription-state-history: the shop's own paths leave the history the metrics read,
 * each change at the shop's clock, including the silent ones (a renewal moving to the plan asked
 * for). Fixture: subscribed Monday 23 November 2026 10:00 Lima, S/ 60.00 of products a month.
 */
describe("the history of a subscription's state", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("records activation, pause, resume and the plan change at renewal, each when it happened", async () => {
    const db = test.db;
    const customer = await newCustomer(db, "historial");
    const subscriptionId = await subscribe(db, customer, "mensual");
    const as = (now: Date) => ({ userId: customer.id, subscriptionId, requestKey: randomUUID(), now, siteUrl });
    expect((await changeSubscriptionFrequency(db, { ...as(limaNoon("2026-11-24")), frequency: "anual" })).ok).toBe(true);
    // Lima 24 November 23:30, until the 28th, when the daily jobs resume it.
    expect((await pauseSubscription(db, { ...as(new Date("2026-11-25T04:30:00Z")), until: "2026-11-28" })).ok).toBe(true);
    await runJobs(db, "2026-11-28", "2026-11-28");
    await runJobs(db, "2026-12-23", "2026-12-23");
    // A cancellation asked for takes effect at the end of the paid year: nothing changes yet.
    expect((await cancelSubscription(db, { ...as(limaNoon("2026-12-24")), reason: "precio", detail: "" })).ok).toBe(true);

    const history = await db
      .select()
      .from(subscriptionStateChanges)
      .where(eq(subscriptionStateChanges.subscriptionId, subscriptionId))
      .orderBy(asc(subscriptionStateChanges.changedAt), asc(subscriptionStateChanges.id));
    // Each row: when, the state it moved to, and the one it moved from.
    expect(
      history.map((row) => [
        row.changedAt.toISOString(),
        row.status,
        row.frequency,
        row.amountCents,
        row.previousStatus,
        row.previousFrequency,
        row.previousAmountCents,
      ]),
    ).toEqual([
      ["2026-11-23T15:00:00.000Z", "pending_payment", "mensual", 5700, null, null, null],
      ["2026-11-23T15:00:00.000Z", "active", "mensual", 5700, "pending_payment", "mensual", 5700],
      ["2026-11-25T04:30:00.000Z", "paused", "mensual", 5700, "active", "mensual", 5700],
      ["2026-11-28T17:00:00.000Z", "active", "mensual", 5700, "paused", "mensual", 5700],
      // The renewal of 23 December starts the anual plan asked for on the 24th of November: no customer event says so.
      ["2026-12-23T17:00:00.000Z", "active", "anual", 61200, "active", "mensual", 5700],
    ]);
    const now = await subscriptionRow(db, subscriptionId);
    expect(history.at(-1)).toMatchObject({ status: now.status, frequency: now.frequency, amountCents: now.amountCents });
  });

  it("never records a change before the subscription's previous one, whatever clock its writer read", async () => {
    const db = test.db;
    const subscriptionId = await subscribe(db, await newCustomer(db, "reloj"), "mensual");
    const stamped = (at: string, status: string) =>
      db
        .update(subscriptions)
        .set({ status, updatedAt: new Date(at) })
        .where(eq(subscriptions.id, subscriptionId));
    await stamped("2026-11-26T15:00:00Z", "paused");
    // A second process whose `now` was read before the first committed.
    await stamped("2026-11-26T14:59:59Z", "active");
    const history = await db
      .select({ changedAt: subscriptionStateChanges.changedAt, status: subscriptionStateChanges.status })
      .from(subscriptionStateChanges)
      .where(eq(subscriptionStateChanges.subscriptionId, subscriptionId))
      .orderBy(asc(subscriptionStateChanges.id));
    expect(history.slice(-2).map((row) => [row.changedAt.toISOString(), row.status])).toEqual([
      ["2026-11-26T15:00:00.000Z", "paused"],
      ["2026-11-26T15:00:00.000Z", "active"],
    ]);
  });
});

describe("the date range of /admin/metricas", () => {
  // 04:00 UTC on 13 March is still the 12th in Lima.
  const now = new Date("2030-03-13T04:00:00Z");
  const parse = (query: string) => parseMetricsRange(new URLSearchParams(query), now);

  it("defaults to the last 30 Lima days, today included", () => {
    expect(parse("")).toEqual({ ok: true, range: { from: "2030-02-11", to: "2030-03-12" }, raw: { desde: "2030-02-11", hasta: "2030-03-12" } });
    expect(parse("desde=2030-01-01")).toMatchObject({ ok: true, range: { from: "2030-01-01", to: "2030-01-30" } });
  });

  it("refuses what is not a range, in Spanish, keeping what was typed", () => {
    expect(parse("desde=2030-02-30&hasta=2030-03-01")).toEqual({
      ok: false,
      raw: { desde: "2030-02-30", hasta: "2030-03-01" },
      errors: { desde: "Usa una fecha válida (AAAA-MM-DD)" },
    });
    expect(parse("desde=2030-03-05&hasta=2030-03-01")).toMatchObject({ ok: false, errors: { hasta: "La fecha final es anterior a la inicial" } });
    expect(parse("desde=2029-01-01&hasta=2030-03-01")).toMatchObject({ ok: false, errors: { hasta: "Elige un rango de 366 días como máximo" } });
    expect(parse("desde=2029-03-01&hasta=2030-03-01")).toMatchObject({ ok: true });
  });

  it("lists the Mondays of the weeks a range touches", () => {
    expect(weeksOfRange({ from: "2030-03-06", to: "2030-03-18" })).toEqual(["2030-03-04", "2030-03-11", "2030-03-18"]);
  });
});
