import { randomUUID } from "node:crypto";
import { and, asc, eq, like, ne } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@server/db/index.server";
import { deliveries, orderItems, orders, paymentMethods, productVariants, subscriptionItems, subscriptionPeriods, subscriptions } from "@server/db/schema";
import { sandboxCardProvider, sandboxCardToken } from "@server/payments/index.server";
import { capacityForDay } from "@server/deliveries/index.server";
import {
  cancelSubscription,
  changeNextDeliveryDate,
  changeSubscriptionFrequency,
  changeSubscriptionOrganization,
  changeSubscriptionProducts,
  loadSelfServiceOptions,
  pauseSubscription,
  resumeSubscriptionNow,
  skipNextDelivery,
  undoCancellation,
  updateSubscriptionCard,
} from "@server/subscriptions/index.server";
import { addDays, isoWeekday } from "@core/lima-dates";
import { nextMonthlyDeliveryDate } from "@core/subscription-dates";
import {
  changeEmails,
  chargesOf,
  customerEvents,
  limaNoon,
  newCustomer,
  runJobs,
  siteUrl,
  start,
  subscribe,
  subscriptionRow,
} from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const MIRAFLORES_DAYS = [1, 3, 5];
/** After activation on 23 Nov 2026: next billing 23 Dec, next delivery Wednesday 30 Dec. */
const FIRST_NEXT_DELIVERY = "2026-12-30";

let test: TestDatabase;
let db: Database;
beforeAll(async () => {
  test = await createTestDatabase("seeded");
  db = test.db;
});
afterAll(() => test.close());
// Each test runs every job of the shop over months of its own subscriber's life. The subscribers
// of the tests before it would be renewed, delivered and e-mailed again by those runs (most of
// this file's time): once a test has made its assertions, its subscriptions leave the jobs' way.
afterEach(async () => {
  await db
    .update(subscriptions)
    .set({ status: "cancelled" })
    .where(and(like(subscriptions.userId, "user-%@prueba.pe"), ne(subscriptions.status, "cancelled")));
});

/** A fresh subscriber and the context every action takes, at `now`. */
async function subscriber(frequency: "mensual" | "anual" = "mensual") {
  const customer = await newCustomer(db);
  const subscriptionId = await subscribe(db, customer, frequency);
  const as = (now = start, userId = customer.id) => ({ userId, subscriptionId, requestKey: randomUUID(), now, siteUrl });
  return { customer, subscriptionId, as };
}

/** The customer's saved card now declines every charge (the sandbox's card ending 0341). */
async function cardStartsDeclining(subscriptionId: string) {
  const { paymentMethodId } = await subscriptionRow(db, subscriptionId);
  await db
    .update(paymentMethods)
    .set({ providerCardId: `sbx_crd_${randomUUID()}_0341` })
    .where(eq(paymentMethods.id, paymentMethodId!));
}

/** Monthly delivery dates from `first`, each the same weekday a month later. */
function monthlyFrom(first: string, count: number): string[] {
  const dates = [first];
  while (dates.length < count) dates.push(nextMonthlyDeliveryDate(dates.at(-1)!, MIRAFLORES_DAYS));
  // Decision 0030: a delivery due on a holiday goes out on the district's next weekday (8 Dec 2027 → Friday 10).
  return dates.map((date) => (date === "2027-12-08" ? "2027-12-10" : date));
}

const variantBySku = async (sku: string) => (await db.select().from(productVariants).where(eq(productVariants.sku, sku)))[0]!;

const deliveriesOf = (subscriptionId: string) =>
  db.select().from(deliveries).where(eq(deliveries.subscriptionId, subscriptionId)).orderBy(asc(deliveries.subscriptionSequence));
const periodsOf = (subscriptionId: string) =>
  db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, subscriptionId)).orderBy(asc(subscriptionPeriods.periodNumber));

describe("every action guards its subscription", () => {
  it("answers 'not found' to another customer and to a malformed id, and changes nothing", async () => {
    const { subscriptionId, as } = await subscriber();
    const stranger = await newCustomer(db, "otro");
    const before = await subscriptionRow(db, subscriptionId);
    const foreign = as(start, stranger.id);
    const results = [
      await pauseSubscription(db, { ...foreign, until: "2027-01-15" }),
      await resumeSubscriptionNow(db, foreign),
      await skipNextDelivery(db, foreign),
      await changeNextDeliveryDate(db, { ...foreign, date: "2027-01-04" }),
      await changeSubscriptionProducts(db, { ...foreign, lines: [{ productId: 6, variantId: null, quantity: 2 }] }),
      await changeSubscriptionFrequency(db, { ...foreign, frequency: "anual" }),
      await changeSubscriptionOrganization(db, { ...foreign, organizationId: null }),
      await cancelSubscription(db, { ...foreign, reason: "precio", detail: "" }),
      await undoCancellation(db, foreign),
      await updateSubscriptionCard(db, {
        ...foreign,
        token: sandboxCardToken({ number: "5111111111111118" }),
        cards: sandboxCardProvider(db),
        cardsFor: () => sandboxCardProvider(db),
      }),
      await pauseSubscription(db, { ...as(), subscriptionId: "no-es-un-id", until: "2027-01-15" }),
    ];
    expect(results.every((result) => !result.ok && result.reason === "not_found")).toBe(true);
    expect(await subscriptionRow(db, subscriptionId)).toEqual(before);
    expect(await customerEvents(db, subscriptionId)).toHaveLength(1); // only the activation
    expect(await changeEmails(db, subscriptionId)).toHaveLength(0);
    expect(await loadSelfServiceOptions(db, stranger.id, subscriptionId, start)).toBeNull();
  });
});

