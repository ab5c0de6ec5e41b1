import { and, eq, inArray, sql } from "drizzle-orm";
import { deliveries, orders, orderStatusChanges } from "../db/schema";
import { canReopenForLatePayment, canTransition, InvalidOrderTransitionError, type OrderStatus } from "./order-status";

export type { DatabaseOrTransaction } from "../db/transaction";
import type { DatabaseOrTransaction } from "../db/transaction";

/**
 * Moves an order to `to` if the machine allows it, recording who did it. The update is guarded by
 * the status read, so two concurrent transitions cannot both apply. Returns false when the order
 * is already in `to` (a repeated request), throws when the move is not allowed.
 */
export async function transitionOrder(
  db: DatabaseOrTransaction,
  orderId: string,
  to: OrderStatus,
  change: { actor: string; note?: string; now: Date; set?: Partial<typeof orders.$inferInsert>; reopenForLatePayment?: boolean },
): Promise<boolean> {
  const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order) throw new Error(`Order ${orderId} not found`);
  const from = order.status as OrderStatus;
  if (from === to) return false;
  if (!canTransition(from, to) && !(change.reopenForLatePayment && canReopenForLatePayment(from, to))) throw new InvalidOrderTransitionError(from, to);
  const updated = await db
    .update(orders)
    .set({ ...change.set, status: to, updatedAt: change.now })
    .where(and(eq(orders.id, orderId), eq(orders.status, from)))
    .returning({ id: orders.id });
  if (updated.length === 0) return false;
  await db
    .insert(orderStatusChanges)
    .values({ orderId, fromStatus: from, toStatus: to, actor: change.actor, note: change.note ?? null, createdAt: change.now });
  if (to === "failed" || to === "cancelled") await cancelDeliveriesOfEndedOrder(db, orderId, to, change.now);
  return true;
}

/**
 * Delivery statuses still waiting to go out. An order can only fail or be cancelled before it is
 * shipped, so its deliveries are at most scheduled (or failed, waiting for a new date).
 */
export const DELIVERY_STATUSES_BEFORE_DISPATCH = ["pending", "preparing", "scheduled", "rescheduled", "failed"] as const;

/**
 * An order that failed or was cancelled will never be delivered: its deliveries are cancelled in
 * the same transaction (after the order row, the lock order of the decision records), so none is
 * left "Pendiente" among the customer's upcoming deliveries nor holds a place in the day's capacity.
 */
async function cancelDeliveriesOfEndedOrder(db: DatabaseOrTransaction, orderId: string, to: "failed" | "cancelled", now: Date) {
  const entry = { status: "cancelled", timestamp: now.toISOString(), note: to === "failed" ? "Pago rechazado: pedido fallido" : "Pedido cancelado" };
  await db
    .update(deliveries)
    .set({ status: "cancelled", statusHistory: sql`${deliveries.statusHistory} || ${JSON.stringify([entry])}::jsonb`, updatedAt: now })
    .where(and(eq(deliveries.orderId, orderId), inArray(deliveries.status, [...DELIVERY_STATUSES_BEFORE_DISPATCH])));
}
