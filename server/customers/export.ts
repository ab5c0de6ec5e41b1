import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import {
  abandonedCarts,
  complaintAnswers,
  complaints,
  contactMessages,
  deliveries,
  deliveryProofs,
  invoices,
  orderItems,
  orders,
  outboxEmails,
  promotionalConsentRequests,
  sessions,
  subscriptionEvents,
  subscriptionItems,
  subscriptions,
} from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { promotionalConsentHistory } from "../consent/index.server";
import { bidonBalance, recentBidonMovements } from "../deliveries/index.server";
import { garantiaSummary } from "../garantias/index.server";
import { currentDelivery, currentDeliveryOf } from "../orders/index.server";
import { ordersOf, type DataSubject } from "./data-subject";
import { findCustomerProfile } from "./picture";
import { collectWhatsappData } from "../whatsapp/index.server";
import { collectRepeatQuotes } from "../whatsapp-orders/index.server";
import { redactLinkSecrets } from "./redact-links";

export const CUSTOMER_EXPORT_FORMAT = "vida-alcalina/datos-personales/1";

/**
 * Ley 29733, right of access (issue 11): everything the shop holds about one customer as one JSON
 * document, read inside the transaction that writes its audit row (who exported whose data, and
 * how much). Secrets are left out (session tokens, password hashes, access-link hashes, provider
 * references, and the tokens in the links of the e-mails sent: decision 0071); everything the customer told us or that we did for them is in.
 */
export async function exportCustomerData(db: Database, actor: StaffActor, userId: string, now: Date) {
  return inTransaction(db, async (tx) => {
    const profile = await findCustomerProfile(tx, userId);
    if (!profile) return null;
    const sessionRows = await tx
      .select({ createdAt: sessions.createdAt, expiresAt: sessions.expiresAt, ipAddress: sessions.ipAddress, userAgent: sessions.userAgent })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(asc(sessions.createdAt));
    const subscriptionRows = await tx
      .select({
        id: subscriptions.id,
        subscriptionNumber: subscriptions.subscriptionNumber,
        status: subscriptions.status,
        frequency: subscriptions.frequency,
        amountCents: subscriptions.amountCents,
        districtName: subscriptions.districtName,
        address: subscriptions.address,
        addressLat: subscriptions.addressLat,
        addressLng: subscriptions.addressLng,
        deliveryWindow: subscriptions.deliveryWindow,
        startDate: subscriptions.startDate,
        nextBillingDate: subscriptions.nextBillingDate,
        nextDeliveryDate: subscriptions.nextDeliveryDate,
        cancelledAt: subscriptions.cancelledAt,
        cancelReason: subscriptions.cancelReason,
        billingMethod: subscriptions.billingMethod,
        cardBrand: subscriptions.cardBrand,
        cardLast4: subscriptions.cardLast4,
        createdAt: subscriptions.createdAt,
      })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .orderBy(asc(subscriptions.createdAt));
    const subscriptionIds = subscriptionRows.map((subscription) => subscription.id);
    const subscriptionItemRows = subscriptionIds.length
      ? await tx.select().from(subscriptionItems).where(inArray(subscriptionItems.subscriptionId, subscriptionIds)).orderBy(asc(subscriptionItems.id))
      : [];
    const eventRows = subscriptionIds.length
      ? await tx.select().from(subscriptionEvents).where(inArray(subscriptionEvents.subscriptionId, subscriptionIds)).orderBy(asc(subscriptionEvents.id))
      : [];
    const held = await collectSubjectData(tx, { userId, email: profile.email });
    const document = exportDocument(now, {
      profile,
      sessions: sessionRows,
      subscriptions: subscriptionRows.map((subscription) => ({
        ...subscription,
        items: subscriptionItemRows.filter((item) => item.subscriptionId === subscription.id),
        events: eventRows.filter((event) => event.subscriptionId === subscription.id),
      })),
      held,
    });
    await recordStaffAction(tx, actor, {
      action: "customer.export",
      entityType: "user",
      entityId: userId,
      after: { ...exportCounts(held), subscriptions: subscriptionRows.length },
    });
    return document;
  });
}

/**
 * Everything held under a data subject's orders and e-mail, for the export (decision 0061: an
 * account's export and a guest's are this one collection): orders with items, deliveries and the
 * driver's proofs; comprobantes; the bidones ledger; e-mails sent; Libro de Reclamaciones sheets
 * and answers; consent history; contact messages; a saved cart. Secrets are left out.
 */
