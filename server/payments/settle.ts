import { eq } from "drizzle-orm";
import { orderPlanLabel } from "@core/delivery-cadence";
import { observePayment } from "../observability/index.server";
import type { Database } from "../db/client";
import { readBrandName } from "../content/index.server";
import { orderItems, orders, payments } from "../db/schema";
import { payAtDoorSentence } from "@core/door-payment";
import { issueInvoiceForPaidOrder, issueInvoicesForPaidOrders } from "../invoices/index.server";
import { enqueueEmail, enqueueEmails, type EmailMessage } from "../notifications/index.server";
import { orderConfirmationEmail } from "../notifications/index.server";
import { currentDelivery, lockAndCountUnpaidHolds, receiptPath, receiptUrl, unpaidHoldsFull, type CurrentDeliveryRow } from "../orders/index.server";
import { reorderUrl } from "../reorders/index.server";
import { orderClaimUrl } from "../accounts/index.server";
import type { DatabaseOrTransaction } from "../db/transaction";
import { inTransaction } from "../db/transaction";
import type { PaymentOrderSteps } from "./order-steps";
import { publicSiteUrl } from "../config/env";
import {
  enqueueWhatsappTemplate,
  enqueueWhatsappTemplates,
  orderConfirmedWhatsapp,
  paymentCodeWhatsapp,
  type WhatsappTemplateMessage,
} from "../whatsapp/index.server";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { pausedDeliveryNote } from "@core/delivery-labels";
import { formatLimaDate } from "@core/lima-dates";

export type PaymentMethod = "card" | "yape" | "cash";

export class PaymentNotFoundError extends Error {
  override name = "PaymentNotFoundError";
}

/**
 * A payment succeeded: in one transaction the payment is settled and `orderSteps.settled` marks the
 * order paid, numbers its invoice and queues its confirmation (order-flows, decision 0083). The
 * order and the payment row are locked first, so a replayed confirmation (double click, retried
 * webhook, two workers) finds it settled and changes nothing.
 */
export async function recordPaymentSucceeded(
  db: Database,
  paymentId: string,
  details: SettlementDetails,
  orderSteps: PaymentOrderSteps,
): Promise<{ orderId: string; alreadySettled: boolean }> {
  const settled = await inTransaction(db, (tx) => settlePaymentInTransaction(tx, paymentId, details, orderSteps));
  if (!settled.alreadySettled) observePayment("succeeded");
  return settled;
}

export interface SettlementDetails {
  now: Date;
  method: PaymentMethod;
  actor: string;
  siteUrl: string;
  providerReference?: string;
  /**
   * Set only by the late-settlement rule (late-payments.ts): the order ended because its payment
   * did not arrive in time, the money has now arrived and the order can still be honoured, so it
   * is re-opened to paid with this note in its history.
   */
  reopenNote?: string;
}

/**
 * Locks a payment's order, then the payment, in decision 0025's order (order before payment): every
 * path that touches both — settlement, expiry, a decline — takes them the same way round, so two of
 * them never wait on each other. The order id is read unlocked first; it never changes.
 */
export async function lockPaymentWithOrder(tx: DatabaseOrTransaction, paymentId: string) {
  const [owner] = await tx.select({ orderId: payments.orderId }).from(payments).where(eq(payments.id, paymentId));
  if (!owner) return undefined;
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, owner.orderId)).for("update");
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  return payment;
}

/** The body of `recordPaymentSucceeded`, for callers that settle inside a larger transaction (subscriptions). */
export async function settlePaymentInTransaction(
  tx: DatabaseOrTransaction,
  paymentId: string,
  details: SettlementDetails,
  orderSteps: PaymentOrderSteps,
): Promise<{ orderId: string; alreadySettled: boolean }> {
  const payment = await lockPaymentWithOrder(tx, paymentId);
  if (!payment) throw new PaymentNotFoundError(paymentId);
  if (payment.status === "succeeded") return { orderId: payment.orderId, alreadySettled: true };

  await tx
    .update(payments)
    .set({
      status: "succeeded",
      method: details.method,
      settledAt: details.now,
      updatedAt: details.now,
      providerReference: details.providerReference ?? payment.providerReference,
    })
    .where(eq(payments.id, paymentId));
  await orderSteps.settled(tx, payment.orderId, details);
  return { orderId: payment.orderId, alreadySettled: false };
}

