import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limaToday } from "@core/lima-dates";
import { MAX_OPEN_UNPAID_ORDERS, UNPAID_LIMIT_MESSAGE } from "@core/door-payment";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, districts, invoices, orderItems, orders, orderStatusChanges, outboxEmails, payments, siteSettings, users } from "@server/db/schema";
import { loadDispatchDay, listDriverStops } from "@server/deliveries/index.server";
import { applySandboxAction, confirmDriverStop } from "@server/order-flows/index.server";
import { findOrderReceipt } from "@server/orders/index.server";
import { loadCashBoxDay } from "@server/payments/index.server";
import { businessMetrics } from "@server/metrics/index.server";
import { checkoutInput, type CheckoutOverrides } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const siteUrl = "http://shop.test";

/** Issue 38: pago contra entrega, from the checkout to the driver's collection and the caja. */
describe("pago contra entrega", () => {
  let test: TestDatabase;
  let driver: StaffActor;
  const now = new Date();
  let phoneCounter = 0;

  /** A checkout paid at the door, each with its own phone and address unless told otherwise. */
  function doorCheckout(overrides: CheckoutOverrides = {}) {
    phoneCounter += 1;
    return checkoutInput(now, {
      telefono: `9${String(10_000_000 + phoneCounter * 7919).padStart(8, "0")}`,
      direccion: `Calle Las Palmeras ${phoneCounter * 11}`,
      formaPago: "contra_entrega",
      metodoContraEntrega: "efectivo",
      ...overrides,
    });
  }
  const place = (overrides: CheckoutOverrides = {}, userId: string | null = null) =>
    placeOrder(test.db, doorCheckout(overrides), { now, provider: "sandbox", userId, siteUrl });

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const email = `door-driver-${randomUUID().slice(0, 8)}@demo.pe`;
    driver = { id: `staff-${email}`, email, role: "repartidor", clientAddress: "127.0.0.1" };
    await test.db
      .insert(users)
      .values({ id: driver.id, name: "Pedro", email, emailVerified: true, firstName: "Pedro", lastName: "Puerta", role: "repartidor" });
  }, 120_000);
  afterAll(() => test.close());

  it("confirms the order at once: a pending cash payment with the note, no deadline, no comprobante, an e-mail that says what is paid", async () => {
    const placed = await place({ pagaCon: "100" });
    expect(placed).toMatchObject({ ok: true, nextStep: "pay_at_door", created: true });
    if (!placed.ok) return;
    const [order] = await test.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(order).toMatchObject({ status: "pending", expiresAt: null, paymentProvider: "contra_entrega", totalCents: 5990 });
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, placed.orderId));
    expect(payment).toMatchObject({ provider: "contra_entrega", status: "pending", method: "cash", paysWithCents: 10_000, amountCents: 5990, expiresAt: null });
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId))).toEqual([]);
    const [email] = await test.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `order-confirmation-door:${placed.orderId}`));
    expect(email!.subject).toBe(`Pedido ${placed.orderNumber} confirmado: pagas al recibir`);
    expect(email!.text).toContain("Pagarás S/ 59.90 al recibir (efectivo, llevamos vuelto de S/ 40.10)");
    const receipt = await findOrderReceipt(test.db, placed.orderId, { owner: true });
    expect(receipt!.payAtDoor).toBe("Pagarás S/ 59.90 al recibir (efectivo, llevamos vuelto de S/ 40.10)");
    // The owner's receipt lists the lines the order was priced with.
    const bought = await test.db.select().from(orderItems).where(eq(orderItems.orderId, placed.orderId)).orderBy(orderItems.id);
    expect(bought.length).toBeGreaterThan(0);
    expect(receipt!.details!.items).toEqual(
      bought.map(({ title, variantTitle, quantity, unitPriceCents, lineTotalCents }) => ({ title, variantTitle, quantity, unitPriceCents, lineTotalCents })),
    );

    // A repeated submit finds the same order and queues nothing more.
    const again = await placeOrder(
      test.db,
      { ...doorCheckout({ pagaCon: "100" }), checkoutKey: (await orderKey(placed.orderId))! },
      { now, provider: "sandbox", siteUrl },
    );
    expect(again).toMatchObject({ ok: true, orderId: placed.orderId, nextStep: "pay_at_door", created: false });
    expect(await test.db.select().from(payments).where(eq(payments.orderId, placed.orderId))).toHaveLength(1);
  });

  it("goes out with Despacho, shows the driver what to collect and the change, and is paid with its comprobante when the driver collects", async () => {
    const placed = await place({ pagaCon: "100" });
    if (!placed.ok) throw new Error("not placed");
    const today = limaToday(new Date());
    const [delivery] = await test.db
      .update(deliveries)
      .set({ assignedDriverId: driver.id, status: "scheduled", deliveryDate: today })
      .where(eq(deliveries.orderId, placed.orderId))
      .returning({ id: deliveries.id });
    const day = await loadDispatchDay(test.db, today);
    const dispatched = day.groups.flatMap((group) => group.deliveries).find((row) => row.id === delivery!.id);
    expect(dispatched?.amountToCollectCents).toBe(5990);
    const [stop] = (await listDriverStops(test.db, driver.id, new Date())).filter((row) => row.id === delivery!.id);
    expect(stop).toMatchObject({ amountToCollectCents: 5990, collectMethod: "cash", paysWithCents: 10_000 });

    // "Marcar entregado" without saying how it was collected is refused and changes nothing.
    const delivered = { kind: "delivered" as const, receiverName: "Rosa Quispe", fullBidonesLeft: 0, emptyBidonesCollected: 0 };
    const refused = await confirmDriverStop(test.db, {
      deliveryId: delivery!.id,
      driver,
      confirmation: { ...delivered, collected: null },
      now: new Date(),
      siteUrl,
    });
    expect(refused.ok).toBe(false);
    expect((await test.db.select().from(orders).where(eq(orders.id, placed.orderId)))[0]!.status).toBe("pending");

    const done = await confirmDriverStop(test.db, {
      deliveryId: delivery!.id,
      driver,
      confirmation: { ...delivered, collected: "cash" },
      now: new Date(),
      siteUrl,
    });
    expect(done).toEqual({ ok: true, changed: true });
    const [order] = await test.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(["paid", "processing", "shipped", "delivered"]).toContain(order!.status);
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, placed.orderId));
    expect(payment).toMatchObject({ status: "succeeded", collectedAtDoorBy: driver.email, method: "cash" });
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId))).toHaveLength(1);
    const box = (await loadCashBoxDay(test.db, today)).drivers.find((row) => row.driverEmail === driver.email);
    expect(box?.collections.map((row) => [row.orderNumber, row.amountCents, row.method])).toContainEqual([placed.orderNumber, 5990, "cash"]);
    const metrics = await businessMetrics(test.db, { from: today, to: today });
    expect(metrics.atDoor).toMatchObject({ orders: 1, cashCents: 5990, yapeCents: 0 });
  });

  it("refuses a note smaller than the total, a subscription, and what the settings do not offer, writing nothing", async () => {
    const before = await orderCount();
    expect(await place({ pagaCon: "50" })).toMatchObject({ ok: false, reason: "door_payment_unavailable", fieldErrors: { pagaCon: expect.any(String) } });
    await test.db.update(districts).set({ doorPayment: false }).where(eq(districts.id, 22));
    expect(await place()).toMatchObject({ ok: false, reason: "door_payment_unavailable", message: expect.stringContaining("distrito") });
    await test.db.update(districts).set({ doorPayment: true }).where(eq(districts.id, 22));
    await test.db.update(siteSettings).set({ doorPaymentMaxCents: 5000 });
    expect(await place()).toMatchObject({ ok: false, reason: "door_payment_unavailable", message: expect.stringContaining("S/ 50.00") });
    await test.db.update(siteSettings).set({ doorPaymentMaxCents: 50_000, doorPaymentCustomers: "delivered" });
    expect(await place()).toMatchObject({ ok: false, reason: "door_payment_unavailable", message: expect.stringContaining("ya recibieron") });
    await test.db.update(siteSettings).set({ doorPaymentCustomers: "all", doorPaymentEnabled: false });
    expect(await place()).toMatchObject({ ok: false, reason: "door_payment_unavailable" });
    await test.db.update(siteSettings).set({ doorPaymentEnabled: true });
    expect(await orderCount()).toBe(before);
  });

  it(`lets one phone or one address hold at most ${MAX_OPEN_UNPAID_ORDERS} unpaid orders, counting payment codes too, exactly under a burst`, async () => {
    const phone = "912340001";
    // One cash code (an online order whose customer chose a code) counts like a door order.
    const online = await placeOrder(test.db, checkoutInput(now, { telefono: phone, direccion: "Jr. Burst 1" }), { now, provider: "sandbox", siteUrl });
    if (!online.ok) throw new Error("not placed");
    await applySandboxAction(test.db, online.paymentId, "issue_code", { now, siteUrl });
    const burst = await Promise.all(Array.from({ length: 8 }, (_, index) => place({ telefono: phone, direccion: `Jr. Burst ${index + 2}` })));
    expect(burst.filter((result) => result.ok)).toHaveLength(MAX_OPEN_UNPAID_ORDERS - 1);
    expect(burst.filter((result) => !result.ok)).toEqual(
      Array.from({ length: 8 - (MAX_OPEN_UNPAID_ORDERS - 1) }, () => ({ ok: false, reason: "unpaid_limit", message: UNPAID_LIMIT_MESSAGE })),
    );
    // The same door under other phones ("Av. Larco 500" typed three ways).
    const typed = ["Av. Larco 500", "av larco 500", "AV. LARCO  500"];
    for (const direccion of typed) expect(await place({ direccion })).toMatchObject({ ok: true });
    expect(await place({ direccion: "Av Larco, 500" })).toMatchObject({ ok: false, reason: "unpaid_limit" });
    // Paid orders hold nothing: once one is cancelled or paid, the phone may order again.
    const [held] = await test.db.select({ id: orders.id }).from(orders).where(eq(orders.customerPhone, phone)).limit(1);
    await test.db.update(orders).set({ status: "cancelled" }).where(eq(orders.id, held!.id));
    expect(await place({ telefono: phone, direccion: "Jr. Burst 20" })).toMatchObject({ ok: true });
  });

  it("gives no payment code to a phone that holds the most unpaid orders, and codes last hours, not a day", async () => {
    const phone = "912340077";
    for (const index of [1, 2, 3]) expect(await place({ telefono: phone, direccion: `Pasaje Código ${index}` })).toMatchObject({ ok: true });
    const online = await placeOrder(test.db, checkoutInput(now, { telefono: phone, direccion: "Pasaje Código 9" }), { now, provider: "sandbox", siteUrl });
    if (!online.ok) throw new Error("not placed");
    // Card orders are not bounded (their attempt lapses in 30 minutes); a code would hold a fourth place.
    expect(await applySandboxAction(test.db, online.paymentId, "issue_code", { now, siteUrl })).toEqual({ ok: false, reason: "unpaid_limit" });
    expect((await test.db.select().from(payments).where(eq(payments.id, online.paymentId)))[0]).toMatchObject({ status: "created", paymentCode: null });

    const other = await placeOrder(test.db, checkoutInput(now, { telefono: "912340078", direccion: "Pasaje Código 10" }), {
      now,
      provider: "sandbox",
      siteUrl,
    });
    if (!other.ok) throw new Error("not placed");
    await applySandboxAction(test.db, other.paymentId, "issue_code", { now, siteUrl });
    const [code] = await test.db.select().from(payments).where(eq(payments.id, other.paymentId));
    expect(code!.expiresAt!.getTime() - now.getTime()).toBe(6 * 3_600_000);
  });

  it("writes who placed it in the order's history", async () => {
    const placed = await placeOrder(test.db, doorCheckout(), { now, provider: "sandbox", siteUrl, actor: "operaciones@demo.pe" });
    if (!placed.ok) throw new Error("not placed");
    const history = await test.db
      .select()
      .from(orderStatusChanges)
      .where(inArray(orderStatusChanges.orderId, [placed.orderId]));
    expect(history.map((row) => row.actor)).toEqual(["operaciones@demo.pe"]);
  });

  async function orderKey(orderId: string) {
    const [row] = await test.db.select({ key: orders.checkoutKey }).from(orders).where(eq(orders.id, orderId));
    return row?.key;
  }
  async function orderCount() {
    return (await test.db.select({ id: orders.id }).from(orders)).length;
  }
});