describe("pause and resume", () => {
  it("pauses until a date from tomorrow to six months ahead, with one event and one email on a double submit", async () => {
    const { subscriptionId, as } = await subscriber();
    expect(await pauseSubscription(db, { ...as(), until: "2026-11-23" })).toMatchObject({
      ok: false,
      field: "until",
      message: "La pausa debe terminar desde mañana en adelante",
    });
    expect(await pauseSubscription(db, { ...as(), until: "2027-05-24" })).toMatchObject({
      ok: false,
      field: "until",
      message: expect.stringContaining("hasta 6 meses"),
    });
    expect(await pauseSubscription(db, { ...as(), until: "2027-13-01" })).toMatchObject({ ok: false, field: "until" });

    const twice = as();
    const [first, second] = await Promise.all([
      pauseSubscription(db, { ...twice, until: "2027-02-10" }),
      pauseSubscription(db, { ...twice, until: "2027-02-10" }),
    ]);
    expect(first).toMatchObject({ ok: true });
    expect(second).toMatchObject({ ok: true });
    expect([first, second].filter((result) => result.ok && result.alreadyApplied)).toHaveLength(1);
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ status: "paused", pausedUntil: "2027-02-10" });
    const events = (await customerEvents(db, subscriptionId)).filter((event) => event.kind === "paused");
    expect(events).toHaveLength(1);
    // The checkout's first delivery (25 November, not started) is handed back: the customer reads that it waits (decision 0066).
    expect(events[0]!.description).toBe(
      "Suscripción pausada: se reanudará el 10 de febrero de 2027. Mientras tanto no haremos cobros ni entregas. La entrega ya pagada del 25 de noviembre de 2026 queda en pausa: la programaremos al reanudarse tu suscripción.",
    );
    const emails = await changeEmails(db, subscriptionId);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.text).toContain("se reanudará el 10 de febrero de 2027");

    // A paused subscription cannot skip or move its delivery.
    expect(await skipNextDelivery(db, as())).toMatchObject({ ok: false, message: expect.stringContaining("pausada hasta el") });
    expect(await changeNextDeliveryDate(db, { ...as(), date: "2027-01-04" })).toMatchObject({ ok: false, message: expect.stringContaining("Reanúdala") });
  });

  it("charges and delivers nothing while paused, resumes by itself on the date, and bills from that day on", async () => {
    const { subscriptionId, as } = await subscriber();
    expect(await pauseSubscription(db, { ...as(limaNoon("2026-12-01")), until: "2027-02-10" })).toMatchObject({ ok: true });
    await runJobs(db, "2026-12-01", "2027-02-09", 3);
    expect(await chargesOf(db, subscriptionId)).toHaveLength(1);
    expect(await deliveriesOf(subscriptionId)).toHaveLength(1);

    await runJobs(db, "2027-02-10", "2027-03-12");
    const charges = await chargesOf(db, subscriptionId);
    expect(charges.map((charge) => charge.amountCents)).toEqual([5700, 5700, 5700]);
    expect((await periodsOf(subscriptionId)).map((period) => [period.periodNumber, period.billingDate, period.status])).toEqual([
      [1, "2026-11-23", "paid"],
      [2, "2027-02-10", "paid"],
      [3, "2027-03-10", "paid"],
    ]);
    // The delivery owed resumes on a served weekday from the day after resuming.
    const made = await deliveriesOf(subscriptionId);
    expect(made).toHaveLength(3);
    expect(made[1]!.deliveryDate >= "2027-02-11").toBe(true);
    expect(made.every((delivery) => MIRAFLORES_DAYS.includes(isoWeekday(delivery.deliveryDate)))).toBe(true);
  });

  it("resumes now at the customer's request and is charged at once when the billing date passed", async () => {
    const { subscriptionId, as } = await subscriber();
    await pauseSubscription(db, { ...as(limaNoon("2026-12-10")), until: "2027-03-01" });
    await runJobs(db, "2026-12-10", "2027-01-04", 5);
    expect(await resumeSubscriptionNow(db, as(limaNoon("2027-01-05")))).toMatchObject({
      ok: true,
      message: "Suscripción reanudada. Próximo cobro: hoy. Próxima entrega: 6 de enero de 2027.",
    });
    expect(await resumeSubscriptionNow(db, as(limaNoon("2027-01-05")))).toMatchObject({ ok: false, message: "Tu suscripción no está pausada." });
    const resumed = await subscriptionRow(db, subscriptionId);
    expect(resumed).toMatchObject({ status: "active", pausedUntil: null, nextBillingDate: "2027-01-05" });
    await runJobs(db, "2027-01-05", "2027-01-05");
    expect((await chargesOf(db, subscriptionId)).map((charge) => charge.amountCents)).toEqual([5700, 5700]);
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ nextBillingDate: "2027-02-05" });
    expect((await changeEmails(db, subscriptionId)).map((email) => email.subject)).toEqual([
      expect.stringContaining("Actualizamos tu suscripción"),
      expect.stringContaining("Actualizamos tu suscripción"),
    ]);
  });
});

