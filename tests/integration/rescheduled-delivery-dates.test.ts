// Decision 0062: a delivery moved after the order was placed shows its new date on every page,
// export and e-mail that names the order's delivery; the order keeps the date asked for.
import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { exportCustomerData } from "@server/customers/index.server";
import { deliveries, orders, outboxEmails, subscriptionPeriods, subscriptions, users } from "@server/db/schema";
import { DEMO_ADMIN, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-accounts";
import { addClosedDay, assignDeliveries, rescheduleDay, rescheduleDeliveries } from "@server/deliveries/index.server";
import { applySandboxAction, confirmDriverStop } from "@server/order-flows/index.server";
import { findOrderForUser, findOrderReceipt, findStaffOrder, resendOrderConfirmation, staffOrdersCsvStream } from "@server/orders/index.server";
import { changeNextDeliveryDate, loadSelfServiceOptions, skipNextDelivery } from "@server/subscriptions/index.server";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { checkoutInput } from "../support/checkout-fixture";
import { limaNoon, newCustomer, runJobs, siteUrl, subscribe } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 1 June 2027, 10:00 in Lima; Miraflores is served Monday, Wednesday and Friday.
const now = new Date("2027-06-01T15:00:00Z");
const wednesday = "2027-06-02";
const friday = "2027-06-04";

let test: TestDatabase;
let operaciones: StaffActor;
let admin: StaffActor;
let driver: StaffActor;
beforeAll(async () => {
  test = await createTestDatabase("seeded");
  const actor = async (email: string, role: StaffActor["role"]): Promise<StaffActor> => {
    const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return { id: row!.id, email, role, clientAddress: "127.0.0.1" };
  };
  operaciones = await actor(DEMO_OPERACIONES.email, "operaciones");
  admin = await actor(DEMO_ADMIN.email, "admin");
  driver = await actor(DEMO_REPARTIDOR.email, "repartidor");
});
afterAll(() => test.close());

/** A customer's one-time order for Wednesday 2 June, paid by card or waiting for its cash code. */
async function placeFor(customer: { id: string; email: string }, pay: "approve_card" | "issue_code" = "approve_card") {
  const placed = await placeOrder(test.db, checkoutInput(now, { correo: customer.email, fecha: wednesday }), { now, provider: "sandbox", userId: customer.id });
  if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
  await applySandboxAction(test.db, placed.paymentId, pay, { now, siteUrl });
  const [delivery] = await test.db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.orderId, placed.orderId));
  const [order] = await test.db.select({ orderNumber: orders.orderNumber }).from(orders).where(eq(orders.id, placed.orderId));
  return { orderId: placed.orderId, orderNumber: order!.orderNumber, deliveryId: delivery!.id };
}

/** The order's line of the staff CSV, found by its number. */
async function csvLineOf(orderNumber: string): Promise<string> {
  const text = await new Response(staffOrdersCsvStream(test.db, { q: orderNumber })).text();
  return text.split("\r\n").find((line) => line.startsWith(`${orderNumber},`))!;
}

/** The staff CSV's "Fecha de entrega" and "Horario" of the order (the first plain date field: "Fecha (Lima)" has a time). */
async function csvDeliveryOf(orderNumber: string): Promise<[string, string]> {
  const [, date, window] = /,(\d{4}-\d{2}-\d{2}),([^,]*),/.exec(await csvLineOf(orderNumber))!;
  return [date!, window!];
}

/** Every view model of the order says `date` (and `window`), and the receipt, account and staff pages say what was asked. */
async function expectEverywhere(
  customer: { id: string },
  order: { orderId: string; orderNumber: string },
  expected: { date: string; window: string; requested: string | null },
) {
  const receipt = (await findOrderReceipt(test.db, order.orderId, { owner: true }))!.details!;
  expect([receipt.deliveryDate, receipt.deliveryWindow, receipt.requestedDeliveryDate]).toEqual([expected.date, expected.window, expected.requested]);
  const mine = (await findOrderForUser(test.db, customer.id, order.orderId))!.shipping;
  expect([mine.deliveryDate, mine.deliveryWindow, mine.requestedDeliveryDate]).toEqual([expected.date, expected.window, expected.requested]);
  const staff = (await findStaffOrder(test.db, order.orderId))!.shipping;
  expect([staff.deliveryDate, staff.deliveryWindow, staff.requestedDeliveryDate]).toEqual([expected.date, expected.window, expected.requested]);
  expect(await csvLineOf(order.orderNumber)).toContain(`,${expected.date},${deliveryWindowLabel(expected.window)},`);
  const exported = (await exportCustomerData(test.db, admin, customer.id, now))!.orders.find((row) => row.id === order.orderId)!;
  expect([exported.deliveryDate, exported.deliveryWindow, exported.requestedDeliveryDate]).toEqual([
    expected.date,
    expected.window,
    expected.requested ?? expected.date,
  ]);
}

