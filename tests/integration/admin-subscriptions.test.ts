import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import type { Database } from "@server/db/index.server";
import {
  deliveries,
  outboxEmails,
  paymentMethods,
  staffActions,
  subscriptionEvents,
  subscriptionItems,
  subscriptionPeriods,
  subscriptions,
  users,
} from "@server/db/schema";
import { rescheduleDay, setDefaultCapacities } from "@server/deliveries/index.server";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-accounts";
import { sandboxCardProvider } from "@server/payments/index.server";
import { applySandboxAction } from "@server/order-flows/index.server";
import {
  cancelSubscription,
  changeBillingMethod,
  changeNextDeliveryDate,
  changeSubscriptionFrequency,
  changeSubscriptionProducts,
  chargeUnpaidPeriodNow,
  findSubscriptionForStaff,
  listFailedPayments,
  loadSelfServiceOptions,
  pauseSubscription,
  resumeSubscriptionNow,
  searchStaffSubscriptions,
  skipNextDelivery,
  subscriptionForecast,
  type SelfServiceContext,
  type SubscriptionForecast,
} from "@server/subscriptions/index.server";
import { addDays } from "@core/lima-dates";
import { parseStaffSubscriptionFilters } from "@core/staff-subscription-filters";
import { checkoutInput } from "../support/checkout-fixture";
import { changeEmails, chargesOf, limaNoon, newCustomer, runJobs, siteUrl, start, subscribe, subscriptionRow } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let test: TestDatabase;
let db: Database;
let staff: StaffActor;
beforeAll(async () => {
  test = await createTestDatabase("seeded");
  db = test.db;
  const [member] = await db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
  staff = { id: member!.id, email: member!.email, role: "operaciones", clientAddress: "127.0.0.1" };
});
afterAll(() => test.close());

const MIRAFLORES = 22;
const search = (query: string, page = 1, pageSize?: number) =>
  searchStaffSubscriptions(db, parseStaffSubscriptionFilters(new URLSearchParams(query)), { page, ...(pageSize ? { pageSize } : {}) });

describe("the staff list: filters and search in SQL", () => {
  it("narrows by search, status, plan, district, billing method and next charge dates, one page at a time", async () => {
    const prefix = `filtros${randomUUID().slice(0, 6)}`;
    const monthly = await newCustomer(db, prefix);
    const paused = await newCustomer(db, prefix);
    const yearly = await newCustomer(db, prefix);
    const monthlyId = await subscribe(db, monthly, "mensual");
    const pausedId = await subscribe(db, paused, "mensual");
    const yearlyId = await subscribe(db, yearly, "anual");
    const as = (userId: string, subscriptionId: string): SelfServiceContext => ({ userId, subscriptionId, requestKey: randomUUID(), now: start, siteUrl });
    expect((await pauseSubscription(db, { ...as(paused.id, pausedId), until: addDays("2026-11-23", 20) })).ok).toBe(true);
    expect((await changeBillingMethod(db, { ...as(monthly.id, monthlyId), method: "payment_link" })).ok).toBe(true);

    const ids = async (query: string) => (await search(query)).rows.map((row) => row.id).sort();
    expect(await ids(`q=${prefix}`)).toEqual([monthlyId, pausedId, yearlyId].sort());
    expect(await ids(`q=${monthly.email}`)).toEqual([monthlyId]);
    expect(await ids(`q=${prefix}&estado=paused`)).toEqual([pausedId]);
    expect(await ids(`q=${prefix}&plan=anual`)).toEqual([yearlyId]);
    expect(await ids(`q=${prefix}&cobro=payment_link`)).toEqual([monthlyId]);
    expect(await ids(`q=${prefix}&distrito=${MIRAFLORES}`)).toHaveLength(3);
    expect(await ids(`q=${prefix}&distrito=${MIRAFLORES + 1}`)).toEqual([]);
    // Monthly ones next charge on 23 Dec 2026, the yearly one on 23 Nov 2027.
    expect(await ids(`q=${prefix}&desde=2026-12-01&hasta=2026-12-31`)).toEqual([monthlyId, pausedId].sort());
    expect(await ids(`q=${prefix}&desde=2027-11-01`)).toEqual([yearlyId]);
    const { subscriptionNumber } = await subscriptionRow(db, yearlyId);
    expect(await ids(`q=${subscriptionNumber}`)).toEqual([yearlyId]);
    expect(await ids(`q=${yearlyId}`)).toEqual([yearlyId]);

    const firstPage = await search(`q=${prefix}`, 1, 2);
    const secondPage = await search(`q=${prefix}`, 2, 2);
    expect(firstPage.total).toBe(3);
    expect(firstPage.rows).toHaveLength(2);
    expect(secondPage.rows).toHaveLength(1);
    expect(new Set([...firstPage.rows, ...secondPage.rows].map((row) => row.id)).size).toBe(3);
  });

  it("shows the detail's ledger, deliveries and history, and an unknown id is not found", async () => {
    const customer = await newCustomer(db);
    const subscriptionId = await subscribe(db, customer, "mensual");
    const detail = await findSubscriptionForStaff(db, subscriptionId, start);
    expect(detail?.customer.email).toBe(customer.email);
    expect(detail?.deliveries.map((row) => row.deliveryDate)).toEqual(["2026-11-25"]);
    expect(detail?.payments.length).toBeGreaterThan(0);
    expect(await findSubscriptionForStaff(db, randomUUID())).toBeNull();
    expect(await findSubscriptionForStaff(db, "no-es-un-id")).toBeNull();
  });
});