export async function collectSubjectData(tx: Transaction, subject: DataSubject) {
  const email = subject.email.toLowerCase();
  const orderRows = (
    await tx
      .select({ order: orders, current: currentDeliveryOf(orders.id) })
      .from(orders)
      .where(ordersOf(subject))
      .orderBy(asc(orders.createdAt), asc(orders.id))
  ).map(({ order, current }) => {
    // Decision 0062: the order's date is the one asked for; the delivery may have moved since.
    const delivery = currentDelivery(order, current);
    return {
      ...order,
      // Decision 0066: null while the delivery waits for its paused subscription, whose last day of pause follows.
      deliveryDate: delivery.date,
      deliveryPausedUntil: delivery.pausedUntil,
      deliveryWindow: delivery.deliveryWindow,
      requestedDeliveryDate: delivery.requestedDate,
      requestedDeliveryWindow: delivery.requestedWindow,
    };
  });
  const orderIds = orderRows.map((order) => order.id);
  const itemRows = orderIds.length ? await tx.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)).orderBy(asc(orderItems.id)) : [];
  const deliveryRows = orderIds.length
    ? await tx.select().from(deliveries).where(inArray(deliveries.orderId, orderIds)).orderBy(asc(deliveries.deliveryDate), asc(deliveries.id))
    : [];
  const deliveryIds = deliveryRows.map((delivery) => delivery.id);
  const proofRows = deliveryIds.length
    ? await tx
        .select({
          deliveryId: deliveryProofs.deliveryId,
          outcome: deliveryProofs.outcome,
          receiverName: deliveryProofs.receiverName,
          fullBidonesLeft: deliveryProofs.fullBidonesLeft,
          emptyBidonesCollected: deliveryProofs.emptyBidonesCollected,
          failureReason: deliveryProofs.failureReason,
          note: deliveryProofs.note,
          createdAt: deliveryProofs.createdAt,
        })
        .from(deliveryProofs)
        .where(inArray(deliveryProofs.deliveryId, deliveryIds))
        .orderBy(asc(deliveryProofs.createdAt))
    : [];
  const invoiceRows = orderIds.length
    ? await tx
        .select({
          id: invoices.id,
          orderId: invoices.orderId,
          documentType: invoices.documentType,
          invoiceNumber: invoices.invoiceNumber,
          totalCents: invoices.totalCents,
          taxableCents: invoices.taxableCents,
          igvCents: invoices.igvCents,
          customerName: invoices.customerName,
          customerDocumentType: invoices.customerDocumentType,
          customerDocumentNumber: invoices.customerDocumentNumber,
          issuedAt: invoices.issuedAt,
          electronicStatus: invoices.electronicStatus,
        })
        .from(invoices)
        .where(inArray(invoices.orderId, orderIds))
        .orderBy(asc(invoices.issuedAt), asc(invoices.invoiceNumber))
    : [];
  const ledgerOwner = { userId: subject.userId, email };
  const bidones = await bidonBalance(tx, ledgerOwner);
  const bidonMovements = await recentBidonMovements(tx, ledgerOwner, 10_000);
  // The bidón garantía held, the credit, the choice and the latest returns (decision 0075).
  const garantia = await garantiaSummary(tx, ledgerOwner);
  const emailRows = await tx
    .select({
      kind: outboxEmails.kind,
      toAddress: outboxEmails.toAddress,
      subject: outboxEmails.subject,
      text: outboxEmails.text,
      status: outboxEmails.status,
      createdAt: outboxEmails.createdAt,
      sentAt: outboxEmails.sentAt,
    })
    .from(outboxEmails)
    .where(sql`lower(${outboxEmails.toAddress}) = ${email}`)
    .orderBy(asc(outboxEmails.createdAt), asc(outboxEmails.id));
  const complaintRows = await tx
    .select()
    .from(complaints)
    .where(sql`lower(${complaints.email}) = ${email}`)
    .orderBy(asc(complaints.filedAt));
  const answerRows = complaintRows.length
    ? await tx
        .select({ complaintId: complaintAnswers.complaintId, answer: complaintAnswers.answer, answeredAt: complaintAnswers.answeredAt })
        .from(complaintAnswers)
        .where(
          inArray(
            complaintAnswers.complaintId,
            complaintRows.map((complaint) => complaint.id),
          ),
        )
    : [];
  const consent = await promotionalConsentHistory(tx, email);
  // Decision 0072: every ask for consent too (where and when it was asked, and whether it was confirmed).
  const consentAsks = await tx
    .select({
      source: promotionalConsentRequests.source,
      textVersion: promotionalConsentRequests.textVersion,
      consentText: promotionalConsentRequests.consentText,
      clientAddress: promotionalConsentRequests.clientAddress,
      userAgent: promotionalConsentRequests.userAgent,
      createdAt: promotionalConsentRequests.createdAt,
      expiresAt: promotionalConsentRequests.expiresAt,
      confirmedAt: promotionalConsentRequests.confirmedAt,
    })
    .from(promotionalConsentRequests)
    .where(eq(promotionalConsentRequests.email, email))
    .orderBy(promotionalConsentRequests.id);
  const messages = await tx
    .select({
      name: contactMessages.name,
      email: contactMessages.email,
      phone: contactMessages.phone,
      subject: contactMessages.subject,
      message: contactMessages.message,
      createdAt: contactMessages.createdAt,
    })
    .from(contactMessages)
    .where(sql`lower(${contactMessages.email}) = ${email}`)
    .orderBy(desc(contactMessages.createdAt));
  const carts = await tx
    .select({
      items: abandonedCarts.items,
      subtotalCents: abandonedCarts.subtotalCents,
      createdAt: abandonedCarts.createdAt,
      updatedAt: abandonedCarts.updatedAt,
      reminderSentAt: abandonedCarts.reminderSentAt,
    })
    .from(abandonedCarts)
    .where(eq(abandonedCarts.email, email));
  // Issue 25: numbers, WhatsApp opt-ins and opt-outs, messages sent and received — of the numbers
  // proven theirs and their own orders only (issue 39).
  const whatsapp = await collectWhatsappData(tx, { userId: subject.userId, email, orderIds });
  // Issue 38: the "lo de siempre" summaries offered to the account, with the number and address.
  const repeatSummaries = await collectRepeatQuotes(tx, subject.userId);
  return {
    orders: orderRows.map(({ checkoutKey: _key, ...order }) => ({
      ...order,
      items: itemRows.filter((item) => item.orderId === order.id),
      deliveries: deliveryRows
        .filter((delivery) => delivery.orderId === order.id)
        .map((delivery) => ({ ...delivery, proofs: proofRows.filter((proof) => proof.deliveryId === delivery.id) })),
    })),
    invoices: invoiceRows,
    bidones: { ...bidones, movements: bidonMovements },
    garantia,
    // Decision 0071: the e-mails' links are keys; the export carries them without what opens anything.
    emails: emailRows.map((row) => ({ ...row, subject: redactLinkSecrets(row.subject), text: redactLinkSecrets(row.text) })),
    complaints: complaintRows.map(({ accessTokenHash: _hash, ...sheet }) => ({
      ...sheet,
      answer: answerRows.find((answer) => answer.complaintId === sheet.id) ?? null,
    })),
    promotionalConsent: consent.map(({ email: _email, ...event }) => event),
    promotionalConsentAsks: consentAsks,
    contactMessages: messages,
    abandonedCarts: carts,
    // Decision 0071 for WhatsApp too (issue 39): what was sent, without the keys its buttons carried.
    whatsapp: {
      ...whatsapp,
      messagesSent: whatsapp.messagesSent.map((message) => ({ ...message, text: redactLinkSecrets(message.text) })),
      repeatSummaries,
    },
  };
}