describe("a delivery moved by staff", () => {
  it("Despacho's Reprogramar: every view shows the new date and window, the order keeps the one asked for, and a resent confirmation says the new one", async () => {
    const customer = await newCustomer(test.db, "reprogramar");
    const order = await placeFor(customer);
    await expectEverywhere(customer, order, { date: wednesday, window: "manana", requested: null });

    await rescheduleDeliveries(test.db, operaciones, { ids: [order.deliveryId], date: friday, deliveryWindow: "tarde", now, siteUrl });
    await expectEverywhere(customer, order, { date: friday, window: "tarde", requested: wednesday });
    const [row] = await test.db.select({ deliveryDate: orders.deliveryDate }).from(orders).where(eq(orders.id, order.orderId));
    expect(row!.deliveryDate).toBe(wednesday);
    // The account's order detail gives each delivery its date.
    expect((await findOrderForUser(test.db, customer.id, order.orderId))!.deliveries.map((each) => each.deliveryDate)).toEqual([friday]);

    expect(await resendOrderConfirmation(test.db, { orderId: order.orderId, requestKey: randomUUID(), actor: admin, siteUrl, now: new Date() })).toMatchObject({
      status: "sent",
    });
    const resent = await test.db
      .select({ text: outboxEmails.text })
      .from(outboxEmails)
      .where(like(outboxEmails.dedupeKey, `order-confirmation:${order.orderId}:resend:%`));
    expect(resent).toHaveLength(1);
    expect(resent[0]!.text).toContain("4 de junio");
    expect(resent[0]!.text).not.toContain("2 de junio");
  });

  it("Reprogramar el día: the orders of the closed day show the date each delivery went to", async () => {
    const closedDay = "2027-06-09";
    const customer = await newCustomer(test.db, "dia-cerrado");
    const placed = await placeOrder(test.db, checkoutInput(now, { correo: customer.email, fecha: closedDay }), {
      now,
      provider: "sandbox",
      userId: customer.id,
    });
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now, siteUrl });
    const [numbered] = await test.db.select({ orderNumber: orders.orderNumber }).from(orders).where(eq(orders.id, placed.orderId));

    const result = await rescheduleDay(test.db, operaciones, { date: closedDay, reason: "corte de agua", now, siteUrl });
    // Miraflores' next day after Wednesday 9 June is Friday 11 June.
    expect(result.moved.map((row) => row.to)).toEqual(["2027-06-11"]);
    await expectEverywhere(
      customer,
      { orderId: placed.orderId, orderNumber: numbered!.orderNumber },
      { date: "2027-06-11", window: "manana", requested: closedDay },
    );
  });

  it("a stop the driver could not deliver, given a new date: the cash order's confirmation, sent when the driver collects, says that date", async () => {
    const customer = await newCustomer(test.db, "no-entregado");
    const order = await placeFor(customer, "issue_code");
    await assignDeliveries(test.db, operaciones, { ids: [order.deliveryId], driverId: driver.id, now });
    // The driver confirms on the stop's day (decision 0071: only today's route).
    const stop = (confirmation: Parameters<typeof confirmDriverStop>[1]["confirmation"], on: string) =>
      confirmDriverStop(test.db, { deliveryId: order.deliveryId, driver, confirmation, now: limaNoon(on), siteUrl });
    expect(await stop({ kind: "on_the_way" }, wednesday)).toEqual({ ok: true, changed: true });
    expect(await stop({ kind: "failed", reason: "ausente", note: null }, wednesday)).toEqual({ ok: true, changed: true });
    await expectEverywhere(customer, order, { date: wednesday, window: "manana", requested: null });

    await rescheduleDeliveries(test.db, operaciones, { ids: [order.deliveryId], date: friday, deliveryWindow: "manana", now, siteUrl });
    await expectEverywhere(customer, order, { date: friday, window: "manana", requested: wednesday });

    await assignDeliveries(test.db, operaciones, { ids: [order.deliveryId], driverId: driver.id, now });
    expect(await stop({ kind: "on_the_way" }, friday)).toEqual({ ok: true, changed: true });
    expect(await stop({ kind: "delivered", receiverName: "Rosa Quispe", fullBidonesLeft: 0, emptyBidonesCollected: 0, collected: "cash" }, friday)).toEqual({
      ok: true,
      changed: true,
    });
    const [confirmation] = await test.db
      .select({ text: outboxEmails.text })
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `order-confirmation:${order.orderId}`));
    expect(confirmation!.text).toContain("4 de junio");
    expect(confirmation!.text).not.toContain("2 de junio");
    // Delivered, it is still the date it went out on.
    await expectEverywhere(customer, order, { date: friday, window: "manana", requested: wednesday });
  });
});

