import { and, eq, sql } from "drizzle-orm";
import { deliveries, orderItems, orders } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { currentDeliveryOf, transitionOrder } from "../orders/index.server";
import { confirmPaidOrder, type PaymentOrderSteps, type SettlementDetails } from "../payments/index.server";

/**
 * A payment succeeded and payments has settled its row: the order is marked paid (re-opened first
 * when the late-settlement rule says so, its called-off deliveries with it), its invoice numbered
 * and its confirmation e-mail and WhatsApp queued, in the payment's transaction.
 */
async function orderPaid(tx: DatabaseOrTransaction, orderId: string, details: SettlementDetails): Promise<void> {
  await transitionOrder(tx, orderId, "paid", {
    actor: details.actor,
    now: details.now,
    note: details.reopenNote,
    reopenForLatePayment: details.reopenNote !== undefined,
    set: { paidAt: details.now, paymentMethod: details.method, expiresAt: null },
  });
  if (details.reopenNote !== undefined) await reopenCancelledDeliveries(tx, orderId, details.now, details.reopenNote);
  // A cash or Yape order can be moved by Despacho before its money arrives: the e-mail says the date it has now (decision 0062).
  const [row] = await tx
    .select({ order: orders, current: currentDeliveryOf(orders.id) })
    .from(orders)
    .where(eq(orders.id, orderId));
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, row!.order.id));
  await confirmPaidOrder(tx, row!.order, items, { ...details, delivery: row!.current });
}

/** A re-opened order's deliveries come back if they were called off with it. */
async function reopenCancelledDeliveries(tx: DatabaseOrTransaction, orderId: string, now: Date, note: string) {
  const entry = JSON.stringify([{ status: "pending", timestamp: now.toISOString(), note }]);
  await tx
    .update(deliveries)
    .set({ status: "pending", statusHistory: sql`${deliveries.statusHistory} || ${entry}::jsonb`, updatedAt: now })
    .where(and(eq(deliveries.orderId, orderId), eq(deliveries.status, "cancelled")));
}

/**
 * What a payment's outcome does to its order (decision 0083): payments settles, declines or issues
 * a code on its own rows and calls these in the same transaction, where it used to move the order.
 */
export const paymentMovesOrder: Pick<PaymentOrderSteps, "settled" | "failed" | "codeIssued"> = {
  settled: orderPaid,
  async failed(tx, orderId, details) {
    await transitionOrder(tx, orderId, "failed", { actor: details.actor, now: details.now, note: details.message });
  },
  async codeIssued(tx, orderId, details) {
    await transitionOrder(tx, orderId, "payment_created", { actor: details.actor, now: details.now, set: { expiresAt: details.expiresAt } });
  },
};