/**
 * A paid order's paperwork, in the caller's transaction: its invoice numbered and its confirmation
 * email queued (once per order, by dedupe key). Settlement calls it; so does a card renewal, which
 * inserts its order already paid with its settled payment instead of settling a pending one. It
 * takes the invoice series counter, so callers do it after their other locks (decision 0025) and
 * as late as they can: the counter row is held until the transaction commits. `brandName` lets a
 * job that confirms thousands of orders read it once.
 */
export async function confirmPaidOrder(
  tx: DatabaseOrTransaction,
  order: typeof orders.$inferSelect,
  items: readonly ConfirmedItem[],
  details: { now: Date; siteUrl: string; brandName?: string; delivery?: CurrentDeliveryRow | null },
): Promise<void> {
  const invoice = await issueInvoiceForPaidOrder(tx, order, details.now);
  const brandName = details.brandName ?? (await readBrandName(tx));
  const attachUrl = await orderClaimUrl(tx, order, details.siteUrl);
  await enqueueEmail(tx, confirmationEmail(order, items, invoice.invoiceNumber, brandName, details.siteUrl, details.delivery ?? null, attachUrl), details.now);
  await enqueueWhatsappTemplate(tx, confirmationWhatsapp(order, details.siteUrl, details.delivery ?? null), details.now);
}

type ConfirmedItem = { title: string; variantTitle: string | null; quantity: number; lineTotalCents: number };

/**
 * `confirmPaidOrder` for a batch of paid orders whose lines the caller holds (a renewal pass
 * completing a claimed batch, decision 0046): the invoices numbered in one statement per series and
 * inserted in one, the e-mails queued in one. Same lock rule: call it last in the transaction.
 */
export async function confirmPaidOrders(
  tx: DatabaseOrTransaction,
  paid: readonly { order: typeof orders.$inferSelect; items: readonly (ConfirmedItem & { sku: string | null })[] }[],
  details: { now: Date; siteUrl: string; brandName: string },
): Promise<void> {
  const issued = await issueInvoicesForPaidOrders(
    tx,
    paid.map(({ order, items }) => ({ order, items: [...items] })),
    details.now,
  );
  // A renewal's order is its subscriber's; a guest order in a batch (none today) still gets its link.
  const attachUrls: (string | undefined)[] = [];
  for (const { order } of paid) attachUrls.push(order.userId ? undefined : await orderClaimUrl(tx, order, details.siteUrl));
  await enqueueEmails(
    tx,
    paid.map(({ order, items }, index) =>
      confirmationEmail(order, items, issued[index]!.invoiceNumber, details.brandName, details.siteUrl, null, attachUrls[index]),
    ),
    details.now,
  );
  // One statement for the batch too: only the numbers that opted in get one (decision 0074).
  await enqueueWhatsappTemplates(
    tx,
    paid.map(({ order }) => confirmationWhatsapp(order, details.siteUrl)),
    details.now,
  );
}

/**
 * Issue 38: an order to be paid at the door is confirmed when it is placed, without a payment: its
 * e-mail and WhatsApp say what the customer will pay and how. The comprobante and the "pagado"
 * e-mail follow when the driver collects (`settleCollectedAtDoor`); the WhatsApp confirmation is
 * not sent twice (one dedupe key per order).
 */