describe("skip the next delivery", () => {
  it("mensual: the next period is not charged nor delivered, the one after is; a double submit skips once", async () => {
    const { subscriptionId, as } = await subscriber();
    const moved = nextMonthlyDeliveryDate(FIRST_NEXT_DELIVERY, MIRAFLORES_DAYS);
    const twice = as(limaNoon("2026-12-01"));
    const results = await Promise.all([skipNextDelivery(db, twice), skipNextDelivery(db, twice)]);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(results[0]!.ok && results[0].message).toBe(
      "Entrega del 30 de diciembre de 2026 saltada: no cobraremos el periodo del 23 de diciembre de 2026. Próximo cobro: 23 de enero de 2027; próxima entrega: 3 de febrero de 2027.",
    );
    expect(moved).toBe("2027-02-03");
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ nextPeriodNumber: 3, nextBillingDate: "2027-01-23", nextDeliveryDate: moved });
    expect(await changeEmails(db, subscriptionId)).toHaveLength(1);
    expect((await customerEvents(db, subscriptionId)).filter((event) => event.kind === "delivery_skipped")).toHaveLength(1);

    await runJobs(db, "2026-12-01", "2027-02-28");
    expect((await chargesOf(db, subscriptionId)).map((charge) => charge.chargeKey.split(":")[1])).toEqual(["1", "3", "4"]);
    expect((await periodsOf(subscriptionId)).map((period) => [period.periodNumber, period.billingDate, period.status])).toEqual([
      [1, "2026-11-23", "paid"],
      [2, "2026-12-23", "skipped"],
      [3, "2027-01-23", "paid"],
      [4, "2027-02-23", "paid"],
    ]);
    // No delivery on 30 December; the second delivery is the moved date, paid by period 3.
    const made = await deliveriesOf(subscriptionId);
    expect(made.map((delivery) => delivery.deliveryDate)).toEqual(["2026-11-25", moved, nextMonthlyDeliveryDate(moved, MIRAFLORES_DAYS)]);
    const period3 = (await periodsOf(subscriptionId))[2]!;
    expect(made[1]!.orderId).toBe(period3.orderId);
  });

  it("anual: only the delivery moves a month; the year is still charged once and keeps its deliveries", async () => {
    const { subscriptionId, as } = await subscriber("anual");
    const before = await subscriptionRow(db, subscriptionId);
    const result = await skipNextDelivery(db, as(limaNoon("2026-12-01")));
    expect(result).toMatchObject({ ok: true, message: expect.stringContaining("Tu plan anual conserva sus 12 entregas") });
    const after = await subscriptionRow(db, subscriptionId);
    expect(after).toMatchObject({ nextBillingDate: before.nextBillingDate, nextPeriodNumber: 2, nextDeliveryDate: "2027-02-03" });
    expect(await periodsOf(subscriptionId)).toHaveLength(1);
    await runJobs(db, "2026-12-01", "2027-02-28", 2);
    expect(await chargesOf(db, subscriptionId)).toHaveLength(1);
    // The prepaid deliveries carry on, a month apart, from the moved date.
    expect((await deliveriesOf(subscriptionId)).map((delivery) => delivery.deliveryDate)).toEqual(["2026-11-25", "2027-02-03", "2027-03-03"]);
  });
});

