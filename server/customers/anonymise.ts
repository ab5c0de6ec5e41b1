import { and, asc, eq, inArray, isNull, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "../db/client";
import {
  abandonedCarts,
  accounts,
  bidonMovements,
  garantiaEntries,
  reorderReminders,
  complaintAnonymisations,
  complaints,
  contactMessages,
  deliveries,
  deliveryProofs,
  invoices,
  orders,
  outboxEmails,
  promotionalConsentEvents,
  promotionalConsentRequests,
  rateLimitBuckets,
  sessions,
  signInFailures,
  users,
  verifications,
} from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { forgetSignedInUsers } from "../accounts/index.server";
import { OPEN_DELIVERY_STATUSES } from "../deliveries/index.server";
import { eraseEmailOutboxFiles } from "../notifications/index.server";
import { scheduleCardErasures } from "../payments/index.server";
import { endSubscriptionsForErasure } from "../subscriptions/index.server";
import { ordersOf, type DataSubject } from "./data-subject";
import { eraseWhatsappData } from "../whatsapp/index.server";
import { eraseRepeatQuotesOf } from "../whatsapp-orders/index.server";
import { erasePhoneProofsOf } from "../contacts/index.server";

/**
 * Ley 29733 anonymisation on the customer's request (issue 11, decision 0051). One transaction:
 * the customer's row locked first (decision 0025: customer → subscription → order → delivery),
 * the refusals checked under those locks, then every personal datum replaced by a placeholder,
 * sessions and sign-in credentials removed, subscriptions ended through their own domain.
 * Kept on purpose: the comprobantes (invoices keep the buyer name and document they were issued
 * with: tax law), amounts, dates and statuses of orders and deliveries (accounting), the bidones
 * ledger's quantities, the Libro de Reclamaciones sheets (append-only legal record) and the
 * staff audit log (append-only). Run twice, the second run finds an anonymised account and
 * changes nothing.
 */

export const ANONYMIZED_EMAIL_DOMAIN = "anonimizado.invalid";
export const ANONYMIZED_TEXT = "[anonimizado]";

export type AnonymiseResult =
  { ok: true; alreadyAnonymized: boolean; cancelledSubscriptions: number } | { ok: false; reason: "not_found" | "refused"; message: string };

export interface AnonymiseBlockers {
  unpaidOrders: string[];
  openDeliveries: string[];
  comprobantesInTransit: string[];
}

export function anonymizedEmailFor(userId: string): string {
  return `cliente-${userId.toLowerCase()}@${ANONYMIZED_EMAIL_DOMAIN}`;
}

const UNPAID_ORDER_STATUSES = ["pending", "payment_created"];
/** A comprobante still on its way to SUNAT is built from the order's data when it is sent. */
const IN_TRANSIT_COMPROBANTES = ["pending", "sent", "format_error"];

/** What stops an anonymisation now: each list names the order, delivery or document numbers. */
export async function anonymiseBlockers(db: Database | Transaction, subject: DataSubject): Promise<AnonymiseBlockers> {
  const owned = db.select({ id: orders.id }).from(orders).where(ordersOf(subject));
  const unpaid = await db
    .select({ number: orders.orderNumber })
    .from(orders)
    .where(and(ordersOf(subject), inArray(orders.status, UNPAID_ORDER_STATUSES)))
    .orderBy(asc(orders.orderNumber));
  const open = await db
    .select({ number: deliveries.deliveryNumber })
    .from(deliveries)
    .where(and(inArray(deliveries.orderId, owned), inArray(deliveries.status, [...OPEN_DELIVERY_STATUSES])))
    .orderBy(asc(deliveries.deliveryNumber));
  const reissue = alias(invoices, "reissue");
  const inTransit = await db
    .select({ number: invoices.invoiceNumber })
    .from(invoices)
    .where(
      and(
        inArray(invoices.orderId, owned),
        or(
          inArray(invoices.electronicStatus, IN_TRANSIT_COMPROBANTES as never[]),
          and(
            eq(invoices.electronicStatus, "rejected"),
            notExists(db.select({ id: reissue.id }).from(reissue).where(eq(reissue.relatedInvoiceId, invoices.id))),
          ),
        ),
      ),
    )
    .orderBy(asc(invoices.invoiceNumber));
  return {
    unpaidOrders: unpaid.map((row) => row.number),
    openDeliveries: open.map((row) => row.number),
    comprobantesInTransit: inTransit.map((row) => row.number),
  };
}

export function blockerMessage(blockers: AnonymiseBlockers): string | null {
  const parts: string[] = [];
  if (blockers.unpaidOrders.length) parts.push(`pedidos sin pagar (${blockers.unpaidOrders.join(", ")})`);
  if (blockers.openDeliveries.length) parts.push(`entregas pendientes (${blockers.openDeliveries.join(", ")})`);
  if (blockers.comprobantesInTransit.length) parts.push(`comprobantes aún no aceptados por SUNAT (${blockers.comprobantesInTransit.join(", ")})`);
  if (parts.length === 0) return null;
  return `No se puede anonimizar todavía: el cliente tiene ${parts.join(", ")}. Resuélvelos (entregar, cancelar o esperar el pago) e inténtalo de nuevo.`;
}

export async function anonymiseCustomer(db: Database, actor: StaffActor, userId: string, now: Date): Promise<AnonymiseResult> {
  const result = await inTransaction(db, async (tx): Promise<AnonymiseResult> => {
    const [customer] = await tx
      .select({ id: users.id, email: users.email, role: users.role, status: users.status })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!customer || customer.role !== "customer") return { ok: false, reason: "not_found", message: "No encontramos a ese cliente." };
    if (customer.status === "anonymized") return { ok: true, alreadyAnonymized: true, cancelledSubscriptions: 0 };
    const subject: DataSubject = { userId: customer.id, email: customer.email };
    const placeholder = anonymizedEmailFor(customer.id);

    // Lock order (decision 0025): customer (above) → subscriptions → orders → deliveries.
    await tx.execute(sql`select id from subscriptions where user_id = ${customer.id} order by id for update`);
    const orderIds = await lockSubjectOrders(tx, subject);
    const refusal = blockerMessage(await anonymiseBlockers(tx, subject));
    if (refusal) return { ok: false, reason: "refused", message: refusal };

    const cancelledSubscriptions = await endSubscriptionsForErasure(tx, {
      userId: customer.id,
      actorEmail: actor.email,
      placeholderAddress: ANONYMIZED_TEXT,
      now,
    });
    await eraseSubjectData(tx, { subject, placeholder, orderIds, now });
    // Nobody can sign in as them again: sessions, password and pending reset links go.
    await tx.delete(sessions).where(eq(sessions.userId, customer.id));
    await tx.delete(accounts).where(eq(accounts.userId, customer.id));
    await tx.delete(verifications).where(eq(verifications.value, customer.id));
    await tx
      .update(users)
      .set({
        name: "Cliente anonimizado",
        firstName: "Cliente",
        lastName: "anonimizado",
        email: placeholder,
        emailVerified: false,
        image: null,
        phone: null,
        address: null,
        addressLat: null,
        addressLng: null,
        districtId: null,
        documentType: null,
        documentNumber: null,
        status: "anonymized",
        updatedAt: now,
      })
      .where(eq(users.id, customer.id));
    // Saved cards go at the provider too; the call happens after this commits (decision 0061).
    const cardErasures = await scheduleCardErasures(tx, { userId: customer.id, now });
    // No personal data in the audit row: the log is append-only and outlives this.
    await recordStaffAction(tx, actor, {
      action: "customer.anonymize",
      entityType: "user",
      entityId: customer.id,
      before: { status: customer.status },
      after: { status: "anonymized", orders: orderIds.length, cancelledSubscriptions, cardErasures },
    });
    return { ok: true, alreadyAnonymized: false, cancelledSubscriptions };
  });
  if (result.ok && !result.alreadyAnonymized) forgetSignedInUsers();
  return result;
}

