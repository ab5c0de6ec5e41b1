import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders, orderStatusChanges } from "../db/schema";
import { canReopenForLatePayment, canTransition, InvalidOrderTransitionError, type OrderStatus } from "./order-status";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type DatabaseOrTransaction = Database | Transaction;

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
  await db.insert(orderStatusChanges).values({ orderId, fromStatus: from, toStatus: to, actor: change.actor, note: change.note ?? null, createdAt: change.now });
  return true;
}
