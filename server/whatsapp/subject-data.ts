import { asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { whatsappNumber } from "@core/whatsapp";
import { orders, users, whatsappConsentEvents, whatsappContacts, whatsappInboundMessages, whatsappMessages } from "../db/schema";
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
 * The subject's WhatsApp numbers: the account's phone, the phones of their orders, and the numbers
 * they opted in with (by account or e-mail).
 */
export async function numbersOf(db: DatabaseOrTransaction, subject: WhatsappSubject): Promise<string[]> {
  const typed: (string | null)[] = [];
  if (subject.userId) typed.push(...(await db.select({ phone: users.phone }).from(users).where(eq(users.id, subject.userId))).map((row) => row.phone));
  if (subject.orderIds.length)
    typed.push(...(await db.select({ phone: orders.customerPhone }).from(orders).where(inArray(orders.id, subject.orderIds))).map((row) => row.phone));
  const consented = await db.selectDistinct({ phone: whatsappConsentEvents.phone }).from(whatsappConsentEvents).where(consentOf(subject));
  const numbers = typed.map(whatsappNumber).filter((number): number is string => number !== null);
  return [...new Set([...numbers, ...consented.map((row) => row.phone)])];
}

function consentOf(subject: WhatsappSubject): SQL {
  const byEmail = eq(whatsappConsentEvents.email, subject.email.toLowerCase());
  return subject.userId ? or(byEmail, eq(whatsappConsentEvents.userId, subject.userId))! : byEmail;
}

function messagesOf(subject: WhatsappSubject, numbers: string[]): SQL {
  const conditions: SQL[] = [eq(whatsappMessages.customerEmail, subject.email.toLowerCase())];
  if (subject.userId) conditions.push(eq(whatsappMessages.userId, subject.userId));
  if (subject.orderIds.length) conditions.push(inArray(whatsappMessages.orderId, subject.orderIds));
  if (numbers.length) conditions.push(inArray(whatsappMessages.toPhone, numbers));
  return or(...conditions)!;
}

/** Everything WhatsApp holds about the subject, for the export (the same JSON for account, guest, person). */
export async function collectWhatsappData(db: DatabaseOrTransaction, subject: WhatsappSubject) {
  const numbers = await numbersOf(db, subject);
  const consentCondition = numbers.length ? or(consentOf(subject), inArray(whatsappConsentEvents.phone, numbers))! : consentOf(subject);
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
    .where(consentCondition)
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
 * The WhatsApp part of an anonymisation, run before the orders lose their phone: numbers, texts and
 * names become the placeholder; a message still waiting is never sent; the record of what was sent
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
  const consentCondition = numbers.length ? or(consentOf(subject), inArray(whatsappConsentEvents.phone, numbers))! : consentOf(subject);
  await db
    .update(whatsappConsentEvents)
    .set({ phone: placeholder.text, email: placeholder.email, userId: null, clientAddress: null, userAgent: null })
    .where(consentCondition);
  if (numbers.length === 0) return;
  await db
    .update(whatsappInboundMessages)
    .set({ fromId: placeholder.text, profileName: null, body: placeholder.text })
    .where(inArray(whatsappInboundMessages.fromId, numbers));
  await db.delete(whatsappContacts).where(inArray(whatsappContacts.phone, numbers));
}
