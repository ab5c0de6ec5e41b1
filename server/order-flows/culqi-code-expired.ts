import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { transitionOrder } from "../orders/index.server";
import { paymentOrderSteps } from "./payment-entry-points";
import { expireOpenPayment, handleCulqiWebhookEvent, type CulqiClient, type CulqiWebhookInput, type WebhookOutcome } from "../payments/index.server";

/**
 * Culqi's webhook (payments.md A.9), with the shop's answer to a code that expired: the adapter in
 * payments checks, reads and settles; what moves the order is here, one floor above (decision 0083).
 */
export function handleCulqiWebhook(db: Database, client: CulqiClient, input: CulqiWebhookInput): Promise<WebhookOutcome> {
  return handleCulqiWebhookEvent(db, client, input, paymentOrderSteps, (payment, { now }) => cancelOrderForExpiredCode(db, payment, now));
}

/**
 * A Culqi code expired (or its Culqi order was deleted): its payment attempt ends as expired and,
 * if the order was still waiting for it, the order is cancelled, in one transaction. Answers whether
 * the payment changed, so a replayed event reads as not applied.
 */
async function cancelOrderForExpiredCode(db: Database, payment: { id: string; orderId: string }, now: Date): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    // Decision 0025: the order before its payment.
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, payment.orderId)).for("update");
    if (!(await expireOpenPayment(tx, payment.id, now))) return false;
    // Only a still-open order is cancelled; one the expiry job already closed (or another payment
    // paid) keeps its status.
    const [order] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(and(eq(orders.id, payment.orderId), inArray(orders.status, ["pending", "payment_created"])));
    if (!order) return true;
    return transitionOrder(tx, payment.orderId, "cancelled", { actor: "culqi-webhook", now, note: "Código de pago vencido" });
  });
}