export async function confirmPayAtDoorOrder(tx: DatabaseOrTransaction, orderId: string, details: { now: Date; siteUrl: string }): Promise<void> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  const [payment] = await tx
    .select({ amountCents: payments.amountCents, method: payments.method, paysWithCents: payments.paysWithCents })
    .from(payments)
    .where(eq(payments.orderId, orderId));
  if (!order || !payment) throw new PaymentNotFoundError(orderId);
  const items = await tx
    .select({ title: orderItems.title, variantTitle: orderItems.variantTitle, quantity: orderItems.quantity, lineTotalCents: orderItems.lineTotalCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.id);
  const method = payment.method === "yape" ? "yape" : "cash";
  const sentence = payAtDoorSentence(payment.amountCents, method, payment.paysWithCents);
  const attachUrl = await orderClaimUrl(tx, order, details.siteUrl);
  const email = confirmationEmail(order, items, null, await readBrandName(tx), details.siteUrl, null, attachUrl, sentence);
  await enqueueEmail(tx, { ...email, dedupeKey: `order-confirmation-door:${order.id}` }, details.now);
  const amountLabel = sentence.replace(/^Pagarás /, "").replace(" al recibir (", ", a pagar al recibir (");
  await enqueueWhatsappTemplate(tx, confirmationWhatsapp(order, details.siteUrl, null, amountLabel), details.now);
}

function confirmationEmail(
  order: typeof orders.$inferSelect,
  items: readonly ConfirmedItem[],
  invoiceNumber: string | null,
  brandName: string,
  siteUrl: string,
  current: CurrentDeliveryRow | null = null,
  attachUrl?: string,
  payAtDoor?: string,
): EmailMessage {
  const delivery = currentDelivery(order, current);
  const email = orderConfirmationEmail({
    brandName,
    orderNumber: order.orderNumber,
    invoiceNumber,
    firstName: order.customerFirstName,
    totalCents: order.totalCents,
    plan: orderPlanLabel(order),
    items: [...items],
    address: order.address,
    districtName: order.districtName,
    deliveryDate: delivery.date,
    deliveryPausedUntil: delivery.pausedUntil,
    deliveryWindow: delivery.deliveryWindow,
    receiptUrl: receiptUrl(order.id, siteUrl),
    // Decision 0076: signed and expiring; it is dated by the order, so every copy of the e-mail carries the same link.
    reorderUrl: reorderUrl(order.id, { now: order.createdAt, siteUrl }),
    attachUrl,
    garantiaCents: order.garantiaCents,
    garantiaUnits: order.garantiaUnits,
    garantiaCreditCents: order.garantiaCreditCents,
    payAtDoor,
  });
  return { dedupeKey: `order-confirmation:${order.id}`, kind: "order-confirmation", to: order.customerEmail, ...email };
}

/** Issue 25: "pedido confirmado" on WhatsApp, beside the confirmation e-mail, for a number that opted in. */
function confirmationWhatsapp(
  order: typeof orders.$inferSelect,
  siteUrl: string,
  current: CurrentDeliveryRow | null = null,
  amountLabel?: string,
): WhatsappTemplateMessage {
  const delivery = currentDelivery(order, current);
  return orderConfirmedWhatsapp({
    ...whatsappRecipientOf(order, siteUrl),
    totalCents: order.totalCents,
    amountLabel,
    deliveryLabel: delivery.date
      ? `${formatLimaDate(delivery.date)}, ${deliveryWindowLabel(delivery.deliveryWindow)}`
      : pausedDeliveryNote(delivery.pausedUntil),
  });
}

/** The order of a payment still waiting for a code, when its phone or address holds the most unpaid orders allowed (issue 38). */
async function unpaidHoldsFullFor(tx: DatabaseOrTransaction, paymentId: string, now: Date): Promise<{ orderId: string } | null> {
  const [row] = await tx
    .select({ orderId: orders.id, phone: orders.customerPhone, districtId: orders.districtId, address: orders.address, status: payments.status })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.id, paymentId));
  if (!row || row.status !== "created") return null;
  const holds = await lockAndCountUnpaidHolds(tx, row, { now, excludeOrderId: row.orderId });
  return unpaidHoldsFull(holds) ? { orderId: row.orderId } : null;
}