describe("on the customer's behalf, through the self-service domain", () => {
  async function subscriber() {
    const customer = await newCustomer(db);
    const subscriptionId = await subscribe(db, customer, "mensual");
    const byStaff = (now = start, requestKey = randomUUID()): SelfServiceContext => ({ userId: customer.id, subscriptionId, requestKey, now, siteUrl, staff });
    return { customer, subscriptionId, byStaff };
  }
  const auditOf = (subscriptionId: string) => db.select().from(staffActions).where(eq(staffActions.entityId, subscriptionId)).orderBy(asc(staffActions.id));
  const staffEvents = (subscriptionId: string) =>
    db
      .select()
      .from(subscriptionEvents)
      .where(and(eq(subscriptionEvents.subscriptionId, subscriptionId), eq(subscriptionEvents.actor, "staff")))
      .orderBy(asc(subscriptionEvents.id));

  /** One audit row by this staff member, one history entry saying our team did it, one e-mail saying so. */
  async function expectRecorded(subscriptionId: string, action: string, count: number) {
    const audit = await auditOf(subscriptionId);
    expect(audit.map((row) => row.action)).toHaveLength(count);
    expect(audit.at(-1)).toMatchObject({ action: `subscription.${action}`, entityType: "subscription", actorEmail: staff.email, actorRole: "operaciones" });
    const events = await staffEvents(subscriptionId);
    expect(events).toHaveLength(count);
    expect(events.at(-1)!.description).toContain("nuestro equipo");
    const emails = await changeEmails(db, subscriptionId);
    expect(emails).toHaveLength(count);
    expect(emails.at(-1)!.text).toContain("nuestro equipo");
  }

  it("skips the next delivery: audited, in the customer's history, one e-mail, and a double click applies once", async () => {
    const { subscriptionId, byStaff } = await subscriber();
    const context = byStaff();
    const first = await skipNextDelivery(db, context);
    const again = await skipNextDelivery(db, context);
    expect(first.ok && !first.alreadyApplied).toBe(true);
    expect(again.ok && again.alreadyApplied).toBe(true);
    await expectRecorded(subscriptionId, "skip", 1);
    expect((await subscriptionRow(db, subscriptionId)).nextBillingDate).toBe("2027-01-23");
    const [audit] = await auditOf(subscriptionId);
    expect(audit!.before).toMatchObject({ nextBillingDate: "2026-12-23" });
    expect(audit!.after).toMatchObject({ nextBillingDate: "2027-01-23" });
  });

  it("changes the date, the products and the plan, pauses, resumes and cancels, each audited", async () => {
    const { customer, subscriptionId, byStaff } = await subscriber();
    const options = await loadSelfServiceOptions(db, customer.id, subscriptionId, start);
    const date = options!.deliveryDates[0]!;
    expect((await changeNextDeliveryDate(db, { ...byStaff(), date })).ok).toBe(true);
    await expectRecorded(subscriptionId, "date", 1);
    expect((await subscriptionRow(db, subscriptionId)).nextDeliveryDate).toBe(date);

    expect((await changeSubscriptionProducts(db, { ...byStaff(), lines: [{ productId: 1, variantId: 1, quantity: 3 }] })).ok).toBe(true);
    await expectRecorded(subscriptionId, "products", 2);
    expect((await subscriptionRow(db, subscriptionId)).baseAmountCents).toBe(9000);

    expect((await changeSubscriptionFrequency(db, { ...byStaff(), frequency: "anual" })).ok).toBe(true);
    await expectRecorded(subscriptionId, "frequency", 3);
    expect((await subscriptionRow(db, subscriptionId)).pendingFrequency).toBe("anual");

    expect((await pauseSubscription(db, { ...byStaff(), until: "2026-12-10" })).ok).toBe(true);
    await expectRecorded(subscriptionId, "pause", 4);
    expect((await subscriptionRow(db, subscriptionId)).status).toBe("paused");

    expect((await resumeSubscriptionNow(db, byStaff())).ok).toBe(true);
    await expectRecorded(subscriptionId, "resume", 5);
    expect((await subscriptionRow(db, subscriptionId)).status).toBe("active");

    expect((await cancelSubscription(db, { ...byStaff(), reason: "precio", detail: "" })).ok).toBe(true);
    await expectRecorded(subscriptionId, "cancel", 6);
    expect((await subscriptionRow(db, subscriptionId)).endsOn).toBe("2026-12-23");
  });

  it("a refused change writes no audit row", async () => {
    const { subscriptionId, byStaff } = await subscriber();
    const refused = await changeSubscriptionFrequency(db, { ...byStaff(), frequency: "mensual" });
    expect(refused.ok).toBe(false);
    expect(await auditOf(subscriptionId)).toEqual([]);
  });
});

