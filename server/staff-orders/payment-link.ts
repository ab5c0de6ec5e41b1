import { asc, eq } from "drizzle-orm";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaDate } from "@core/lima-dates";
import { readBrandName } from "../content/index.server";
import type { Database } from "../db/client";
import { orders, payments } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { enqueueEmail, paymentLinkEmail } from "../notifications/index.server";
import { receiptPath } from "../orders/index.server";
import { enqueueWhatsappTemplate, listOrderWhatsappMessages, paymentLinkWhatsapp, WHATSAPP_TEMPLATES } from "../whatsapp/index.server";

export interface PaymentLinkSent {
  /** The address the e-mail was queued to. */
  email: string;
  /** Whether the number may be messaged and the WhatsApp went too (opted in and proven, issue 39). */
  whatsapp: boolean;
}

/**
 * "Enviar link de pago" (issue 38): the payment page of the order's open attempt (the path its
 * provider's `nextStep` gave) goes to the customer by e-mail ("Tu link de pago") and by WhatsApp
 * when their number may be messaged; the outbox's rules decide the latter (opted in, proven for the
 * order or its account). One of each per attempt, however often it is asked (the dedupe keys).
 * Null when the attempt is unknown or no longer open.
 */
export async function sendPaymentLink(
  db: Database,
  input: { paymentId: string; payPath: string; siteUrl: string; now: Date },
): Promise<PaymentLinkSent | null> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ order: orders, payment: { id: payments.id, status: payments.status, amountCents: payments.amountCents, expiresAt: payments.expiresAt } })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(eq(payments.id, input.paymentId))
      .orderBy(asc(payments.createdAt))
      .limit(1);
    if (!row || (row.payment.status !== "created" && row.payment.status !== "pending")) return null;
    const { order, payment } = row;
    const payUrl = new URL(input.payPath.replace(/^\/+/, ""), input.siteUrl.endsWith("/") ? input.siteUrl : `${input.siteUrl}/`).toString();
    const deliveryLabel = `${formatLimaDate(order.deliveryDate)}, ${deliveryWindowLabel(order.deliveryWindow)}`;
    const email = paymentLinkEmail({
      brandName: await readBrandName(tx),
      firstName: order.customerFirstName,
      orderNumber: order.orderNumber,
      amountCents: payment.amountCents,
      deliveryLabel,
      payUrl,
      expiresAt: payment.expiresAt,
    });
    const to = order.customerEmail.toLowerCase();
    await enqueueEmail(tx, { dedupeKey: `payment-link:${payment.id}`, kind: "payment_link", to, ...email }, input.now);
    const queued = payment.expiresAt
      ? await enqueueWhatsappTemplate(
          tx,
          paymentLinkWhatsapp({
            orderId: order.id,
            orderNumber: order.orderNumber,
            firstName: order.customerFirstName,
            phone: order.customerPhone,
            userId: order.userId,
            email: order.customerEmail,
            siteUrl: input.siteUrl,
            orderPath: receiptPath(order.id),
            paymentId: payment.id,
            amountCents: payment.amountCents,
            payPath: input.payPath,
            expiresAt: payment.expiresAt,
          }),
          input.now,
        )
      : false;
    // A repeated send (a double click) queues nothing new; the one queued before still went.
    const whatsapp = queued || (await listOrderWhatsappMessages(tx, order.id)).some((message) => message.title === WHATSAPP_TEMPLATES.paymentLink.title);
    return { email: to, whatsapp };
  });
}