describe("skip the delivery the page shows as the next one (issue 41)", () => {
  const used = async (date: string) => (await capacityForDay(db, date)).districts.reduce((sum, row) => sum + row.used, 0);

  it("skips the created first delivery the page shows: cancelled, its place freed, the paid delivery made on the next date, the next period not charged", async () => {
    const { subscriptionId, customer, as } = await subscriber();
    const [first] = await deliveriesOf(subscriptionId);
    expect(first).toMatchObject({ deliveryDate: "2026-11-25", status: "pending" });
    const options = await loadSelfServiceOptions(db, customer.id, subscriptionId, start);
    expect(options!.skip).toEqual({ delivery: "2026-11-25", movedTo: FIRST_NEXT_DELIVERY, skipsBillingDate: "2026-12-23", kept: [] });
    const placesBefore = await used("2026-11-25");

    const twice = as(start);
    const results = await Promise.all([skipNextDelivery(db, twice), skipNextDelivery(db, twice)]);
    // Either call may take the subscription's lock first: one applies, the other finds it applied.
    const message =
      "Entrega del 25 de noviembre de 2026 saltada: no cobraremos el periodo del 23 de diciembre de 2026. Próximo cobro: 23 de enero de 2027; próxima entrega: 30 de diciembre de 2026.";
    expect(results.map((result) => result.ok && result.message)).toEqual([message, message]);
    expect(results.map((result) => result.ok && result.alreadyApplied).sort()).toEqual([false, true]);
    expect(await used("2026-11-25")).toBe(placesBefore - 1);
    const [cancelled] = await db.select().from(deliveries).where(eq(deliveries.id, first!.id));
    expect(cancelled).toMatchObject({ status: "cancelled", subscriptionSequence: null });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({
      deliveriesMade: 0,
      nextDeliveryDate: FIRST_NEXT_DELIVERY,
      nextBillingDate: "2027-01-23",
    });
    // The first order waits for the delivery it paid for: its pages say the new date.
    const [firstOrder] = await db.select({ deliveryDate: orders.deliveryDate }).from(orders).where(eq(orders.id, first!.orderId));
    expect(firstOrder!.deliveryDate).toBe(FIRST_NEXT_DELIVERY);

    await runJobs(db, "2026-11-24", "2027-02-28");
    expect((await chargesOf(db, subscriptionId)).map((charge) => charge.chargeKey.split(":")[1])).toEqual(["1", "3", "4"]);
    const made = (await deliveriesOf(subscriptionId)).filter((delivery) => delivery.status !== "cancelled");
    // The first period's delivery comes on 30 December (its order waits for it), period 3 pays the next.
    expect(made.map((delivery) => [delivery.subscriptionSequence, delivery.deliveryDate])).toEqual([
      [1, FIRST_NEXT_DELIVERY],
      [2, "2027-02-03"],
      [3, nextMonthlyDeliveryDate("2027-02-03", MIRAFLORES_DAYS)],
    ]);
    const periods = await periodsOf(subscriptionId);
    expect(made[0]!.orderId).toBe(periods[0]!.orderId);
    expect(made[1]!.orderId).toBe(periods[2]!.orderId);
  });

  it("names a delivery that can no longer be skipped (prepared, or past the cut-off) and skips the one after it", async () => {
    const { subscriptionId, customer, as } = await subscriber();
    const [first] = await deliveriesOf(subscriptionId);
    // 24 Nov at 19:00 in Lima: tomorrow's cut-off (18:00) has passed.
    const lateEvening = new Date("2026-11-25T00:00:00Z");
    const late = await loadSelfServiceOptions(db, customer.id, subscriptionId, lateEvening);
    expect(late!.skip).toMatchObject({
      delivery: FIRST_NEXT_DELIVERY,
      kept: [{ date: "2026-11-25", reason: "pasó la hora de corte (las 18:00 del día anterior)" }],
    });
    await db.update(deliveries).set({ status: "preparing" }).where(eq(deliveries.id, first!.id));
    const options = await loadSelfServiceOptions(db, customer.id, subscriptionId, start);
    expect(options!.skip).toMatchObject({ delivery: FIRST_NEXT_DELIVERY, kept: [{ date: "2026-11-25", reason: "ya la estamos preparando" }] });
    const result = await skipNextDelivery(db, as(start));
    expect(result.ok && result.message).toMatch(
      /^Entrega del 30 de diciembre de 2026 saltada: .+ La entrega del 25 de noviembre de 2026 llegará como estaba previsto\.$/,
    );
    const [kept] = await db.select().from(deliveries).where(eq(deliveries.id, first!.id));
    expect(kept).toMatchObject({ status: "preparing", subscriptionSequence: 1 });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ deliveriesMade: 1, nextDeliveryDate: "2027-02-03" });
  });
});