describe("a subscription's delivery that moves before or when it is created", () => {
  /** The renewal order of period 2 (billed on Wednesday 23 December 2026) and its deliveries. */
  async function renewalOrder(subscriptionId: string) {
    const [period] = await test.db
      .select({ orderId: subscriptionPeriods.orderId })
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscriptionId), eq(subscriptionPeriods.periodNumber, 2)));
    const [order] = await test.db.select().from(orders).where(eq(orders.id, period!.orderId!));
    const created = await test.db.select().from(deliveries).where(eq(deliveries.orderId, order!.id)).orderBy(asc(deliveries.deliveryDate));
    return { order: order!, deliveries: created };
  }

  it("the customer moves their paid next delivery before it is created: the renewal order says the new date", async () => {
    const customer = await newCustomer(test.db, "fecha-propia");
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    const as = (day: string) => ({ userId: customer.id, subscriptionId, requestKey: randomUUID(), now: limaNoon(day), siteUrl });
    // 20 Dec: the second delivery (not paid yet) moves beyond the week after the 23 Dec renewal, so
    // the renewal's order is written without a delivery.
    const first = (await loadSelfServiceOptions(test.db, customer.id, subscriptionId, limaNoon("2026-12-20")))!.deliveryDates.find(
      (date) => date > "2026-12-31",
    )!;
    expect((await changeNextDeliveryDate(test.db, { ...as("2026-12-20"), date: first })).ok).toBe(true);
    await runJobs(test.db, "2026-12-23", "2026-12-23");
    const renewal = await renewalOrder(subscriptionId);
    expect([renewal.order.deliveryDate, renewal.deliveries]).toEqual([first, []]);

    // 24 Dec: paid for, still not created; the customer moves it again.
    const second = (await loadSelfServiceOptions(test.db, customer.id, subscriptionId, limaNoon("2026-12-24")))!.deliveryDates.findLast(
      (date) => date !== first,
    )!;
    expect((await changeNextDeliveryDate(test.db, { ...as("2026-12-24"), date: second })).ok).toBe(true);
    await expectEverywhere(
      customer,
      { orderId: renewal.order.id, orderNumber: renewal.order.orderNumber },
      { date: second, window: "manana", requested: null },
    );

    // "Saltar entrega" moves that same paid delivery a month on (and the next charge with it): the order follows.
    expect((await skipNextDelivery(test.db, as("2026-12-24"))).ok).toBe(true);
    const [moved] = await test.db.select({ date: subscriptions.nextDeliveryDate }).from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(moved!.date! > second).toBe(true);
    await expectEverywhere(
      customer,
      { orderId: renewal.order.id, orderNumber: renewal.order.orderNumber },
      { date: moved!.date!, window: "manana", requested: null },
    );
  });

  it("the scheduler creates it on the next day with room when its day closed: the order shows that day and the customer is told", async () => {
    const customer = await newCustomer(test.db, "dia-lleno");
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    // The second delivery is due on Wednesday 30 December, created on the 23rd with the renewal.
    expect(await addClosedDay(test.db, operaciones, { date: "2026-12-30", kind: "cierre", name: "Inventario" })).toEqual({ ok: true });
    await runJobs(test.db, "2026-12-23", "2026-12-23");
    const renewal = await renewalOrder(subscriptionId);
    expect(renewal.order.deliveryDate).toBe("2026-12-30");
    expect(renewal.deliveries).toHaveLength(1);
    const moved = renewal.deliveries[0]!;
    expect(moved.deliveryDate > "2026-12-30").toBe(true);
    await expectEverywhere(
      customer,
      { orderId: renewal.order.id, orderNumber: renewal.order.orderNumber },
      { date: moved.deliveryDate, window: "manana", requested: "2026-12-30" },
    );
    const told = await test.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `delivery-rescheduled:${moved.id}:0`));
    expect(told).toHaveLength(1);
    expect(told[0]!.toAddress).toBe(customer.email);
    expect(told[0]!.subject).toBe(`Nueva fecha de entrega para tu pedido ${renewal.order.orderNumber}`);
    // Another pass of the job changes nothing and tells nobody twice.
    await runJobs(test.db, "2026-12-23", "2026-12-23");
    expect(
      await test.db
        .select()
        .from(outboxEmails)
        .where(like(outboxEmails.dedupeKey, `delivery-rescheduled:${moved.id}:%`)),
    ).toHaveLength(1);
  });
});

