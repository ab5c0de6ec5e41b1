import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, invoiceSeries, invoices, orderItems, orders, orderStatusChanges, outboxEmails, payments } from "@server/db/schema";
import { applySandboxAction, recordPaymentSucceeded } from "@server/order-flows/index.server";
import { checkoutInput, type CheckoutOverrides } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 2026-11-24, 10:00 in Lima. Miraflores (id 22 in the seed) is served on 1, 3, 5.
const now = new Date("2026-11-24T15:00:00Z");
const siteUrl = "http://shop.test";

/** Caja 20 L (S/ 59.90) + 2 × Pack x 12 of 625 ml (S/ 30.00) = S/ 119.90 */
function checkout(overrides: CheckoutOverrides = {}) {
  return checkoutInput(now, {
    items: [
      { productId: 6, variantId: null, quantity: 1 },
      { productId: 1, variantId: 1, quantity: 2 },
    ],
    clientSubtotalCents: 11990,
    ...overrides,
  });
}

describe("checkout and payment", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("creates the order, its items, delivery, first status and payment attempt, priced by the server", async () => {
    const result = await placeOrder(test.db, checkout(), { now, provider: "sandbox" });
    expect(result).toMatchObject({ ok: true, nextStep: "process_payment", created: true });
    if (!result.ok) return;
    const [order] = await test.db.select().from(orders).where(eq(orders.id, result.orderId));
    expect(order).toMatchObject({ status: "pending", subtotalCents: 11990, totalCents: 11990, districtName: "Miraflores", customerEmail: "rosa@example.pe" });
    expect(order!.orderNumber).toMatch(/^VA-\d{6}$/);
    const items = await test.db.select().from(orderItems).where(eq(orderItems.orderId, result.orderId)).orderBy(asc(orderItems.id));
    expect(items.map((item) => [item.title, item.unitPriceCents, item.quantity, item.lineTotalCents])).toEqual([
      ["Caja de 20 L con dispensador", 5990, 1, 5990],
      ["Agua alcalina personal 625 ml", 3000, 2, 6000],
    ]);
    const [delivery] = await test.db.select().from(deliveries).where(eq(deliveries.orderId, result.orderId));
    expect(delivery).toMatchObject({ deliveryDate: "2026-11-25", deliveryWindow: "manana", status: "pending" });
    const [payment] = await test.db.select().from(payments).where(eq(payments.id, result.paymentId));
    expect(payment).toMatchObject({ status: "created", amountCents: 11990, provider: "sandbox" });
  });

  it("refuses a tampered subtotal and hands back the server's prices instead", async () => {
    const result = await placeOrder(test.db, checkout({ clientSubtotalCents: 100 }), { now, provider: "sandbox" });
    expect(result).toMatchObject({ ok: false, reason: "cart_changed" });
    if (result.ok || result.reason !== "cart_changed") return;
    expect(result.lines.map((line) => line.unitPriceCents)).toEqual([5990, 3000]);
  });

  it("refuses a variant that is not for sale and a cart under S/ 50", async () => {
    const inactive = await placeOrder(test.db, checkout({ items: [{ productId: 5, variantId: 15, quantity: 1 }], clientSubtotalCents: 38000 }), {
      now,
      provider: "sandbox",
    });
    expect(inactive).toMatchObject({ ok: false, reason: "cart_changed", unavailable: [{ productId: 5, variantId: 15, quantity: 1 }] });
    const small = await placeOrder(test.db, checkout({ items: [{ productId: 3, variantId: 7, quantity: 1 }], clientSubtotalCents: 1590 }), {
      now,
      provider: "sandbox",
    });
    expect(small).toEqual({ ok: false, reason: "minimum", shortfallCents: 3410, subtotalCents: 1590 });
  });

  it("checks the delivery date in Lima time against the district's weekdays", async () => {
    const sameDay = await placeOrder(test.db, checkout({ diaHabil: 2, fecha: "2026-11-24" }), { now, provider: "sandbox" });
    expect(sameDay).toEqual({ ok: false, reason: "invalid", fieldErrors: { diaHabil: "Selecciona un día habilitado" } });
    // 23:30 on Tuesday in Lima is already Wednesday in UTC: it is still Tuesday for the rules, but
    // past the 18:00 cut-off, so Wednesday is refused and Friday is bookable (issue 10).
    const lateTuesday = new Date("2026-11-25T04:30:00Z");
    expect(await placeOrder(test.db, checkout(), { now: lateTuesday, provider: "sandbox" })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { fecha: "Los pedidos para mañana se reciben hasta las 18:00. Elige otra fecha." },
    });
    expect(await placeOrder(test.db, checkout({ diaHabil: 5, fecha: "2026-11-27" }), { now: lateTuesday, provider: "sandbox" })).toMatchObject({ ok: true });
    const wednesday = new Date("2026-11-25T05:30:00Z");
    expect(await placeOrder(test.db, checkout(), { now: wednesday, provider: "sandbox" })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { fecha: "Requiere mínimo 1 día de anticipación" },
    });
  });

  it("gives the same order for a repeated or simultaneous submit of one checkout", async () => {
    const input = checkout();
    const [first, second] = await Promise.all([
      placeOrder(test.db, input, { now, provider: "sandbox" }),
      placeOrder(test.db, input, { now, provider: "sandbox" }),
    ]);
    const third = await placeOrder(test.db, input, { now, provider: "sandbox" });
    expect(first.ok && second.ok && third.ok).toBe(true);
    if (!first.ok || !second.ok || !third.ok) return;
    expect(new Set([first.orderId, second.orderId, third.orderId]).size).toBe(1);
    const rows = await test.db.select().from(orders).where(eq(orders.checkoutKey, input.checkoutKey));
    expect(rows).toHaveLength(1);
  });

  it("answers a repeated submit with the order it placed even when a new checkout would now be refused", async () => {
    const input = checkout();
    const first = await placeOrder(test.db, input, { now, provider: "sandbox" });
    expect(first).toMatchObject({ ok: true, created: true });
    // 23:30 on Tuesday in Lima: past the cut-off for Wednesday, and the visitor's subtotal is stale.
    const lateTuesday = new Date("2026-11-25T04:30:00Z");
    expect(await placeOrder(test.db, checkout(), { now: lateTuesday, provider: "sandbox" })).toMatchObject({ ok: false, reason: "invalid" });
    expect(await placeOrder(test.db, input, { now: lateTuesday, provider: "sandbox" })).toEqual({ ...first, created: false });
    expect(await placeOrder(test.db, { ...input, clientSubtotalCents: 100 }, { now, provider: "sandbox" })).toEqual({ ...first, created: false });
    expect(await test.db.select().from(orders).where(eq(orders.checkoutKey, input.checkoutKey))).toHaveLength(1);
  });

  it("settles a payment once: paid order, one invoice, one confirmation email, even when confirmed twice at once", async () => {
    const placed = await placeOrder(test.db, checkout(), { now, provider: "sandbox" });
    if (!placed.ok) throw new Error("order not placed");
    const confirm = () => recordPaymentSucceeded(test.db, placed.paymentId, { now, method: "card", actor: "test", siteUrl });
    const results = await Promise.all([confirm(), confirm()]);
    expect(results.map((result) => result.alreadySettled).sort()).toEqual([false, true]);
    expect((await confirm()).alreadySettled).toBe(true);

    const [order] = await test.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(order).toMatchObject({ status: "paid", paymentMethod: "card" });
    const orderInvoices = await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId));
    expect(orderInvoices).toHaveLength(1);
    expect(orderInvoices[0]).toMatchObject({ series: "B001", documentType: "boleta", totalCents: 11990, taxableCents: 10161, igvCents: 1829 });
    const emails = await test.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `order-confirmation:${placed.orderId}`));
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toBe(`Pedido ${order!.orderNumber} confirmado`);
    expect(emails[0]!.html).toContain(orderInvoices[0]!.invoiceNumber);
    const changes = await test.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, placed.orderId)).orderBy(asc(orderStatusChanges.id));
    expect(changes.map((change) => change.toStatus)).toEqual(["pending", "paid"]);
  });

  it("numbers invoices per series without gaps or repeats under concurrent payments", async () => {
    // The demo history already used some numbers: new ones must follow on from them.
    const before = new Map((await test.db.select().from(invoiceSeries)).map((row) => [row.series, row.lastNumber]));
    const placedOrders = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        placeOrder(test.db, checkout(index % 4 === 0 ? { ruc: "20100070970", razonSocial: "Empresa SAC" } : {}), { now, provider: "sandbox" }),
      ),
    );
    await Promise.all(
      placedOrders.map((placed) => {
        if (!placed.ok) throw new Error("order not placed");
        return recordPaymentSucceeded(test.db, placed.paymentId, { now, method: "card", actor: "test", siteUrl });
      }),
    );
    const orderIds = placedOrders.map((placed) => (placed.ok ? placed.orderId : ""));
    const all = await test.db
      .select({ series: invoices.series, number: invoices.number, invoiceNumber: invoices.invoiceNumber })
      .from(invoices)
      .where(inArray(invoices.orderId, orderIds));
    for (const series of ["B001", "F001"]) {
      const numbers = all
        .filter((invoice) => invoice.series === series)
        .map((invoice) => invoice.number)
        .sort((a, b) => a - b);
      const first = (before.get(series) ?? 0) + 1;
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => first + index));
    }
    expect(all.filter((invoice) => invoice.series === "F001")).toHaveLength(2);
    expect(all.filter((invoice) => invoice.series === "B001")).toHaveLength(6);
  });

  it("runs the sandbox: a declined card fails the order, a cash code waits and is then paid", async () => {
    const declined = await placeOrder(test.db, checkout(), { now, provider: "sandbox" });
    if (!declined.ok) throw new Error("order not placed");
    await applySandboxAction(test.db, declined.paymentId, "decline_card", { now, siteUrl });
    expect((await test.db.select().from(orders).where(eq(orders.id, declined.orderId)))[0]?.status).toBe("failed");
    // A late approval of the declined attempt changes nothing.
    await applySandboxAction(test.db, declined.paymentId, "approve_card", { now, siteUrl });
    expect((await test.db.select().from(orders).where(eq(orders.id, declined.orderId)))[0]?.status).toBe("failed");

    const cash = await placeOrder(test.db, checkout(), { now, provider: "sandbox" });
    if (!cash.ok) throw new Error("order not placed");
    await applySandboxAction(test.db, cash.paymentId, "issue_code", { now, siteUrl });
    const [pending] = await test.db.select().from(payments).where(eq(payments.id, cash.paymentId));
    expect(pending).toMatchObject({ status: "pending", method: "cash" });
    expect(pending!.paymentCode).toMatch(/^\d{8}$/);
    expect((await test.db.select().from(orders).where(eq(orders.id, cash.orderId)))[0]?.status).toBe("payment_created");
    await applySandboxAction(test.db, cash.paymentId, "pay_code", { now, siteUrl });
    expect((await test.db.select().from(orders).where(eq(orders.id, cash.orderId)))[0]).toMatchObject({ status: "paid", paymentMethod: "cash" });
  });

  it("refuses to approve a card attempt after its payment window", async () => {
    const placed = await placeOrder(test.db, checkout(), { now, provider: "sandbox" });
    if (!placed.ok) throw new Error("order not placed");
    const later = new Date(now.getTime() + 31 * 60_000);
    expect(await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: later, siteUrl })).toEqual({ ok: false, reason: "expired" });
    expect((await test.db.select().from(orders).where(eq(orders.id, placed.orderId)))[0]?.status).toBe("pending");
  });
});