describe("change the next delivery date", () => {
  it("offers the district's weekdays from the day after the paying charge, and refuses anything else with the spec's messages", async () => {
    const { subscriptionId, customer, as } = await subscriber();
    const options = await loadSelfServiceOptions(db, customer.id, subscriptionId, limaNoon("2026-12-01"));
    // The second delivery is paid by the charge of 23 December: offered from the 24th, for 60 days,
    // except Christmas and New Year's Day (issue 10: holidays are never offered).
    expect(options!.deliveryDates[0]).toBe("2026-12-28");
    expect(options!.deliveryDates).not.toContain("2026-12-25");
    expect(options!.deliveryDates).not.toContain("2027-01-01");
    expect(options!.deliveryDates.at(-1)).toBe("2027-02-22");
    expect(options!.deliveryDates.every((date) => MIRAFLORES_DAYS.includes(isoWeekday(date)))).toBe(true);
    expect(options!.deliveryDates).not.toContain(FIRST_NEXT_DELIVERY);

    const at = limaNoon("2026-12-01");
    expect(await changeNextDeliveryDate(db, { ...as(at), date: "2026-12-01" })).toMatchObject({
      ok: false,
      field: "date",
      message: "Requiere mínimo 1 día de anticipación",
    });
    expect(await changeNextDeliveryDate(db, { ...as(at), date: "2027-01-05" })).toMatchObject({
      ok: false,
      field: "date",
      message: "Selecciona un día habilitado",
    });
    expect(await changeNextDeliveryDate(db, { ...as(at), date: "2026-12-21" })).toMatchObject({
      ok: false,
      field: "date",
      message: "Elige una de las fechas ofrecidas",
    });
    expect(await changeNextDeliveryDate(db, { ...as(at), date: "2027-02-24" })).toMatchObject({
      ok: false,
      field: "date",
      message: "Elige una de las fechas ofrecidas",
    });
    expect(await changeNextDeliveryDate(db, { ...as(at), date: "31-12-2026" })).toMatchObject({ ok: false, field: "date" });
    expect(await changeNextDeliveryDate(db, { ...as(at), date: "2026-12-25" })).toMatchObject({
      ok: false,
      field: "date",
      message: "No repartimos el viernes, 25 de diciembre (Navidad). Elige otra fecha.",
    });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ nextDeliveryDate: FIRST_NEXT_DELIVERY });
  });

  it("still offers dates after a skip moved the next delivery two months away", async () => {
    const { subscriptionId, customer, as } = await subscriber();
    await skipNextDelivery(db, as(limaNoon("2026-12-01")));
    const options = await loadSelfServiceOptions(db, customer.id, subscriptionId, limaNoon("2026-12-01"));
    // The moved delivery is paid by the charge of 23 January.
    expect(options!.deliveryDates[0]).toBe("2027-01-25");
    expect(await changeNextDeliveryDate(db, { ...as(limaNoon("2026-12-01")), date: "2027-01-25" })).toMatchObject({ ok: true });
  });

  it("moves the next delivery to the chosen date; the following ones keep its weekday a month apart", async () => {
    const { subscriptionId, as } = await subscriber();
    const twice = as(limaNoon("2026-12-01"));
    await Promise.all([changeNextDeliveryDate(db, { ...twice, date: "2027-01-04" }), changeNextDeliveryDate(db, { ...twice, date: "2027-01-04" })]);
    expect(await changeEmails(db, subscriptionId)).toHaveLength(1);
    const [event] = (await customerEvents(db, subscriptionId)).filter((row) => row.kind === "delivery_date_changed");
    expect(event!.description).toBe("Próxima entrega cambiada al 4 de enero de 2027 (antes: 30 de diciembre de 2026).");
    await runJobs(db, "2026-12-01", "2027-02-28", 2);
    expect((await deliveriesOf(subscriptionId)).map((delivery) => delivery.deliveryDate)).toEqual(["2026-11-25", "2027-01-04", "2027-02-08"]);
  });
});

describe("change products and quantities", () => {
  it("refuses less than S/ 50 a month with the cart's message, withdrawn products and no product at all", async () => {
    const { subscriptionId, as } = await subscriber();
    const single = await variantBySku("VA-F8L-01");
    expect(await changeSubscriptionProducts(db, { ...as(), lines: [{ productId: single.productId, variantId: single.id, quantity: 1 }] })).toMatchObject({
      ok: false,
      field: "products",
      message: "Pedido Mínimo Requerido: el pedido mínimo de suscripción es de S/ 50.00. Monto actual: S/ 15.90. Te faltan: S/ 34.10",
    });
    const withdrawn = await variantBySku("VA-BO20-R20");
    expect(await changeSubscriptionProducts(db, { ...as(), lines: [{ productId: withdrawn.productId, variantId: withdrawn.id, quantity: 1 }] })).toMatchObject({
      ok: false,
      message: "Algunos productos ya no están disponibles. Revisa tu selección.",
    });
    expect(await changeSubscriptionProducts(db, { ...as(), lines: [] })).toMatchObject({ ok: false, message: "Elige al menos un producto" });
    expect(await changeSubscriptionProducts(db, { ...as(), lines: [{ productId: 1, variantId: 1, quantity: 2 }] })).toMatchObject({
      ok: false,
      message: "No hay cambios en tus productos",
    });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ baseAmountCents: 6000, amountCents: 5700 });
  });

  it("reprices from the catalogue and charges the new amount from the next period, the paid one untouched", async () => {
    const { subscriptionId, as } = await subscriber();
    const twice = as(limaNoon("2026-12-01"));
    const pack24 = await variantBySku("VA-P625-24");
    const lines = [
      { productId: 6, variantId: null, quantity: 1 },
      { productId: pack24.productId, variantId: pack24.id, quantity: 1 },
    ];
    const [result] = await Promise.all([changeSubscriptionProducts(db, { ...twice, lines }), changeSubscriptionProducts(db, { ...twice, lines })]);
    // The box (S/ 59.90) and a pack of 24 (S/ 56.00): S/ 115.90 a month, less 5% (S/ 5.80 rounded from 5.795).
    const monthly = 11010;
    expect(result).toMatchObject({ ok: true, message: expect.stringContaining("Nuevo cobro: S/ 110.10 al mes") });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ baseAmountCents: 11590, amountCents: monthly });
    expect(
      await db.select({ unit: subscriptionItems.unitPriceCents }).from(subscriptionItems).where(eq(subscriptionItems.subscriptionId, subscriptionId)),
    ).toHaveLength(2);
    expect(await changeEmails(db, subscriptionId)).toHaveLength(1);

    await runJobs(db, "2026-12-01", "2026-12-31", 2);
    expect((await chargesOf(db, subscriptionId)).map((charge) => charge.amountCents)).toEqual([5700, monthly]);
    const [firstOrder, renewal] = await db.select().from(orders).where(eq(orders.subscriptionId, subscriptionId)).orderBy(asc(orders.createdAt));
    expect(
      await db.select({ quantity: orderItems.quantity, variantId: orderItems.variantId }).from(orderItems).where(eq(orderItems.orderId, firstOrder!.id)),
    ).toEqual([{ quantity: 2, variantId: 1 }]);
    expect(renewal).toMatchObject({ totalCents: monthly, subtotalCents: 11590 });
    expect(await db.select().from(orderItems).where(eq(orderItems.orderId, renewal!.id))).toHaveLength(2);
  });

  it("reprices a renewal already waiting for its retry", async () => {
    const { subscriptionId, as } = await subscriber();
    await cardStartsDeclining(subscriptionId);
    await runJobs(db, "2026-12-23", "2026-12-23");
    expect(await changeSubscriptionProducts(db, { ...as(limaNoon("2026-12-24")), lines: [{ productId: 6, variantId: null, quantity: 1 }] })).toMatchObject({
      ok: true,
    });
    const [period2] = (await periodsOf(subscriptionId)).filter((period) => period.periodNumber === 2);
    expect(period2).toMatchObject({ status: "failed", amountCents: 5690 });
  });
});