describe("Cobrar ahora", () => {
  it("charges a past-due period once through renewals: a double click and a second request charge nothing more", async () => {
    const customer = await newCustomer(db);
    const subscriptionId = await subscribe(db, customer, "mensual");
    const { paymentMethodId } = await subscriptionRow(db, subscriptionId);
    const [method] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, paymentMethodId!));
    await db
      .update(paymentMethods)
      .set({ providerCardId: `sbx_crd_${randomUUID()}_0341` })
      .where(eq(paymentMethods.id, paymentMethodId!));
    // 23 Dec and three retries 3 days apart, all declined: past due after the fourth.
    await runJobs(db, "2026-12-23", "2027-01-01");
    expect((await subscriptionRow(db, subscriptionId)).status).toBe("past_due");
    const queue = await listFailedPayments(db);
    expect(queue.rows.find((row) => row.subscriptionId === subscriptionId)).toMatchObject({ attempts: 4, maxAttempts: 4, nextAttemptDate: null });
    // The customer's bank now approves.
    await db.update(paymentMethods).set({ providerCardId: method!.providerCardId }).where(eq(paymentMethods.id, paymentMethodId!));
    const chargesBefore = (await chargesOf(db, subscriptionId)).length;

    const now = limaNoon("2027-01-02");
    const click = { userId: customer.id, subscriptionId, requestKey: randomUUID(), now, siteUrl, staff, cardsFor: () => sandboxCardProvider(db) };
    const [first, second] = await Promise.all([chargeUnpaidPeriodNow(db, click), chargeUnpaidPeriodNow(db, click)]);
    const answers = [first, second].map((result) => (result.ok ? (result.alreadyApplied ? "repeat" : result.charge) : result.reason)).sort();
    expect(answers).toEqual(["paid", "repeat"]);
    const another = await chargeUnpaidPeriodNow(db, { ...click, requestKey: randomUUID() });
    expect(another).toMatchObject({ ok: false, message: "Esta suscripción no tiene un cobro pendiente." });

    const charges = await chargesOf(db, subscriptionId);
    expect(charges).toHaveLength(chargesBefore + 1);
    const row = await subscriptionRow(db, subscriptionId);
    expect(row.status).toBe("active");
    const [period] = await db
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscriptionId), eq(subscriptionPeriods.periodNumber, 2)));
    expect(period).toMatchObject({ status: "paid", attempts: 5, chargeKey: `${subscriptionId}:2:5` });
    const audit = await db.select().from(staffActions).where(eq(staffActions.entityId, subscriptionId));
    expect(audit.map((entry) => entry.action)).toEqual(["subscription.charge-now"]);
    expect((await listFailedPayments(db)).rows.some((entry) => entry.subscriptionId === subscriptionId)).toBe(false);
  });
});