/**
 * Locks the subject's orders, then their deliveries, each in id order (decision 0025: order →
 * delivery), and answers the orders' ids. A row another anonymisation rewrote while this waited
 * no longer matches and is left out.
 */
export async function lockSubjectOrders(tx: Transaction, subject: DataSubject): Promise<string[]> {
  const ownedRows = await tx.select({ id: orders.id }).from(orders).where(ordersOf(subject)).orderBy(asc(orders.id)).for("update");
  const orderIds = ownedRows.map((row) => row.id);
  if (orderIds.length)
    await tx.select({ id: deliveries.id }).from(deliveries).where(inArray(deliveries.orderId, orderIds)).orderBy(asc(deliveries.id)).for("update");
  return orderIds;
}

/**
 * The part of an anonymisation an account, a guest and a person who never bought share (decisions
 * 0051, 0061, 0064): every personal datum held under the subject's orders and e-mail becomes a
 * placeholder, or goes. Kept: invoices, Libro de Reclamaciones sheets (marked as answered),
 * amounts, dates, statuses, the ledger's quantities. The caller holds the locks (`lockSubjectOrders`) and has checked the refusals.
 */
export async function eraseSubjectData(tx: Transaction, input: { subject: DataSubject; placeholder: string; orderIds: string[]; now: Date }): Promise<void> {
  const { subject, placeholder, orderIds, now } = input;
  const email = subject.email.toLowerCase();
  // First, while the orders and the account still carry the phone numbers it looks for (issue 25).
  await eraseWhatsappData(tx, { userId: subject.userId, email, orderIds }, { text: ANONYMIZED_TEXT, email: placeholder });
  await erasePhoneProofsOf(tx, { userId: subject.userId, orderIds }, ANONYMIZED_TEXT);
  await eraseRepeatQuotesOf(tx, subject.userId, ANONYMIZED_TEXT);
  if (orderIds.length) {
    await tx
      .update(orders)
      .set({
        customerFirstName: "Cliente",
        customerLastName: "anonimizado",
        customerEmail: placeholder,
        customerPhone: ANONYMIZED_TEXT,
        documentNumber: ANONYMIZED_TEXT,
        ruc: null,
        businessName: null,
        address: ANONYMIZED_TEXT,
        // A pin on the map is the home itself (issue 26).
        addressLat: null,
        addressLng: null,
        deliveryNotes: null,
        updatedAt: now,
      })
      .where(inArray(orders.id, orderIds));
    const deliveryIds = tx.select({ id: deliveries.id }).from(deliveries).where(inArray(deliveries.orderId, orderIds));
    await tx
      .update(deliveries)
      .set({ address: ANONYMIZED_TEXT, lat: null, lng: null, notes: null, updatedAt: now })
      .where(inArray(deliveries.orderId, orderIds));
    await tx.update(deliveryProofs).set({ receiverName: null, note: null }).where(inArray(deliveryProofs.deliveryId, deliveryIds));
  }
  // The ledger keeps its quantities; only who it was lent to goes.
  const guestLedger = and(isNull(bidonMovements.userId), eq(bidonMovements.customerEmail, email))!;
  await tx
    .update(bidonMovements)
    .set({ customerEmail: placeholder })
    .where(subject.userId ? or(eq(bidonMovements.userId, subject.userId), guestLedger) : guestLedger);
  // The garantía ledger likewise (decision 0075): its money stays, who it belongs to goes with the
  // account's id; the reminders sent to the address go (decision 0076).
  const guestGarantias = and(isNull(garantiaEntries.userId), eq(garantiaEntries.customerEmail, email))!;
  await tx
    .update(garantiaEntries)
    .set({ customerEmail: placeholder })
    .where(subject.userId ? or(eq(garantiaEntries.userId, subject.userId), guestGarantias) : guestGarantias);
  await tx
    .update(reorderReminders)
    .set({ email: placeholder })
    .where(subject.userId ? or(eq(reorderReminders.userId, subject.userId), eq(reorderReminders.email, email)) : eq(reorderReminders.email, email));
  // E-mails: the record of what was sent stays (kind, date, status), not its content or address;
  // one still waiting is never sent. The local outbox's copies on disk go with them (issue 39).
  const erasedEmails = await tx
    .update(outboxEmails)
    .set({
      toAddress: placeholder,
      subject: ANONYMIZED_TEXT,
      html: ANONYMIZED_TEXT,
      text: ANONYMIZED_TEXT,
      attachments: null,
      status: sql`case when ${outboxEmails.status} = 'pending' then 'withheld' else ${outboxEmails.status} end`,
    })
    .where(sql`lower(${outboxEmails.toAddress}) = ${email}`)
    .returning({ id: outboxEmails.id, kind: outboxEmails.kind, createdAt: outboxEmails.createdAt });
  await eraseEmailOutboxFiles(erasedEmails);
  // The migration's trigger admits exactly this rewrite of consent events and no other.
  const consentByEmail = eq(promotionalConsentEvents.email, email);
  await tx
    .update(promotionalConsentEvents)
    .set({ email: placeholder, clientAddress: null, userAgent: null, userId: null })
    .where(subject.userId ? or(consentByEmail, eq(promotionalConsentEvents.userId, subject.userId)) : consentByEmail);
  // Asks for consent (decision 0072) lose who asked and their link, like the events.
  const askByEmail = eq(promotionalConsentRequests.email, email);
  await tx
    .update(promotionalConsentRequests)
    .set({ email: placeholder, clientAddress: null, userAgent: null, userId: null, tokenHash: sql`'anonimizado-' || ${promotionalConsentRequests.id}::text` })
    .where(subject.userId ? or(askByEmail, eq(promotionalConsentRequests.userId, subject.userId)) : askByEmail);
  await tx.delete(abandonedCarts).where(eq(abandonedCarts.email, email));
  await tx
    .update(contactMessages)
    .set({ name: ANONYMIZED_TEXT, email: placeholder, phone: null, message: ANONYMIZED_TEXT })
    .where(sql`lower(${contactMessages.email}) = ${email}`);
  await tx.delete(signInFailures).where(eq(signInFailures.account, email));
  await tx.delete(rateLimitBuckets).where(inArray(rateLimitBuckets.key, [`recovery-email:${email}`, `abandoned-cart:email:${email}`]));
  // The sheets stay as filed (legal record); marking them answered keeps the search from offering
  // their e-mail again as a person who never bought (decision 0064). Inserted rows come last (0025).
  await tx.execute(sql`insert into ${complaintAnonymisations} (complaint_id, anonymised_at)
    select ${complaints.id}, ${now.toISOString()}::timestamptz from ${complaints} where lower(${complaints.email}) = ${email}
    on conflict do nothing`);
}
