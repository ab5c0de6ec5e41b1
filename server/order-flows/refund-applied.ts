import { and, eq, sql } from "drizzle-orm";
import { formatSoles } from "@core/money";
import { readBrandName } from "../content/index.server";
import { orderStatusChanges, payments, refunds, type orders } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { issueCreditNoteForRefund } from "../invoices/index.server";
import { enqueueEmail, orderRefundedEmail, paymentRefundedEmail, type RefundChannel } from "../notifications/index.server";
import { canTransition, receiptUrl, transitionOrder, type OrderStatus } from "../orders/index.server";
import { isStaffRefund, refundChannel, type RefundReason } from "../payments/index.server";

/**
 * What a refund that just succeeded means for its order (decisions.md, Back office): when the
 * refunds of the payment now add up to all it captured and the machine allows it, the order is
 * `refunded`; otherwise it keeps its state and its history records the amount. The customer's email
 * is queued with a key per refund, so it leaves once. The caller (payments, when a refund is done)
 * holds the order's lock; this is its `PaymentOrderSteps.refunded` (decision 0083).
 */
export async function applyRefundToOrder(
  tx: DatabaseOrTransaction,
  order: typeof orders.$inferSelect,
  refund: typeof refunds.$inferSelect,
  input: { now: Date; siteUrl: string },
) {
  const { now } = input;
  const brandName = await readBrandName(tx);
  const orderPage = receiptUrl(order.id, input.siteUrl);

  if (!isStaffRefund(refund)) {
    const note = `Reembolso automático de ${refund.chargeReference} (${refund.reason})`;
    if (order.status === "cancelled" || order.status === "failed") {
      await transitionOrder(tx, order.id, "refunded", { actor: "system", now, note });
    } else {
      // A second payment of a paid order: the order itself goes on; its history says what happened.
      await tx
        .insert(orderStatusChanges)
        .values({ orderId: order.id, fromStatus: order.status, toStatus: order.status, actor: "system", note, createdAt: now });
    }
    const email = paymentRefundedEmail({
      brandName,
      firstName: order.customerFirstName,
      orderNumber: order.orderNumber,
      amountCents: refund.amountCents,
      reason: refund.reason as RefundReason,
      receiptUrl: orderPage,
    });
    await enqueueEmail(tx, { dedupeKey: `payment-refunded:${refund.id}`, kind: "payment-refunded", to: order.customerEmail, ...email }, now);
    return;
  }

  // Money given back on an invoiced sale: its nota de crédito, numbered in this same transaction
  // (decision 0045). Automatic refunds give back charges that were never invoiced.
  if (refund.invoiceId) await issueCreditNoteForRefund(tx, refund, now);
  const [payment] = await tx.select().from(payments).where(eq(payments.id, refund.paymentId));
  const [given] = await tx
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, refund.paymentId), eq(refunds.chargeReference, refund.chargeReference), eq(refunds.status, "succeeded")));
  const refundedCents = Number(given?.cents ?? 0);
  const full = payment !== undefined && refundedCents >= payment.amountCents;
  const actor = refund.requestedBy ?? "system";
  const reasonText = refund.note ?? "";
  if (full && canTransition(order.status as OrderStatus, "refunded")) {
    await transitionOrder(tx, order.id, "refunded", { actor, now, note: `Reembolso total de ${formatSoles(refund.amountCents)}: ${reasonText}` });
  } else {
    await tx.insert(orderStatusChanges).values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: order.status,
      actor,
      note: `Reembolso de ${formatSoles(refund.amountCents)} (reembolsado en total: ${formatSoles(refundedCents)}): ${reasonText}`,
      createdAt: now,
    });
  }
  const channel: RefundChannel = payment ? refundChannel(payment) : "manual";
  const email = orderRefundedEmail({
    brandName,
    firstName: order.customerFirstName,
    orderNumber: order.orderNumber,
    amountCents: refund.amountCents,
    full,
    channel,
    reason: reasonText,
    receiptUrl: orderPage,
  });
  await enqueueEmail(tx, { dedupeKey: `order-refunded:${refund.id}`, kind: "order-refunded", to: order.customerEmail, ...email }, now);
}