describe("the forecast", () => {
  /** What the fixture below adds to the forecast, day by day: the demo data's own subscriptions cancel out. */
  function added(before: SubscriptionForecast, after: SubscriptionForecast) {
    return after.days
      .map((day, index) => {
        const was = before.days[index]!;
        const units = day.units
          .map((line) => ({
            key: `${line.productId}:${line.variantId ?? ""}`,
            units: line.units - (was.units.find((each) => each.productId === line.productId && each.variantId === line.variantId)?.units ?? 0),
          }))
          .filter((line) => line.units !== 0);
        return { date: day.date, charges: day.charges - was.charges, chargeCents: day.chargeCents - was.chargeCents, units };
      })
      .filter((day) => day.charges !== 0 || day.units.length > 0);
  }

  it("counts charges (count and soles) and units per day for 30 days, as worked out by hand", async () => {
    const december = limaNoon("2026-12-20");
    const before = { start: await subscriptionForecast(db, { now: start, days: 30 }), december: await subscriptionForecast(db, { now: december, days: 30 }) };
    const people = await Promise.all(["a", "b", "c", "d", "e"].map(() => newCustomer(db, "pronostico")));
    const ids: string[] = [];
    for (const [index, person] of people.entries()) ids.push(await subscribe(db, person, index === 1 ? "anual" : "mensual"));
    const as = (index: number): SelfServiceContext => ({
      userId: people[index]!.id,
      subscriptionId: ids[index]!,
      requestKey: randomUUID(),
      now: start,
      siteUrl,
    });
    expect((await changeSubscriptionFrequency(db, { ...as(2), frequency: "anual" })).ok).toBe(true);
    expect((await skipNextDelivery(db, as(3))).ok).toBe(true);
    expect((await cancelSubscription(db, { ...as(4), reason: "precio", detail: "" })).ok).toBe(true);

    // From 23 Nov: the first deliveries (2 × Pack x12 each, on Wednesday 25 Nov) but the skipped
    // one's (issue 41: the skip took the delivery shown next); the next charges (23 Dec) fall on day 31.
    expect(added(before.start, await subscriptionForecast(db, { now: start, days: 30 }))).toEqual([
      { date: "2026-11-25", charges: 0, chargeCents: 0, units: [{ key: "1:1", units: 8 }] },
    ]);
    // From 20 Dec: on 23 Dec a monthly charge of S/ 57.00 (95% of S/ 60) and one at the yearly price
    // its pending change takes (12 × S/ 60 × 85% = S/ 612.00); the skipped one's charge moved to
    // January and the cancelled one ends that day. On Wednesday 30 Dec the monthly, yearly,
    // plan-changing and skipping subscriptions' deliveries (the skipped one's paid delivery comes
    // then): 4 × 2 packs; the cancelled one's ended.
    const after = await subscriptionForecast(db, { now: december, days: 30 });
    expect(added(before.december, after)).toEqual([
      { date: "2026-12-23", charges: 2, chargeCents: 5700 + 61200, units: [] },
      { date: "2026-12-30", charges: 0, chargeCents: 0, units: [{ key: "1:1", units: 8 }] },
    ]);
    expect(after.from).toBe("2026-12-20");
    expect(after.to).toBe("2027-01-18");
    expect(after.days).toHaveLength(30);
  });

  it("counts each of a weekly plan's deliveries in the window, not only its next one, and none from the end of a cancellation (decision 0097)", async () => {
    const before = await subscriptionForecast(db, { now: start, days: 30 });
    await subscribe(db, await newCustomer(db, "semanal"), "mensual", "4111111111111111", "weekly");
    const ending = await subscribe(db, await newCustomer(db, "semanal-fin"), "mensual", "4111111111111111", "weekly");
    await db.update(subscriptions).set({ endsOn: "2026-12-10" }).where(eq(subscriptions.id, ending));
    // From 23 Nov to 22 Dec: both first deliveries (created at checkout) on 25 Nov, then the weekly
    // plan's 2, 9 (its wanted date: the claim moves it when it is created) and 16 Dec, 2 packs each;
    // the ending one's up to 9 Dec. The month's fifth week (23 Dec) has none; its charge is day 31.
    expect(added(before, await subscriptionForecast(db, { now: start, days: 30 }))).toEqual([
      { date: "2026-11-25", charges: 0, chargeCents: 0, units: [{ key: "1:1", units: 4 }] },
      { date: "2026-12-02", charges: 0, chargeCents: 0, units: [{ key: "1:1", units: 4 }] },
      { date: "2026-12-09", charges: 0, chargeCents: 0, units: [{ key: "1:1", units: 4 }] },
      { date: "2026-12-16", charges: 0, chargeCents: 0, units: [{ key: "1:1", units: 2 }] },
    ]);
  });

  it("counts a second charge of the same subscription in a window over a short month, by the renewals' clamped billing dates", async () => {
    // From Sunday 31 January 2027, 30 days: to Monday 1 March (February has 28 days).
    const now = limaNoon("2027-01-31");
    const before = await subscriptionForecast(db, { now, days: 30 });
    const people = await Promise.all(["a", "b", "c", "d", "e", "f"].map(() => newCustomer(db, "corto")));
    const ids: string[] = [];
    for (const [index, person] of people.entries()) ids.push(await subscribe(db, person, index === 3 ? "anual" : "mensual"));
    const [billedFirst, billed31, late, yearly, ending, repriced] = ids as [string, string, string, string, string, string];
    // Each one's next billing date (period 2, no ledger row yet) as the renewals would have left it.
    const nextBilling = async (id: string, date: string, endsOn: string | null = null) =>
      db.update(subscriptions).set({ nextBillingDate: date, endsOn }).where(eq(subscriptions.id, id));
    await nextBilling(billedFirst, "2027-02-01");
    await nextBilling(billed31, "2027-01-31");
    await nextBilling(late, "2027-01-15");
    await nextBilling(yearly, "2027-01-31");
    await nextBilling(ending, "2027-01-31", "2027-02-28");
    await nextBilling(repriced, "2027-02-01");
    // A catalogue price parked from period 3 (decision 0055): S/ 35.00 a pack instead of S/ 30.00.
    await db.update(subscriptionItems).set({ pendingUnitPriceCents: 3500, pendingFromPeriod: 3 }).where(eq(subscriptionItems.subscriptionId, repriced));

    // 31 Jan: billed on the 31st (S/ 57.00), the late one counted today (S/ 57.00), the yearly one
    // (S/ 612.00) and the one whose cancellation ends on 28 Feb (S/ 57.00).
    // 1 Feb: the two billed on the 1st. 15 Feb: the late one's next period, a month after its
    // billing date (not after today). 28 Feb: the 31st clamped to February's last day; the ending
    // one is not charged on its end date. 1 Mar: the two billed on the 1st again, the repriced one
    // at 2 × S/ 35.00 less 5 % = S/ 66.50. The yearly one's next charge is in 2028.
    expect(added(before, await subscriptionForecast(db, { now, days: 30 }))).toEqual([
      { date: "2027-01-31", charges: 4, chargeCents: 5700 + 5700 + 61200 + 5700, units: [] },
      { date: "2027-02-01", charges: 2, chargeCents: 5700 + 5700, units: [] },
      { date: "2027-02-15", charges: 1, chargeCents: 5700, units: [] },
      { date: "2027-02-28", charges: 1, chargeCents: 5700, units: [] },
      { date: "2027-03-01", charges: 2, chargeCents: 5700 + 6650, units: [] },
    ]);
  });
});

