/**
 * After a fault, every order the scenario made must have ended in one of two clean shapes:
 * paid and complete (its confirmation queued too), or unpaid with nothing of a paid order about it.
 */
import { sql } from "drizzle-orm";
import type { Database } from "@server/db/client";

export type OrderOutcome = "paid" | "unpaid";

export interface OrderShape {
  id: string;
  orderNumber: string;
  status: string;
  checkoutKey: string | null;
  settledPayments: number;
  openPayments: number;
  invoices: number;
  confirmations: number;
}

export async function orderShapes(db: Database, where: { emailLike: string }): Promise<OrderShape[]> {
  const result = (await db.execute(sql`
    select o.id, o.order_number as "orderNumber", o.status, o.checkout_key as "checkoutKey",
      (select count(*)::int from payments p where p.order_id = o.id and p.status = 'succeeded') as "settledPayments",
      (select count(*)::int from payments p where p.order_id = o.id and p.status in ('created', 'pending')) as "openPayments",
      (select count(*)::int from invoices v where v.order_id = o.id) as invoices,
      (select count(*)::int from outbox_emails e where e.dedupe_key = 'order-confirmation:' || o.id::text) as confirmations
    from orders o where o.customer_email like ${where.emailLike} order by o.created_at`)) as unknown as { rows: OrderShape[] };
  return result.rows;
}

/** "paid" or "unpaid" when the order is in a clean shape; otherwise a description of what is wrong. */
export function classifyOrder(order: OrderShape): OrderOutcome | string {
  if (["paid", "processing", "shipped", "delivered"].includes(order.status)) {
    return order.settledPayments === 1 && order.invoices === 1 && order.confirmations === 1
      ? "paid"
      : `${order.orderNumber} is ${order.status} with ${order.settledPayments} settled payments, ${order.invoices} invoices, ${order.confirmations} confirmations`;
  }
  const unpaid = ["pending", "payment_created", "failed", "cancelled"].includes(order.status);
  if (unpaid && order.settledPayments === 0 && order.invoices === 0 && order.confirmations === 0) {
    // An order that stopped being payable keeps no open payment attempt.
    if ((order.status === "cancelled" || order.status === "failed") && order.openPayments > 0)
      return `${order.orderNumber} is ${order.status} with an open payment attempt`;
    return "unpaid";
  }
  return `${order.orderNumber} is ${order.status} with ${order.settledPayments} settled payments, ${order.invoices} invoices, ${order.confirmations} confirmations`;
}
