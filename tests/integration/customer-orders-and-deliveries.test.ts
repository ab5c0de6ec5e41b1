import { randomUUID } from "node:crypto";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveries, invoices, orderItems, orders, payments, users, type DeliveryStatusEntry } from "@server/db/schema";
import { findDeliveryForUser, listDeliveriesForUser } from "@server/deliveries/index.server";
import { findOrderForUser, listOrdersForUser } from "@server/orders/index.server";
import { DEMO_CUSTOMER } from "@server/db/seed/demo-accounts";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// 21:00 on Tuesday 2026-11-24 in Lima, already Wednesday the 25th by the UTC clock: "today" is the 24th.
const now = new Date("2026-11-25T02:00:00Z");

describe("a customer's orders and deliveries", () => {
  let test: TestDatabase;
  let demoId: string;
  let otherId: string;
  /** The other customer's deliveries by a short name, to read the expectations at a glance. */
  const ids: Record<string, string> = {};
  let otherOrderId: string;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [demo] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    demoId = demo!.id;
    otherId = await insertCustomer(test, "lucia@prueba.pe");
    otherOrderId = await insertOrder(test, otherId, {
      type: "one-time",
      items: [
        ["Agua alcalina deportiva 1 L", "Pack x 12", 2, 3600],
        ["Caja de 20 L con dispensador", null, 1, 5990],
      ],
    });
    const subscriptionOrder = await insertOrder(test, otherId, { type: "subscription", items: [["Bidón 20 L", "Recarga x 3", 1, 4500]] });
    const plan: [string, string, string, string][] = [
      // name, order, date, status
      ["pastScheduled", subscriptionOrder, "2026-11-23", "scheduled"],
      ["todayOnTheRoad", otherOrderId, "2026-11-24", "in_transit"],
      ["tomorrow", subscriptionOrder, "2026-11-25", "scheduled"],
      ["pending", subscriptionOrder, "2026-11-27", "pending"],
      ["preparing", subscriptionOrder, "2026-11-28", "preparing"],
      ["shipped", subscriptionOrder, "2026-11-30", "shipped"],
      ["sixthUpcoming", subscriptionOrder, "2026-12-02", "scheduled"],
      ["deliveredLately", subscriptionOrder, "2026-11-20", "delivered"],
      ["deliveredEarlier", subscriptionOrder, "2026-11-10", "delivered"],
      ["cancelled", subscriptionOrder, "2026-11-26", "cancelled"],
      ["rescheduled", subscriptionOrder, "2026-11-29", "rescheduled"],
      ["failed", subscriptionOrder, "2026-11-22", "failed"],
    ];
    for (const [name, orderId, deliveryDate, status] of plan) ids[name] = await insertDelivery(test, orderId, { deliveryDate, status });
  });
  afterAll(() => test.close());

  describe("orders", () => {
    it("pages the demo customer's 14 orders newest first, 10 at a time, with the total", async () => {
      const first = await listOrdersForUser(test.db, demoId, { page: 1 });
      const second = await listOrdersForUser(test.db, demoId, { page: 2 });
      expect(first.total).toBe(14);
      expect(second.total).toBe(14);
      expect(first.rows).toHaveLength(10);
      expect(second.rows).toHaveLength(4);
      const all = [...first.rows, ...second.rows];
      const newestFirst = await test.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, demoId)).orderBy(desc(orders.createdAt));
      expect(all.map((row) => row.id)).toEqual(newestFirst.map((row) => row.id));
      expect(all.map((row) => row.orderType)).toContain("subscription");
      expect(first.rows[0]).toMatchObject({ orderNumber: expect.stringMatching(/^VA-\d{6}$/), status: "payment_created", orderType: "one-time" });
      expect((await listOrdersForUser(test.db, demoId, { page: 3 })).rows).toEqual([]);
      expect((await listOrdersForUser(test.db, demoId, { page: 2, pageSize: 5 })).rows.map((row) => row.id)).toEqual(
        newestFirst.slice(5, 10).map((row) => row.id),
      );
    });

    it("shows each customer only their own orders", async () => {
      const other = await listOrdersForUser(test.db, otherId, { page: 1 });
      expect(other.total).toBe(2);
      expect(other.rows.map((row) => row.orderType).sort()).toEqual(["one-time", "subscription"]);
      const stranger = await insertCustomer(test, "sin-pedidos@prueba.pe");
      expect(await listOrdersForUser(test.db, stranger, { page: 1 })).toEqual({ rows: [], total: 0 });
    });

    it("loads an order with its lines, latest payment, shipping, deliveries and invoice", async () => {
      const [paidWithInvoice] = await test.db
        .select({
          id: orders.id,
          orderNumber: orders.orderNumber,
          totalCents: orders.totalCents,
          invoiceId: invoices.id,
          invoiceNumber: invoices.invoiceNumber,
        })
        .from(orders)
        .innerJoin(invoices, eq(invoices.orderId, orders.id))
        .innerJoin(deliveries, eq(deliveries.orderId, orders.id))
        .where(and(eq(orders.userId, demoId), isNotNull(deliveries.trackingCode), eq(orders.status, "delivered")))
        .limit(1);
      const order = await findOrderForUser(test.db, demoId, paidWithInvoice!.id);
      expect(order).toMatchObject({
        orderNumber: paidWithInvoice!.orderNumber,
        status: "delivered",
        totalCents: paidWithInvoice!.totalCents,
        payment: { method: "card", status: "succeeded", paymentCode: null },
        shipping: { recipient: "María Fernández", address: "Av. José Larco 1234, dpto. 502", districtName: "Miraflores", deliveryWindow: "manana" },
        invoice: { id: paidWithInvoice!.invoiceId, invoiceNumber: paidWithInvoice!.invoiceNumber },
      });
      expect(order!.items.length).toBeGreaterThan(0);
      expect(order!.items.reduce((sum, line) => sum + line.lineTotalCents, 0)).toBe(order!.subtotalCents);
      expect(order!.deliveries).toEqual([
        { id: expect.any(String), deliveryNumber: expect.stringMatching(/^ENV-\d{6}$/), status: "delivered", deliveryDate: order!.shipping.deliveryDate },
      ]);
    });

    it("reports the latest payment attempt when an order had several", async () => {
      await test.db.insert(payments).values([
        { orderId: otherOrderId, provider: "sandbox", method: "card", status: "failed", amountCents: 13190, createdAt: new Date("2026-11-20T10:00:00Z") },
        {
          orderId: otherOrderId,
          provider: "sandbox",
          method: "yape",
          status: "pending",
          paymentCode: "12345678",
          amountCents: 13190,
          createdAt: new Date("2026-11-20T10:05:00Z"),
        },
      ]);
      const order = await findOrderForUser(test.db, otherId, otherOrderId);
      expect(order!.payment).toEqual({ method: "yape", status: "pending", paymentCode: "12345678" });
      expect(order!.items.map((line) => [line.title, line.quantity, line.lineTotalCents])).toEqual([
        ["Agua alcalina deportiva 1 L", 2, 7200],
        ["Caja de 20 L con dispensador", 1, 5990],
      ]);
      expect(order!.invoice).toBeNull();
    });

    it("answers null for another customer's, an unknown or a malformed order id", async () => {
      const [demoOrder] = await test.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, demoId)).limit(1);
      expect(await findOrderForUser(test.db, otherId, demoOrder!.id)).toBeNull();
      expect(await findOrderForUser(test.db, demoId, otherOrderId)).toBeNull();
      expect(await findOrderForUser(test.db, demoId, randomUUID())).toBeNull();
      for (const malformed of ["abc", "1' or '1'='1", `${demoOrder!.id}x`, ""]) expect(await findOrderForUser(test.db, demoId, malformed)).toBeNull();
    });
  });

  describe("deliveries", () => {
    const names = (rows: { id: string }[]) => rows.map((row) => Object.keys(ids).find((name) => ids[name] === row.id) ?? "not this customer's");

    it("lists the next five open deliveries from today in Lima, soonest first, even when UTC is already tomorrow", async () => {
      const rows = await listDeliveriesForUser(test.db, otherId, { now });
      expect(names(rows)).toEqual(["todayOnTheRoad", "tomorrow", "pending", "preparing", "shipped"]);
      expect(await listDeliveriesForUser(test.db, otherId, { filter: "upcoming", now })).toEqual(rows);
      expect(await listDeliveriesForUser(test.db, otherId, { now, limit: 3 })).toEqual(rows.slice(0, 3));
      // An hour later, midnight has passed in Lima too: the 24th is no longer upcoming.
      const nextDay = await listDeliveriesForUser(test.db, otherId, { now: new Date("2026-11-25T05:30:00Z") });
      expect(names(nextDay)).toEqual(["tomorrow", "pending", "preparing", "shipped", "sixthUpcoming"]);
    });

    it("describes each row with its order number and what is being delivered", async () => {
      const [today] = await listDeliveriesForUser(test.db, otherId, { now });
      const [order] = await test.db.select({ orderNumber: orders.orderNumber }).from(orders).where(eq(orders.id, otherOrderId));
      expect(today).toMatchObject({
        deliveryDate: "2026-11-24",
        deliveryWindow: "tarde",
        status: "in_transit",
        address: "Jr. Las Palmeras 456",
        districtName: "Miraflores",
        orderId: otherOrderId,
        orderNumber: order!.orderNumber,
        itemSummary: "2 × Agua alcalina deportiva 1 L (Pack x 12), 1 × Caja de 20 L con dispensador",
      });
    });

    it("puts shipped and in-transit deliveries under 'En camino', newest date first", async () => {
      expect(names(await listDeliveriesForUser(test.db, otherId, { filter: "in_transit", now }))).toEqual(["shipped", "todayOnTheRoad"]);
    });

    it("lists delivered ones newest first, and every delivery under 'Todos'", async () => {
      expect(names(await listDeliveriesForUser(test.db, otherId, { filter: "delivered", now }))).toEqual(["deliveredLately", "deliveredEarlier"]);
      const all = await listDeliveriesForUser(test.db, otherId, { filter: "all", now });
      expect(all).toHaveLength(12);
      expect(names(all)).not.toContain("not this customer's");
      const dates = all.map((row) => row.deliveryDate);
      expect(dates).toEqual([...dates].sort().reverse());
    });

    it("never lists another customer's deliveries", async () => {
      const demoAll = await listDeliveriesForUser(test.db, demoId, { filter: "all", now });
      expect(demoAll.length).toBeGreaterThan(0);
      expect(demoAll.map((row) => row.id)).not.toContain(ids.todayOnTheRoad);
      const demoOrderIds = new Set((await test.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, demoId))).map((row) => row.id));
      expect(demoAll.every((row) => demoOrderIds.has(row.orderId))).toBe(true);
    });

    it("loads a delivery with its order, lines, totals and history oldest first", async () => {
      const delivery = await findDeliveryForUser(test.db, otherId, ids.todayOnTheRoad!);
      expect(delivery).toMatchObject({
        deliveryNumber: expect.stringMatching(/^ENV-\d{6}$/),
        status: "in_transit",
        deliveryDate: "2026-11-24",
        trackingCode: "TRK-2026-11-24",
        order: { id: otherOrderId, subtotalCents: 13190, discountCents: 0, shippingCents: 0, totalCents: 13190 },
      });
      expect(delivery!.items).toHaveLength(2);
      expect(delivery!.statusHistory.map((entry) => entry.status)).toEqual(["pending", "preparing", "scheduled", "shipped", "in_transit"]);
    });

    it("answers null for another customer's, an unknown or a malformed delivery id", async () => {
      const [demoDelivery] = await listDeliveriesForUser(test.db, demoId, { filter: "all", now });
      expect(await findDeliveryForUser(test.db, otherId, demoDelivery!.id)).toBeNull();
      expect(await findDeliveryForUser(test.db, demoId, ids.todayOnTheRoad!)).toBeNull();
      expect(await findDeliveryForUser(test.db, otherId, randomUUID())).toBeNull();
      for (const malformed of ["abc", "' or 1=1 --", "ENV-001001"]) expect(await findDeliveryForUser(test.db, otherId, malformed)).toBeNull();
    });
  });
});

