import { and, asc, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { whatsappFailureReason, whatsappNumber, whatsappStatusLabel } from "@core/whatsapp";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { users, whatsappContacts, whatsappInboundMessages, whatsappMessages } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { whatsappConsentHistory } from "./consent";
import { numbersOf, type WhatsappSubject } from "./subject-data";
import { WHATSAPP_TEMPLATES } from "./templates";

const TEMPLATE_TITLES = new Map<string, string>(Object.values(WHATSAPP_TEMPLATES).map((template) => [template.name, template.title]));

function titleOf(message: { kind: string; templateName: string | null }): string {
  if (message.kind === "text") return "Respuesta (texto)";
  if (message.kind === "interactive") return "Respuesta con botones";
  return TEMPLATE_TITLES.get(message.templateName ?? "") ?? message.templateName ?? "Plantilla";
}

/** One message as staff see it on the order page: what, to whom, its state and why it failed. */
export interface StaffWhatsappMessage {
  id: string;
  title: string;
  to: string;
  status: string;
  statusLabel: string;
  /** Why it failed or was not sent; null otherwise. */
  reason: string | null;
  text: string;
  createdAt: Date;
  /** The latest moment of its state (accepted, delivered, read, failed…). */
  lastChangeAt: Date;
}

const FAILED = new Set(["failed", "dead", "withheld"]);

export function staffView(message: typeof whatsappMessages.$inferSelect): StaffWhatsappMessage {
  const moments = [
    message.createdAt,
    message.acceptedAt,
    message.sentAt,
    message.deliveredAt,
    message.readAt,
    message.failedAt,
    message.deadAt,
    message.lastAttemptAt,
  ];
  return {
    id: message.id,
    title: titleOf(message),
    to: message.toPhone,
    status: message.status,
    statusLabel: whatsappStatusLabel(message.status),
    reason: FAILED.has(message.status)
      ? message.status === "withheld"
        ? (message.lastError ?? "No se envió")
        : whatsappFailureReason(message.errorCode, message.lastError)
      : message.status === "pending" && message.lastError
        ? `Se reintentará: ${whatsappFailureReason(message.errorCode, message.lastError)}`
        : null,
    text: message.renderedText,
    createdAt: message.createdAt,
    lastChangeAt: new Date(Math.max(...moments.filter((moment): moment is Date => moment !== null).map((moment) => moment.getTime()))),
  };
}

/** "WhatsApp" on /admin/pedidos/{id}: every message about the order, oldest first. */
export async function listOrderWhatsappMessages(db: DatabaseOrTransaction, orderId: string): Promise<StaffWhatsappMessage[]> {
  const rows = await db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, orderId)).orderBy(asc(whatsappMessages.createdAt));
  return rows.map(staffView);
}

/** A number's WhatsApp state on the customer page (/admin/clientes/…). */
export interface WhatsappNumberState {
  phone: string;
  /** Proven the person's (issue 39); a number only typed in their profile is shown, and proves nothing. */
  proven: boolean;
  optedIn: boolean;
  /** The latest choice: when, where, and the text shown (or the reply sent). */
  latest: { granted: boolean; source: string; at: Date; textShown: string } | null;
  unreachable: { at: Date; reason: string | null } | null;
  history: { granted: boolean; source: string; at: Date; textShown: string }[];
}

export async function whatsappStateOfNumbers(
  db: DatabaseOrTransaction,
  phones: string[],
  provenPhones: readonly string[] = phones,
): Promise<WhatsappNumberState[]> {
  const unique = [...new Set(phones)];
  if (unique.length === 0) return [];
  const history = await whatsappConsentHistory(db, unique);
  const contacts = await db.select().from(whatsappContacts).where(inArray(whatsappContacts.phone, unique));
  return unique.map((phone) => {
    const events = history
      .filter((event) => event.phone === phone)
      .map(({ granted, source, createdAt, textShown }) => ({ granted, source, at: createdAt, textShown }));
    const contact = contacts.find((row) => row.phone === phone);
    const unreachable = contact?.unreachableAt ? { at: contact.unreachableAt, reason: contact.unreachableReason } : null;
    const proven = provenPhones.includes(phone);
    return { phone, proven, optedIn: proven && Boolean(events[0]?.granted) && !unreachable, latest: events[0] ?? null, unreachable, history: events };
  });
}

/**
 * The WhatsApp numbers of a customer, guest or person and their state: the numbers proven theirs,
 * and the one typed in their profile (shown as not proven until it is).
 */
export async function whatsappStateOfSubject(db: DatabaseOrTransaction, subject: WhatsappSubject, typed: string | null = null): Promise<WhatsappNumberState[]> {
  const proven = await numbersOf(db, subject);
  const profileNumber = whatsappNumber(typed);
  return whatsappStateOfNumbers(db, profileNumber ? [...proven, profileNumber] : proven, proven);
}

/** A message the sender gave up on, for the alarms on /admin. */
export interface DeadWhatsappMessage {
  id: string;
  title: string;
  to: string;
  orderId: string | null;
  reason: string;
  errorCode: number | null;
  deadAt: Date | null;
}