type SubjectData = Awaited<ReturnType<typeof collectSubjectData>>;

/** The one file format of a Ley 29733 export, for an account and for a guest alike (decision 0061). */
export function exportDocument<Profile, Session, Subscription>(
  now: Date,
  parts: { profile: Profile; sessions: Session[]; subscriptions: Subscription[]; held: SubjectData },
) {
  const { held } = parts;
  return {
    format: CUSTOMER_EXPORT_FORMAT,
    exportedAt: now.toISOString(),
    profile: parts.profile,
    sessions: parts.sessions,
    orders: held.orders,
    invoices: held.invoices,
    subscriptions: parts.subscriptions,
    bidones: held.bidones,
    emails: held.emails,
    complaints: held.complaints,
    promotionalConsent: held.promotionalConsent,
    promotionalConsentAsks: held.promotionalConsentAsks,
    contactMessages: held.contactMessages,
    abandonedCarts: held.abandonedCarts,
    whatsapp: held.whatsapp,
  };
}

/** How much left, for the audit row (never the data itself: the log outlives an anonymisation). */
export function exportCounts(held: SubjectData) {
  return { orders: held.orders.length, invoices: held.invoices.length, emails: held.emails.length, complaints: held.complaints.length };
}

export function customerExportFilename(userId: string, now: Date): string {
  return `datos-cliente-${userId.slice(0, 8)}-${now.toISOString().slice(0, 10)}.json`;
}