async function insertCustomer(test: TestDatabase, email: string): Promise<string> {
  const id = randomUUID();
  await test.db.insert(users).values({ id, name: "Lucía Ramos", email, emailVerified: true, firstName: "Lucía", lastName: "Ramos" });
  return id;
}

let orderCount = 0;

/** An order of this customer, priced from its lines (`[title, variant, quantity, unit price]`). */
async function insertOrder(test: TestDatabase, userId: string, order: { type: string; items: [string, string | null, number, number][] }): Promise<string> {
  orderCount += 1;
  const subtotal = order.items.reduce((sum, [, , quantity, price]) => sum + quantity * price, 0);
  const [row] = await test.db
    .insert(orders)
    .values({
      userId,
      status: "paid",
      orderType: order.type,
      customerFirstName: "Lucía",
      customerLastName: "Ramos",
      customerEmail: "lucia@prueba.pe",
      customerPhone: "912345678",
      documentType: "dni",
      documentNumber: "12345678",
      districtId: 22,
      districtName: "Miraflores",
      address: "Jr. Las Palmeras 456",
      deliveryDate: "2026-11-24",
      deliveryWindow: "tarde",
      subtotalCents: subtotal,
      discountCents: 0,
      totalCents: subtotal,
      paymentProvider: "sandbox",
      createdAt: new Date(Date.UTC(2026, 10, orderCount)),
    })
    .returning({ id: orders.id });
  await test.db.insert(orderItems).values(
    order.items.map(([title, variantTitle, quantity, unitPriceCents]) => ({
      orderId: row!.id,
      productId: 1,
      title,
      variantTitle,
      quantity,
      unitPriceCents,
      lineTotalCents: quantity * unitPriceCents,
    })),
  );
  return row!.id;
}