describe("change frequency", () => {
  it("mensual → anual from the next period: the new amount is shown, charged at the next billing date, and deliveries stay monthly", async () => {
    const { subscriptionId, customer, as } = await subscriber();
    const options = await loadSelfServiceOptions(db, customer.id, subscriptionId, start);
    expect(options!.planAmounts).toEqual({ mensual: 5700, anual: 61200 });
    const twice = as(limaNoon("2026-12-01"));
    const [result] = await Promise.all([
      changeSubscriptionFrequency(db, { ...twice, frequency: "anual" }),
      changeSubscriptionFrequency(db, { ...twice, frequency: "anual" }),
    ]);
    expect(result).toMatchObject({ ok: true, message: "Plan cambiado a anual desde el cobro del 23 de diciembre de 2026: S/ 612.00 al año." });
    expect(await changeEmails(db, subscriptionId)).toHaveLength(1);
    expect(await changeSubscriptionFrequency(db, { ...as(limaNoon("2026-12-01")), frequency: "anual" })).toMatchObject({ ok: false, field: "frequency" });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ frequency: "mensual", pendingFrequency: "anual", amountCents: 5700 });

    await runJobs(db, "2026-12-01", "2027-04-30", 3);
    expect((await chargesOf(db, subscriptionId)).map((charge) => charge.amountCents)).toEqual([5700, 61200]);
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({
      frequency: "anual",
      pendingFrequency: null,
      amountCents: 61200,
      nextBillingDate: "2027-12-23",
      discountRateBasisPoints: 1500,
    });
    // Still one delivery a month: the year's twelve are spread, not made at once.
    const made = await deliveriesOf(subscriptionId);
    expect(made.map((delivery) => delivery.deliveryDate)).toEqual(monthlyFrom("2026-11-25", made.length));
    expect(made.length).toBeGreaterThanOrEqual(5);
    expect(made.at(-1)!.deliveryDate <= addDays("2027-04-30", 7)).toBe(true);
  });

  it("anual → mensual keeps the year's deliveries and bills monthly from the anniversary", async () => {
    const { subscriptionId, as } = await subscriber("anual");
    expect(await changeSubscriptionFrequency(db, { ...as(limaNoon("2026-12-01")), frequency: "mensual" })).toMatchObject({
      ok: true,
      message: expect.stringContaining("S/ 57.00 al mes"),
    });
    await runJobs(db, "2026-12-01", "2028-01-11", 7);
    expect((await chargesOf(db, subscriptionId)).map((charge) => charge.amountCents)).toEqual([61200, 5700, 5700]);
    // The twelve deliveries paid by the year, then the first month paid monthly (its date within the week's horizon).
    const made = await deliveriesOf(subscriptionId);
    expect(made.map((delivery) => delivery.deliveryDate)).toEqual(monthlyFrom("2026-11-25", 13));
    const firstMonthly = (await periodsOf(subscriptionId)).find((period) => period.periodNumber === 2)!;
    expect(made.slice(0, 12).every((delivery) => delivery.orderId === made[0]!.orderId)).toBe(true);
    expect(made[12]!.orderId).toBe(firstMonthly.orderId);
  });

  it("choosing the current plan again withdraws a pending change", async () => {
    const { subscriptionId, as } = await subscriber();
    await changeSubscriptionFrequency(db, { ...as(), frequency: "anual" });
    expect(await changeSubscriptionFrequency(db, { ...as(), frequency: "mensual" })).toMatchObject({
      ok: true,
      message: "Cambio de plan anulado: sigues con el plan mensual, S/ 57.00 al mes.",
    });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ pendingFrequency: null });
    expect(await changeSubscriptionFrequency(db, { ...as(), frequency: "semanal" })).toMatchObject({ ok: false, field: "frequency" });
  });
});