describe("rescheduling a whole day", () => {
  const now = new Date("2027-06-01T15:00:00Z");
  const closed = "2027-06-02";

  async function order(email: string) {
    const placed = await placeOrder(db, checkoutInput(now, { correo: email, fecha: closed, diaHabil: 3 }), { now, provider: "sandbox", userId: null });
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
    await applySandboxAction(db, placed.paymentId, "approve_card", { now, siteUrl });
    return placed.orderId;
  }

  it("moves each delivery to its district's next day with room, tells each customer once, audits each, and a repeat changes nothing", async () => {
    const twice = `dos-${randomUUID().slice(0, 6)}@prueba.pe`;
    const once = `uno-${randomUUID().slice(0, 6)}@prueba.pe`;
    await order(twice);
    await order(twice);
    await order(once);
    // Friday 4 June (Miraflores' next day) has room for two in the morning; Monday 7 June is a
    // holiday (Día de la Bandera, closed in the seeded calendar), so the third goes to Wednesday 9.
    expect(await setDefaultCapacities(db, staff, [{ dayNumber: 5, window: "manana", capacity: 2 }])).toEqual({ ok: true });

    const result = await rescheduleDay(db, staff, { date: closed, reason: "corte de agua", now, siteUrl });
    expect(result.customers).toBe(2);
    expect(result.moved.map((row) => row.to).sort()).toEqual(["2027-06-04", "2027-06-04", "2027-06-09"]);
    const left = await db.select().from(deliveries).where(eq(deliveries.deliveryDate, closed));
    expect(left).toEqual([]);

    const emails = await db
      .select()
      .from(outboxEmails)
      .where(like(outboxEmails.dedupeKey, `day-rescheduled:${closed}:%`));
    expect(emails.map((email) => email.toAddress).sort()).toEqual([once, twice].sort());
    const toTwice = emails.find((email) => email.toAddress === twice)!;
    expect(toTwice.text.match(/- Entrega ENV-/g)).toHaveLength(2);
    expect(toTwice.text).toContain("corte de agua");
    const audit = await db.select().from(staffActions).where(eq(staffActions.action, "delivery.reschedule_day"));
    expect(audit).toHaveLength(3);

    const repeat = await rescheduleDay(db, staff, { date: closed, reason: "corte de agua", now, siteUrl });
    expect(repeat).toEqual({ moved: [], customers: 0 });
    expect(
      await db
        .select()
        .from(outboxEmails)
        .where(like(outboxEmails.dedupeKey, `day-rescheduled:${closed}:%`)),
    ).toHaveLength(2);
    expect(await db.select().from(staffActions).where(eq(staffActions.action, "delivery.reschedule_day"))).toHaveLength(3);
  });

  it("refuses a day already past", async () => {
    await expect(rescheduleDay(db, staff, { date: "2027-05-31", now, siteUrl })).rejects.toThrow("Ese día ya pasó.");
  });
});
