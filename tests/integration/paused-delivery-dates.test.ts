// Decision 0066: an order whose paid delivery waits for its paused subscription says so on every
// page, export and e-mail that names the order's delivery, and the date it comes on once resumed.
import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { exportCustomerData } from "@server/customers/index.server";
import { deliveries, orders, outboxEmails, subscriptionEvents, subscriptionPeriods, users } from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { inTransaction } from "@server/db/transaction";
import { transitionDeliveries } from "@server/deliveries/index.server";
import { findOrderForUser, findOrderReceipt, findStaffOrder, resendOrderConfirmation, staffOrdersCsvStream } from "@server/orders/index.server";
import { changeNextDeliveryDate, pauseSubscription, resumeSubscriptionNow } from "@server/subscriptions/index.server";
import { limaNoon, newCustomer, runJobs, siteUrl, start, subscribe } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Every fixture subscription starts on Monday 23 November 2026 in Miraflores (served Monday,
// Wednesday and Friday): first delivery Wednesday 25 November, renewal on 23 December.

let test: TestDatabase;
let admin: StaffActor;
beforeAll(async () => {
  test = await createTestDatabase("seeded");
  const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email));
  admin = { id: row!.id, email: DEMO_ADMIN.email, role: "admin", clientAddress: "127.0.0.1" };
});
afterAll(() => test.close());

type Customer = { id: string; email: string };
type Order = { id: string; orderNumber: string };

/** A subscriber, the context of their self-service actions on a day, and the order of a paid period. */
async function subscriber(prefix: string) {
  const customer = await newCustomer(test.db, prefix);
  const subscriptionId = await subscribe(test.db, customer, "mensual");
  const as = (day: string) => ({ userId: customer.id, subscriptionId, requestKey: randomUUID(), now: limaNoon(day), siteUrl });
  const orderOfPeriod = async (periodNumber: number): Promise<Order> => {
    const [period] = await test.db
      .select({ orderId: subscriptionPeriods.orderId })
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscriptionId), eq(subscriptionPeriods.periodNumber, periodNumber)));
    const [order] = await test.db.select({ id: orders.id, orderNumber: orders.orderNumber }).from(orders).where(eq(orders.id, period!.orderId!));
    return order!;
  };
  return { customer, subscriptionId, as, orderOfPeriod };
}

const deliveriesOf = (order: Order) =>
  test.db
    .select({ id: deliveries.id, date: deliveries.deliveryDate, status: deliveries.status })
    .from(deliveries)
    .where(eq(deliveries.orderId, order.id))
    .orderBy(asc(deliveries.createdAt));

async function csvLineOf(orderNumber: string): Promise<string> {
  const text = await new Response(staffOrdersCsvStream(test.db, { q: orderNumber })).text();
  return text.split("\r\n").find((line) => line.startsWith(`${orderNumber},`))!;
}

/**
 * What the receipt, the account's order detail, the staff order detail, the staff CSV and the
 * customer export say about the order's delivery: a date (`requested` when it moved), or no date
 * and the pause's last day.
 */
async function expectEverywhere(
  customer: Customer,
  order: Order,
  expected: { date: string | null; pausedUntil: string | null; requested: string | null; asked: string },
) {
  const shown = [expected.date, expected.pausedUntil, expected.requested];
  const receipt = (await findOrderReceipt(test.db, order.id, { owner: true }))!.details!;
  expect([receipt.deliveryDate, receipt.deliveryPausedUntil, receipt.requestedDeliveryDate]).toEqual(shown);
  const mine = (await findOrderForUser(test.db, customer.id, order.id))!.shipping;
  expect([mine.deliveryDate, mine.deliveryPausedUntil, mine.requestedDeliveryDate]).toEqual(shown);
  const staff = (await findStaffOrder(test.db, order.id))!.shipping;
  expect([staff.deliveryDate, staff.deliveryPausedUntil, staff.requestedDeliveryDate]).toEqual(shown);
  expect([receipt.deliveryWindow, mine.deliveryWindow, staff.deliveryWindow]).toEqual(["manana", "manana", "manana"]);
  const cell = expected.date ?? `En pausa hasta ${expected.pausedUntil}`;
  expect(await csvLineOf(order.orderNumber)).toContain(`,${cell},Mañana (9am - 12pm),`);
  const exported = (await exportCustomerData(test.db, admin, customer.id, start))!.orders.find((row) => row.id === order.id)!;
  expect([exported.deliveryDate, exported.deliveryPausedUntil, exported.requestedDeliveryDate]).toEqual([expected.date, expected.pausedUntil, expected.asked]);
}