describe("change the organisation", () => {
  it("changes to another organisation or to none, and refuses one that does not exist", async () => {
    const { subscriptionId, as } = await subscriber();
    const [, second] = (await loadSelfServiceOptions(db, (await subscriptionRow(db, subscriptionId)).userId, subscriptionId, start))!.organizations;
    const twice = as();
    const [result] = await Promise.all([
      changeSubscriptionOrganization(db, { ...twice, organizationId: second!.id }),
      changeSubscriptionOrganization(db, { ...twice, organizationId: second!.id }),
    ]);
    expect(result).toMatchObject({ ok: true, message: `Ahora tu suscripción apoya a ${second!.title}.` });
    expect(await changeEmails(db, subscriptionId)).toHaveLength(1);
    expect(await changeSubscriptionOrganization(db, { ...as(), organizationId: 99999 })).toMatchObject({
      ok: false,
      message: "Elige una organización de la lista",
    });
    expect(await changeSubscriptionOrganization(db, { ...as(), organizationId: null })).toMatchObject({
      ok: true,
      message: "Tu suscripción ya no apoya a ninguna organización.",
    });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ organizationId: null });
  });
});

describe("cancel", () => {
  it("needs a reason; takes effect at the end of the paid period: no further charge, then it ends", async () => {
    const { subscriptionId, as } = await subscriber();
    expect(await cancelSubscription(db, { ...as(), reason: "", detail: "" })).toMatchObject({
      ok: false,
      field: "reason",
      message: "Elige el motivo de la cancelación",
    });
    expect(await cancelSubscription(db, { ...as(), reason: "otro", detail: "  " })).toMatchObject({
      ok: false,
      field: "detail",
      message: "Cuéntanos el motivo",
    });
    const twice = as(limaNoon("2026-12-01"));
    const [result] = await Promise.all([
      cancelSubscription(db, { ...twice, reason: "mudanza", detail: "Me voy a Arequipa" }),
      cancelSubscription(db, { ...twice, reason: "mudanza", detail: "Me voy a Arequipa" }),
    ]);
    expect(result).toMatchObject({
      ok: true,
      message:
        "Suscripción cancelada: no haremos más cobros y terminará el 23 de diciembre de 2026. Motivo: Me mudo fuera de la zona de reparto: Me voy a Arequipa.",
    });
    expect(await changeEmails(db, subscriptionId)).toHaveLength(1);
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({
      status: "active",
      endsOn: "2026-12-23",
      cancelReason: "Me mudo fuera de la zona de reparto: Me voy a Arequipa",
    });
    // While it waits for its end, only undoing it (and the card and organisation) remain.
    expect(await skipNextDelivery(db, as(limaNoon("2026-12-02")))).toMatchObject({ ok: false, message: expect.stringContaining("Deshaz la cancelación") });

    await runJobs(db, "2026-12-01", "2027-02-28", 2);
    expect(await chargesOf(db, subscriptionId)).toHaveLength(1);
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ status: "cancelled" });
    expect(await deliveriesOf(subscriptionId)).toHaveLength(1);
    expect(await undoCancellation(db, as(limaNoon("2027-03-01")))).toMatchObject({ ok: false, message: "Tu suscripción está cancelada." });
  });

  it("can be undone before its end, and renewals carry on", async () => {
    const { subscriptionId, as } = await subscriber();
    await cancelSubscription(db, { ...as(limaNoon("2026-12-01")), reason: "precio", detail: "" });
    expect(await undoCancellation(db, as(limaNoon("2026-12-20")))).toMatchObject({
      ok: true,
      message: "Cancelación anulada: tu suscripción continúa y el próximo cobro será el 23 de diciembre de 2026.",
    });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ endsOn: null, cancelledAt: null, cancelReason: null });
    await runJobs(db, "2026-12-20", "2026-12-24");
    expect(await chargesOf(db, subscriptionId)).toHaveLength(2);
    expect(await changeEmails(db, subscriptionId)).toHaveLength(2);
  });
});