describe("an order with several deliveries (an annual plan has twelve)", () => {
  it("the staff CSV shows the first still to come (a failed one counts), else the last that went out or was called off, else the order's own date", async () => {
    const customer = await newCustomer(test.db, "varias-entregas");
    const order = await placeFor(customer);
    const [first] = await test.db.select().from(deliveries).where(eq(deliveries.id, order.deliveryId));
    const add = async (deliveryNumber: string, deliveryDate: string, deliveryWindow: string, status: string) => {
      const { districtId, districtName, address } = first!;
      const [row] = await test.db
        .insert(deliveries)
        .values({ orderId: order.orderId, deliveryNumber, districtId, districtName, address, deliveryDate, deliveryWindow, status })
        .returning({ id: deliveries.id });
      return row!.id;
    };
    const set = (id: string, values: Partial<typeof deliveries.$inferInsert>) => test.db.update(deliveries).set(values).where(eq(deliveries.id, id));
    const shown = () => csvDeliveryOf(order.orderNumber);

    // The order asked for Wednesday 2 June in the morning; its first delivery was moved to Friday afternoon.
    await set(order.deliveryId, { deliveryDate: friday, deliveryWindow: "tarde" });
    const second = await add("ENV-990002", "2027-06-09", "tarde", "scheduled");
    const third = await add("ENV-990003", "2027-06-16", "manana", "pending");
    expect(await shown()).toEqual(["2027-06-04", "Tarde (2pm - 6pm)"]);

    // The one still to come, though one that went out is earlier and another later.
    await set(order.deliveryId, { status: "delivered" });
    await set(third, { status: "delivered" });
    expect(await shown()).toEqual(["2027-06-09", "Tarde (2pm - 6pm)"]);

    // A failed one waits for its new date: still the one to come.
    await set(second, { status: "failed" });
    expect(await shown()).toEqual(["2027-06-09", "Tarde (2pm - 6pm)"]);

    // None to come: the latest that went out, or was called off.
    await set(second, { status: "cancelled" });
    expect(await shown()).toEqual(["2027-06-16", "Mañana (9am - 12pm)"]);
    await set(second, { deliveryDate: "2027-06-23" });
    expect(await shown()).toEqual(["2027-06-23", "Tarde (2pm - 6pm)"]);

    // Two to come on one day: the lower delivery number, whichever row was written first.
    await add("ENV-990005", "2027-06-30", "tarde", "pending");
    await add("ENV-990004", "2027-06-30", "manana", "pending");
    expect(await shown()).toEqual(["2027-06-30", "Mañana (9am - 12pm)"]);

    // No delivery at all: the date the order asked for.
    await test.db.delete(deliveries).where(eq(deliveries.orderId, order.orderId));
    expect(await shown()).toEqual(["2027-06-02", "Mañana (9am - 12pm)"]);
  });
});