describe("a paid delivery held back by a pause", () => {
  it("handed back: every view says it waits for the pause, a resend says so too; resumed, the date it is created again on", async () => {
    const { customer, subscriptionId, as, orderOfPeriod } = await subscriber("pausa-devuelta");
    // 23 Dec: period 2 is charged and its delivery created for Wednesday 30 December.
    await runJobs(test.db, "2026-12-23", "2026-12-23");
    const renewal = await orderOfPeriod(2);
    const first = await orderOfPeriod(1);
    await expectEverywhere(customer, renewal, { date: "2026-12-30", pausedUntil: null, requested: null, asked: "2026-12-30" });

    // 26 Dec: paused until Friday 8 January; the 30 December delivery is handed back.
    const paused = await pauseSubscription(test.db, { ...as("2026-12-26"), until: "2027-01-08" });
    expect(paused).toMatchObject({
      ok: true,
      message:
        "Suscripción pausada: se reanudará el 8 de enero de 2027. Mientras tanto no haremos cobros ni entregas. La entrega ya pagada del 30 de diciembre de 2026 queda en pausa: la programaremos al reanudarse tu suscripción.",
    });
    expect((await deliveriesOf(renewal)).map(({ date, status }) => ({ date, status }))).toEqual([{ date: "2026-12-30", status: "cancelled" }]);
    await expectEverywhere(customer, renewal, { date: null, pausedUntil: "2027-01-08", requested: null, asked: "2026-12-30" });
    // The checkout's order, whose delivery the pause left alone, keeps its date.
    await expectEverywhere(customer, first, { date: "2026-11-25", pausedUntil: null, requested: null, asked: "2026-11-25" });

    expect(await resendOrderConfirmation(test.db, { orderId: renewal.id, requestKey: randomUUID(), actor: admin, siteUrl, now: new Date() })).toMatchObject({
      status: "sent",
    });
    const [resent] = await test.db
      .select({ text: outboxEmails.text, html: outboxEmails.html })
      .from(outboxEmails)
      .where(like(outboxEmails.dedupeKey, `order-confirmation:${renewal.id}:resend:%`));
    expect(resent!.text).toContain("Entrega: En pausa hasta el 8 de enero de 2027: la entregaremos cuando se reanude tu suscripción, ");
    expect(resent!.text).not.toContain("30 de diciembre");

    // 4 Jan: resumed by the customer. The delivery owed comes on the first served day from
    // tomorrow (Tuesday 5 is not served: Wednesday 6); the customer reads it before it is created.
    expect(await resumeSubscriptionNow(test.db, as("2027-01-04"))).toMatchObject({
      ok: true,
      message: "Suscripción reanudada. Próximo cobro: 23 de enero de 2027. Próxima entrega: 6 de enero de 2027.",
    });
    const resumedEmails = await test.db
      .select({ text: outboxEmails.text })
      .from(outboxEmails)
      .where(like(outboxEmails.dedupeKey, `subscription-change:${subscriptionId}:resume:%`));
    expect(resumedEmails.map((email) => email.text.includes("Próxima entrega: 6 de enero de 2027."))).toEqual([true]);
    await expectEverywhere(customer, renewal, { date: "2027-01-06", pausedUntil: null, requested: "2026-12-30", asked: "2026-12-30" });

    // The scheduler creates it again, for the same order, on that date.
    await runJobs(test.db, "2027-01-04", "2027-01-04");
    expect((await deliveriesOf(renewal)).map(({ date, status }) => ({ date, status }))).toEqual([
      { date: "2026-12-30", status: "cancelled" },
      { date: "2027-01-06", status: "pending" },
    ]);
    await expectEverywhere(customer, renewal, { date: "2027-01-06", pausedUntil: null, requested: "2026-12-30", asked: "2026-12-30" });
  });

  it("paid but not created yet: the renewal's order waits for the pause, which ends by itself and tells the customer the new date", async () => {
    const { customer, subscriptionId, as, orderOfPeriod } = await subscriber("pausa-sin-envio");
    // The second delivery moves to Monday 4 January, beyond the week after the 23 December renewal:
    // the renewal's order is paid with no delivery yet.
    expect(await changeNextDeliveryDate(test.db, { ...as("2026-12-20"), date: "2027-01-04" })).toMatchObject({ ok: true });
    await runJobs(test.db, "2026-12-23", "2026-12-23");
    const renewal = await orderOfPeriod(2);
    expect((await deliveriesOf(renewal)).map(({ date, status }) => ({ date, status }))).toEqual([]);

    expect(await pauseSubscription(test.db, { ...as("2026-12-24"), until: "2027-01-15" })).toMatchObject({
      ok: true,
      message:
        "Suscripción pausada: se reanudará el 15 de enero de 2027. Mientras tanto no haremos cobros ni entregas. La entrega ya pagada del 4 de enero de 2027 queda en pausa: la programaremos al reanudarse tu suscripción.",
    });
    await expectEverywhere(customer, renewal, { date: null, pausedUntil: "2027-01-15", requested: null, asked: "2027-01-04" });

    // 15 Jan: the pause ends by itself; Saturday 16 is not served, so Monday 18. One e-mail, however often the job runs.
    await runJobs(test.db, "2027-01-15", "2027-01-15");
    await runJobs(test.db, "2027-01-15", "2027-01-15");
    const told = await test.db
      .select({ text: outboxEmails.text, to: outboxEmails.toAddress })
      .from(outboxEmails)
      .where(like(outboxEmails.dedupeKey, `subscription-resumed:${subscriptionId}:%`));
    expect(told).toHaveLength(1);
    expect(told[0]!.to).toBe(customer.email);
    expect(told[0]!.text).toContain(
      "Tu pausa terminó y tu suscripción está activa de nuevo. Próximo cobro: 23 de enero de 2027. Próxima entrega: 18 de enero de 2027.",
    );
    const [event] = await test.db
      .select({ description: subscriptionEvents.description })
      .from(subscriptionEvents)
      .where(and(eq(subscriptionEvents.subscriptionId, subscriptionId), eq(subscriptionEvents.kind, "resumed")));
    expect(event!.description).toBe("Suscripción reanudada al terminar la pausa. Próximo cobro: 23 de enero de 2027. Próxima entrega: 18 de enero de 2027.");
    expect((await deliveriesOf(renewal)).map(({ date, status }) => ({ date, status }))).toEqual([{ date: "2027-01-18", status: "pending" }]);
    await expectEverywhere(customer, renewal, { date: "2027-01-18", pausedUntil: null, requested: "2027-01-04", asked: "2027-01-04" });
  });

  it("created again on an earlier day and delivered: the order shows it, never the handed-back one", async () => {
    const { customer, as, orderOfPeriod } = await subscriber("pausa-reemplazada");
    await runJobs(test.db, "2026-12-23", "2026-12-23");
    const renewal = await orderOfPeriod(2);
    expect(await pauseSubscription(test.db, { ...as("2026-12-24"), until: "2026-12-30" })).toMatchObject({ ok: true });
    expect(await resumeSubscriptionNow(test.db, as("2026-12-26"))).toMatchObject({
      ok: true,
      message: "Suscripción reanudada. Próximo cobro: 23 de enero de 2027. Próxima entrega: 30 de diciembre de 2026.",
    });
    // The customer brings it forward to Monday 28 December; the scheduler creates it that day.
    expect(await changeNextDeliveryDate(test.db, { ...as("2026-12-26"), date: "2026-12-28" })).toMatchObject({ ok: true });
    await runJobs(test.db, "2026-12-26", "2026-12-26");
    const [handedBack, again] = await deliveriesOf(renewal);
    expect([handedBack!.date, handedBack!.status, again!.date, again!.status]).toEqual(["2026-12-30", "cancelled", "2026-12-28", "pending"]);
    await inTransaction(test.db, (tx) => transitionDeliveries(tx, [again!.id], "delivered", { actor: admin.email, note: null, now: limaNoon("2026-12-28") }));
    await expectEverywhere(customer, renewal, { date: "2026-12-28", pausedUntil: null, requested: "2026-12-30", asked: "2026-12-30" });
  });
});