describe("update the card", () => {
  it("saves a new card without charging, revokes the old one, and renewals charge the new one", async () => {
    const { subscriptionId, as } = await subscriber();
    const old = await subscriptionRow(db, subscriptionId);
    const input = {
      ...as(limaNoon("2026-12-01")),
      token: sandboxCardToken({ number: "5111111111111118" }),
      cards: sandboxCardProvider(db),
      cardsFor: () => sandboxCardProvider(db),
    };
    const [result] = await Promise.all([updateSubscriptionCard(db, input), updateSubscriptionCard(db, input)]);
    expect(result).toMatchObject({ ok: true, message: "Tarjeta actualizada: Mastercard terminada en 1118. No hicimos ningún cobro." });
    expect(await chargesOf(db, subscriptionId)).toHaveLength(1);
    expect(await changeEmails(db, subscriptionId)).toHaveLength(1);
    const updated = await subscriptionRow(db, subscriptionId);
    expect(updated).toMatchObject({ cardBrand: "Mastercard", cardLast4: "1118", status: "active" });
    expect(updated.paymentMethodId).not.toBe(old.paymentMethodId);
    const [revoked] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, old.paymentMethodId!));
    expect(revoked!.revokedAt).not.toBeNull();

    const refused = await updateSubscriptionCard(db, { ...input, requestKey: randomUUID(), token: sandboxCardToken({ number: "4000040000000008" }) });
    expect(refused).toMatchObject({ ok: false, field: "card", message: "No se pudo guardar tu tarjeta. Tu tarjeta no tiene fondos suficientes." });

    await runJobs(db, "2026-12-23", "2026-12-23");
    const charges = await chargesOf(db, subscriptionId);
    expect(charges).toHaveLength(2);
    expect(charges[1]!.cardId).toMatch(/_1118$/);
  });

  it("past due: a new card reactivates it and charges the unpaid period once, at once", async () => {
    const { subscriptionId, as } = await subscriber();
    await cardStartsDeclining(subscriptionId);
    await runJobs(db, "2026-12-23", "2027-01-04");
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ status: "past_due" });
    expect(await chargesOf(db, subscriptionId)).toHaveLength(5);
    // Nothing else is possible until the card is updated.
    expect(await resumeSubscriptionNow(db, as(limaNoon("2027-01-05")))).toMatchObject({ ok: false, message: expect.stringContaining("Actualiza tu tarjeta") });

    const input = {
      ...as(limaNoon("2027-01-05")),
      token: sandboxCardToken({ number: "4111111111111111" }),
      cards: sandboxCardProvider(db),
      cardsFor: () => sandboxCardProvider(db),
    };
    const results = await Promise.all([updateSubscriptionCard(db, input), updateSubscriptionCard(db, input)]);
    expect(results.map((result) => result.ok && result.retry?.outcome)).toContain("paid");
    const charges = await chargesOf(db, subscriptionId);
    expect(charges.filter((charge) => charge.paid).map((charge) => [charge.chargeKey, charge.amountCents])).toEqual([
      [`${subscriptionId}:1:1`, 5700],
      [`${subscriptionId}:2:5`, 5700],
    ]);
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ status: "active", nextPeriodNumber: 3, nextBillingDate: "2027-02-05" });
    expect(await changeEmails(db, subscriptionId)).toHaveLength(1);
    // Running the jobs afterwards charges nothing more until the next billing date.
    await runJobs(db, "2027-01-05", "2027-02-04", 3);
    expect(await chargesOf(db, subscriptionId)).toHaveLength(6);
    const made = await deliveriesOf(subscriptionId);
    expect(made).toHaveLength(2);
    expect(made[1]!.deliveryDate > "2027-01-05").toBe(true);
  });

  it("past due with another declining card goes back to past due without charging twice", async () => {
    const { subscriptionId, as } = await subscriber();
    await cardStartsDeclining(subscriptionId);
    await runJobs(db, "2026-12-23", "2027-01-04");
    const result = await updateSubscriptionCard(db, {
      ...as(limaNoon("2027-01-05")),
      token: sandboxCardToken({ number: "4000000000000341" }),
      cards: sandboxCardProvider(db),
      cardsFor: () => sandboxCardProvider(db),
    });
    expect(result).toMatchObject({ ok: true, retry: { outcome: "declined" } });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ status: "past_due" });
    expect((await chargesOf(db, subscriptionId)).filter((charge) => charge.paid)).toHaveLength(1);
    await runJobs(db, "2027-01-06", "2027-01-20", 7);
    expect(await chargesOf(db, subscriptionId)).toHaveLength(6);
  });

  it("cancelling a past-due subscription ends it at once", async () => {
    const { subscriptionId, as } = await subscriber();
    await cardStartsDeclining(subscriptionId);
    await runJobs(db, "2026-12-23", "2027-01-04");
    expect(await cancelSubscription(db, { ...as(limaNoon("2027-01-05")), reason: "precio", detail: "" })).toMatchObject({
      ok: true,
      message: "Suscripción cancelada: no haremos más cobros. Motivo: Es muy caro para mí.",
    });
    expect(await subscriptionRow(db, subscriptionId)).toMatchObject({ status: "cancelled", endsOn: "2027-01-05" });
    const periods = await db
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscriptionId), eq(subscriptionPeriods.status, "paid")));
    expect(periods).toHaveLength(1);
  });
});
