import { asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { provenPhonesOf } from "../contacts/index.server";
import { whatsappConsentEvents, whatsappContacts, whatsappInboundMessages, whatsappMessages, whatsappOptInAsks } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { eraseLocalOutboxFiles } from "./clients";

/**
 * Ley 29733 (decisions 0051, 0061, 0064): a phone number and what was said on it are personal
 * data. Whom a request is about, as the customers domain knows them: the account (if any), the
 * e-mail, and the orders it found for them.
 */
export interface WhatsappSubject {
  userId: string | null;
  email: string;
  orderIds: string[];
}

/**
 * The subject's WhatsApp numbers: only those proven theirs (issue 39, server/contacts/). A number
 * typed on their orders or profile may be anyone's, so it reaches nothing of what was said on it.
 */
export async function numbersOf(db: DatabaseOrTransaction, subject: WhatsappSubject): Promise<string[]> {
  return provenPhonesOf(db, { userId: subject.userId, orderIds: subject.orderIds });
}

/** The columns that say whose a WhatsApp row is: the e-mail and account it names, its order, its number. */
interface OwnerColumns {
  email: AnyPgColumn;
  userId: AnyPgColumn;
  orderId: AnyPgColumn;
  phone: AnyPgColumn;
}

/**
 * The subject's own rows of a WhatsApp table: theirs by e-mail, account or order, or of a number
 * proven theirs (issue 39) — never of a number merely typed on their orders.
 */
function ownedBy(columns: OwnerColumns, subject: WhatsappSubject, numbers: string[]): SQL {
  const conditions: SQL[] = [eq(columns.email, subject.email.toLowerCase())];
  if (subject.userId) conditions.push(eq(columns.userId, subject.userId));
  if (subject.orderIds.length) conditions.push(inArray(columns.orderId, subject.orderIds));
  if (numbers.length) conditions.push(inArray(columns.phone, numbers));
  return or(...conditions)!;
}

const consentOf = (subject: WhatsappSubject, numbers: string[]) =>
  ownedBy(
    { email: whatsappConsentEvents.email, userId: whatsappConsentEvents.userId, orderId: whatsappConsentEvents.orderId, phone: whatsappConsentEvents.phone },
    subject,
    numbers,
  );
const asksOf = (subject: WhatsappSubject, numbers: string[]) =>
  ownedBy(
    { email: whatsappOptInAsks.email, userId: whatsappOptInAsks.userId, orderId: whatsappOptInAsks.orderId, phone: whatsappOptInAsks.phone },
    subject,
    numbers,
  );
const messagesOf = (subject: WhatsappSubject, numbers: string[]) =>
  ownedBy(
    { email: whatsappMessages.customerEmail, userId: whatsappMessages.userId, orderId: whatsappMessages.orderId, phone: whatsappMessages.toPhone },
    subject,
    numbers,
  );

/** Everything WhatsApp holds about the subject, for the export (the same JSON for account, guest, person). */
export async function collectWhatsappData(db: DatabaseOrTransaction, subject: WhatsappSubject) {
  const numbers = await numbersOf(db, subject);
  const consent = await db
    .select({
      phone: whatsappConsentEvents.phone,
      granted: whatsappConsentEvents.granted,
      source: whatsappConsentEvents.source,
      textShown: whatsappConsentEvents.textShown,
      textVersion: whatsappConsentEvents.textVersion,
      clientAddress: whatsappConsentEvents.clientAddress,
      userAgent: whatsappConsentEvents.userAgent,
      createdAt: whatsappConsentEvents.createdAt,
    })
    .from(whatsappConsentEvents)
    .where(consentOf(subject, numbers))
    .orderBy(asc(whatsappConsentEvents.id));
  const messages = await db
    .select({
      kind: whatsappMessages.kind,
      templateName: whatsappMessages.templateName,
      to: whatsappMessages.toPhone,
      text: whatsappMessages.renderedText,
      status: whatsappMessages.status,
      createdAt: whatsappMessages.createdAt,
      acceptedAt: whatsappMessages.acceptedAt,
      deliveredAt: whatsappMessages.deliveredAt,
      readAt: whatsappMessages.readAt,
      failedAt: whatsappMessages.failedAt,
    })
    .from(whatsappMessages)
    .where(messagesOf(subject, numbers))
    .orderBy(asc(whatsappMessages.createdAt));
  const received = numbers.length
    ? await db
        .select({
          from: whatsappInboundMessages.fromId,
          profileName: whatsappInboundMessages.profileName,
          type: whatsappInboundMessages.messageType,
          body: whatsappInboundMessages.body,
          sentAt: whatsappInboundMessages.sentAt,
        })
        .from(whatsappInboundMessages)
        .where(inArray(whatsappInboundMessages.fromId, numbers))
        .orderBy(asc(whatsappInboundMessages.sentAt))
    : [];
  const contacts = numbers.length ? await db.select().from(whatsappContacts).where(inArray(whatsappContacts.phone, numbers)) : [];
  return {
    numbers,
    consent,
    messagesSent: messages,
    messagesReceived: received,
    unreachable: contacts.filter((contact) => contact.unreachableAt).map((contact) => ({ phone: contact.phone, since: contact.unreachableAt })),
  };
}

/**
 * The WhatsApp part of an anonymisation, run before the subject's phone proofs lose their number:
 * what is theirs (their account's, e-mail's and orders' messages and consent, and everything of
 * the numbers proven theirs; never a number merely typed on their orders) becomes the placeholder; a message still waiting is never sent; the record of what was sent
 * when (template, status, dates) stays. Inbound messages from the numbers lose sender and text.
 */
export async function eraseWhatsappData(db: DatabaseOrTransaction, subject: WhatsappSubject, placeholder: { text: string; email: string }): Promise<void> {
  const numbers = await numbersOf(db, subject);
  const erased = await db
    .update(whatsappMessages)
    .set({
      toPhone: placeholder.text,
      renderedText: placeholder.text,
      parameters: null,
      customerEmail: placeholder.email,
      status: sql`case when ${whatsappMessages.status} in ('pending', 'sending') then 'withheld' else ${whatsappMessages.status} end`,
      claimToken: null,
    })
    .where(messagesOf(subject, numbers))
    .returning({ id: whatsappMessages.id, templateName: whatsappMessages.templateName, createdAt: whatsappMessages.createdAt });
  // The local stand-in's copies on disk go with the rows (issue 39); a failure rolls the erasure back.
  await eraseLocalOutboxFiles(erased);
  await db
    .update(whatsappConsentEvents)
    .set({ phone: placeholder.text, email: placeholder.email, userId: null, clientAddress: null, userAgent: null })
    .where(consentOf(subject, numbers));
  await db
    .update(whatsappOptInAsks)
    .set({ phone: placeholder.text, email: placeholder.email, userId: null, clientAddress: null, userAgent: null })
    .where(asksOf(subject, numbers));
  if (numbers.length === 0) return;
  await db
    .update(whatsappInboundMessages)
    .set({ fromId: placeholder.text, profileName: null, body: placeholder.text })
    .where(inArray(whatsappInboundMessages.fromId, numbers));
  await db.delete(whatsappContacts).where(inArray(whatsappContacts.phone, numbers));
}
