import { readFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { migrationsFolder } from "@server/db/project-files";
import { deliveries, orders } from "@server/db/schema";
import { listDeliveriesForUser } from "@server/deliveries/index.server";
import { applySandboxAction, expireUnpaidOrders } from "@server/order-flows/index.server";
import { transitionOrder } from "@server/orders/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { newCustomer } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 2026-11-24, 10:00 in Lima; the checkout fixture's delivery is Wednesday the 25th in Miraflores.
const now = new Date("2026-11-24T15:00:00Z");
const siteUrl = "http://shop.test";

/** An order can fail or be cancelled before it ships; its delivery must then never stay upcoming. */
describe("deliveries of orders that ended without being delivered", () => {
  let test: TestDatabase;
  let customer: { id: string; email: string };
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    customer = await newCustomer(test.db, "entregas");
  });
  afterAll(() => test.close());

  async function place() {
    const placed = await placeOrder(
      test.db,
      checkoutInput(now, { correo: customer.email, items: [{ productId: 6, variantId: null, quantity: 1 }], clientSubtotalCents: 5990 }),
      { now, provider: "sandbox", userId: customer.id },
    );
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
    return placed;
  }
  const deliveryOf = async (orderId: string) => (await test.db.select().from(deliveries).where(eq(deliveries.orderId, orderId)))[0]!;
  const upcomingOrderIds = async () => (await listDeliveriesForUser(test.db, customer.id, { filter: "upcoming", now })).map((row) => row.orderId);

  it("cancels the delivery of an order whose card was declined", async () => {
    const placed = await place();
    expect(await upcomingOrderIds()).toContain(placed.orderId);
    await applySandboxAction(test.db, placed.paymentId, "decline_card", { now, siteUrl });
    const delivery = await deliveryOf(placed.orderId);
    expect(delivery.status).toBe("cancelled");
    expect(delivery.statusHistory.map((entry) => entry.status)).toEqual(["pending", "cancelled"]);
    expect(await upcomingOrderIds()).not.toContain(placed.orderId);
  });

  it("cancels the delivery of an unpaid order when it expires", async () => {
    const placed = await place();
    await applySandboxAction(test.db, placed.paymentId, "issue_code", { now, siteUrl });
    const [order] = await test.db.select({ expiresAt: orders.expiresAt }).from(orders).where(eq(orders.id, placed.orderId));
    await expireUnpaidOrders(test.db, new Date(order!.expiresAt!.getTime() + 1000));
    expect((await test.db.select({ status: orders.status }).from(orders).where(eq(orders.id, placed.orderId)))[0]!.status).toBe("cancelled");
    expect((await deliveryOf(placed.orderId)).status).toBe("cancelled");
    expect(await upcomingOrderIds()).not.toContain(placed.orderId);
  });

  it("cancels the delivery of a paid order the shop cancels, and keeps a paid order's delivery", async () => {
    const cancelled = await place();
    const kept = await place();
    for (const placed of [cancelled, kept]) await applySandboxAction(test.db, placed.paymentId, "approve_card", { now, siteUrl });
    await test.db.transaction((tx) => transitionOrder(tx, cancelled.orderId, "cancelled", { actor: "staff", now }));
    expect((await deliveryOf(cancelled.orderId)).status).toBe("cancelled");
    expect((await deliveryOf(kept.orderId)).status).toBe("pending");
    const upcoming = await upcomingOrderIds();
    expect(upcoming).toContain(kept.orderId);
    expect(upcoming).not.toContain(cancelled.orderId);
  });

  it("fixes, by migration, deliveries left pending by orders that ended before this rule", async () => {
    const placed = await place();
    await applySandboxAction(test.db, placed.paymentId, "decline_card", { now, siteUrl });
    // What the shop wrote before: the order failed, its delivery still pending.
    await test.db
      .update(deliveries)
      .set({ status: "pending", statusHistory: [{ status: "pending", timestamp: now.toISOString(), note: null }] })
      .where(eq(deliveries.orderId, placed.orderId));
    const paid = await place();
    await applySandboxAction(test.db, paid.paymentId, "approve_card", { now, siteUrl });
    expect(await upcomingOrderIds()).toContain(placed.orderId);

    await test.db.execute(sql.raw(await readFile(path.join(migrationsFolder, "0009_cancel_deliveries_of_ended_orders.sql"), "utf8")));
    const fixed = await deliveryOf(placed.orderId);
    expect(fixed.status).toBe("cancelled");
    expect(fixed.statusHistory.map((entry) => [entry.status, entry.note])).toEqual([
      ["pending", null],
      ["cancelled", "Pago rechazado: pedido fallido"],
    ]);
    expect(Number.isNaN(Date.parse(fixed.statusHistory[1]!.timestamp))).toBe(false);
    expect((await deliveryOf(paid.orderId)).status).toBe("pending");
    expect(await upcomingOrderIds()).not.toContain(placed.orderId);
  });
});