const pathTo: Record<string, string[]> = {
  pending: ["pending"],
  preparing: ["pending", "preparing"],
  scheduled: ["pending", "preparing", "scheduled"],
  shipped: ["pending", "preparing", "scheduled", "shipped"],
  in_transit: ["pending", "preparing", "scheduled", "shipped", "in_transit"],
  delivered: ["pending", "preparing", "scheduled", "shipped", "in_transit", "delivered"],
  cancelled: ["pending", "cancelled"],
  rescheduled: ["pending", "preparing", "scheduled", "rescheduled"],
  failed: ["pending", "preparing", "scheduled", "shipped", "failed"],
};

/** A delivery whose history is stored newest first, to show the reader sorts it. */
async function insertDelivery(test: TestDatabase, orderId: string, delivery: { deliveryDate: string; status: string }): Promise<string> {
  const history: DeliveryStatusEntry[] = pathTo[delivery.status]!.map((status, index) => ({
    status,
    timestamp: new Date(Date.UTC(2026, 10, 1, index)).toISOString(),
    note: null,
  }));
  const [row] = await test.db
    .insert(deliveries)
    .values({
      orderId,
      districtId: 22,
      districtName: "Miraflores",
      address: "Jr. Las Palmeras 456",
      deliveryDate: delivery.deliveryDate,
      deliveryWindow: "tarde",
      status: delivery.status,
      statusHistory: history.reverse(),
      trackingCode: `TRK-${delivery.deliveryDate}`,
    })
    .returning({ id: deliveries.id });
  return row!.id;
}