export async function listDeadWhatsappMessages(db: DatabaseOrTransaction, { limit = 100 }: { limit?: number } = {}): Promise<DeadWhatsappMessage[]> {
  const rows = await db
    .select()
    .from(whatsappMessages)
    .where(eq(whatsappMessages.status, "dead"))
    .orderBy(desc(whatsappMessages.deadAt), desc(whatsappMessages.createdAt))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    title: titleOf(row),
    to: row.toPhone,
    orderId: row.orderId,
    reason: whatsappFailureReason(row.errorCode, row.lastError),
    errorCode: row.errorCode,
    deadAt: row.deadAt,
  }));
}

export type RetryDeadWhatsappResult = { ok: true } | { ok: false; reason: "not_found" | "not_dead" };

/**
 * "Reintentar" once the cause is fixed (the template approved, a new token): the message is due
 * again with a fresh schedule. Only a dead message can be retried, so nothing sent goes twice.
 * Audited in the same transaction.
 */
export async function retryDeadWhatsappMessageByStaff(db: Database, actor: StaffActor, id: string, now: Date): Promise<RetryDeadWhatsappResult> {
  return inTransaction(db, async (tx) => {
    const retried = await tx
      .update(whatsappMessages)
      .set({ status: "pending", nextAttemptAt: now, attempts: 0, deadAt: null })
      .where(and(eq(whatsappMessages.id, id), eq(whatsappMessages.status, "dead")))
      .returning({ id: whatsappMessages.id });
    if (retried.length === 0) {
      const [exists] = await tx.select({ id: whatsappMessages.id }).from(whatsappMessages).where(eq(whatsappMessages.id, id));
      return { ok: false, reason: exists ? "not_dead" : "not_found" };
    }
    await recordStaffAction(tx, actor, {
      action: "whatsapp.retry",
      entityType: "whatsapp_message",
      entityId: id,
      before: { status: "dead" },
      after: { status: "pending" },
    });
    return { ok: true };
  });
}

export const WHATSAPP_INBOX_LIMIT = 100;

export interface WhatsappInboxRow {
  id: string;
  from: string;
  profileName: string | null;
  body: string;
  sentAt: Date;
  attendedAt: Date | null;
  attendedByName: string | null;
}

/** Mensajes (/admin/mensajes): what customers wrote on WhatsApp (not their BAJA), newest first. */
export async function listWhatsappInbox(db: Database): Promise<{ messages: WhatsappInboxRow[]; pending: number }> {
  const forStaff = eq(whatsappInboundMessages.intent, "message");
  const messages = await db
    .select({
      id: whatsappInboundMessages.id,
      from: whatsappInboundMessages.fromId,
      profileName: whatsappInboundMessages.profileName,
      body: whatsappInboundMessages.body,
      sentAt: whatsappInboundMessages.sentAt,
      attendedAt: whatsappInboundMessages.attendedAt,
      attendedByName: users.name,
    })
    .from(whatsappInboundMessages)
    .leftJoin(users, eq(users.id, whatsappInboundMessages.attendedBy))
    .where(forStaff)
    .orderBy(desc(whatsappInboundMessages.sentAt), desc(whatsappInboundMessages.id))
    .limit(WHATSAPP_INBOX_LIMIT);
  const [pending] = await db
    .select({ value: count() })
    .from(whatsappInboundMessages)
    .where(and(forStaff, isNull(whatsappInboundMessages.attendedAt)));
  return { messages, pending: Number(pending?.value ?? 0) };
}

/** Marks an inbound WhatsApp message attended once; a second click changes nothing. Audited. */
export async function markWhatsappMessageAttended(
  db: Database,
  actor: StaffActor,
  id: string,
  now: Date,
): Promise<{ ok: true; changed: boolean } | { ok: false; reason: "not_found" }> {
  return inTransaction(db, async (tx) => {
    const [updated] = await tx
      .update(whatsappInboundMessages)
      .set({ attendedAt: now, attendedBy: actor.id })
      .where(and(eq(whatsappInboundMessages.id, id), eq(whatsappInboundMessages.intent, "message"), isNull(whatsappInboundMessages.attendedAt)))
      .returning({ id: whatsappInboundMessages.id });
    if (!updated) {
      const [exists] = await tx
        .select({ id: whatsappInboundMessages.id })
        .from(whatsappInboundMessages)
        .where(and(eq(whatsappInboundMessages.id, id), eq(whatsappInboundMessages.intent, "message")));
      return exists ? { ok: true, changed: false } : { ok: false, reason: "not_found" };
    }
    await recordStaffAction(tx, actor, {
      action: "whatsapp_message.attend",
      entityType: "whatsapp_message",
      entityId: id,
      before: { attendedAt: null },
      after: { attendedAt: now.toISOString() },
    });
    return { ok: true, changed: true };
  });
}

/** The WhatsApp outbox for the metrics (issue 27): waiting to leave, and given up on. */
export async function whatsappOutboxCounts(db: DatabaseOrTransaction): Promise<{ backlog: number; dead: number }> {
  const [backlog] = await db
    .select({ value: count() })
    .from(whatsappMessages)
    .where(inArray(whatsappMessages.status, ["pending", "sending"]));
  const [dead] = await db.select({ value: count() }).from(whatsappMessages).where(eq(whatsappMessages.status, "dead"));
  return { backlog: Number(backlog?.value ?? 0), dead: Number(dead?.value ?? 0) };
}