/** Who an order's WhatsApp messages go to, and the order's signed page they link to. */
export function whatsappRecipientOf(order: typeof orders.$inferSelect, siteUrl: string) {
  return {
    orderId: order.id,
    orderNumber: order.orderNumber,
    firstName: order.customerFirstName,
    phone: order.customerPhone,
    userId: order.userId,
    email: order.customerEmail,
    siteUrl,
    orderPath: receiptPath(order.id),
  };
}

/** A payment was declined: the attempt and its order (`orderSteps.failed`) end as failed (a settled payment is never undone here). */
export async function recordPaymentFailed(
  db: Database,
  paymentId: string,
  details: { now: Date; actor: string; message: string },
  orderSteps: PaymentOrderSteps,
) {
  const failed = await inTransaction(db, async (tx) => {
    const payment = await lockPaymentWithOrder(tx, paymentId);
    if (!payment) throw new PaymentNotFoundError(paymentId);
    if (payment.status === "succeeded" || payment.status === "failed") return { orderId: payment.orderId, changed: false };
    await tx.update(payments).set({ status: "failed", failureMessage: details.message, updatedAt: details.now }).where(eq(payments.id, paymentId));
    await orderSteps.failed(tx, payment.orderId, details);
    return { orderId: payment.orderId, changed: true };
  });
  if (failed.changed) observePayment("failed");
  return failed;
}

/** A cash/Yape code was handed to the customer: the order waits for it until it expires (`orderSteps.codeIssued`). */
export async function recordPaymentCodeIssued(
  db: Database,
  paymentId: string,
  details: {
    now: Date;
    actor: string;
    code: string;
    expiresAt: Date;
    method: PaymentMethod;
    providerReference?: string;
    siteUrl?: string;
    /**
     * Issue 38: refuse the code when the order's phone or address already holds the most unpaid
     * orders it may. The sandbox asks before handing a code; a code Culqi already gave the customer
     * is recorded whatever (createCulqiOrderForPayment stops offering codes instead).
     */
    boundUnpaidHolds?: boolean;
  },
  orderSteps: PaymentOrderSteps,
): Promise<{ orderId: string; code: string | null; refused?: "unpaid_limit" }> {
  return inTransaction(db, async (tx) => {
    if (details.boundUnpaidHolds) {
      // Decision 0025: the hold locks before the order and payment rows (read unlocked first: a phone and address never change).
      const full = await unpaidHoldsFullFor(tx, paymentId, details.now);
      if (full) return { orderId: full.orderId, code: null, refused: "unpaid_limit" as const };
    }
    const payment = await lockPaymentWithOrder(tx, paymentId);
    if (!payment) throw new PaymentNotFoundError(paymentId);
    if (payment.status !== "created") return { orderId: payment.orderId, code: payment.paymentCode };
    await tx
      .update(payments)
      .set({
        status: "pending",
        method: details.method,
        paymentCode: details.code,
        expiresAt: details.expiresAt,
        providerReference: details.providerReference ?? null,
        updatedAt: details.now,
      })
      .where(eq(payments.id, paymentId));
    await orderSteps.codeIssued(tx, payment.orderId, details);
    // Issue 25: the code and its deadline on WhatsApp too, for a number that opted in.
    const [order] = await tx.select().from(orders).where(eq(orders.id, payment.orderId));
    await enqueueWhatsappTemplate(
      tx,
      paymentCodeWhatsapp({
        ...whatsappRecipientOf(order!, details.siteUrl ?? publicSiteUrl()),
        paymentId,
        code: details.code,
        amountCents: payment.amountCents,
        method: details.method,
        expiresAt: details.expiresAt,
      }),
      details.now,
    );
    return { orderId: payment.orderId, code: details.code };
  });
}
