import { count, desc, eq, isNull, and } from "drizzle-orm";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { contactMessages, users } from "../db/schema";
import { inTransaction } from "../db/transaction";

export const CONTACT_INBOX_LIMIT = 100;

export interface ContactMessageRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  createdAt: Date;
  attendedAt: Date | null;
  attendedByName: string | null;
}

/** /admin/mensajes: the newest messages first, with how many still wait for someone. */
export async function listContactMessages(db: Database): Promise<{ messages: ContactMessageRow[]; pending: number }> {
  const messages = await db
    .select({
      id: contactMessages.id,
      name: contactMessages.name,
      email: contactMessages.email,
      phone: contactMessages.phone,
      subject: contactMessages.subject,
      message: contactMessages.message,
      createdAt: contactMessages.createdAt,
      attendedAt: contactMessages.attendedAt,
      attendedByName: users.name,
    })
    .from(contactMessages)
    .leftJoin(users, eq(users.id, contactMessages.attendedBy))
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(CONTACT_INBOX_LIMIT);
  const [pending] = await db.select({ value: count() }).from(contactMessages).where(isNull(contactMessages.attendedAt));
  return { messages, pending: Number(pending?.value ?? 0) };
}

export type MarkAttendedResult = { ok: true; changed: boolean } | { ok: false; reason: "not_found" };

/** Marks a message attended once; a second click changes nothing and writes no second audit entry. */
export async function markContactMessageAttended(db: Database, actor: StaffActor, messageId: string, now: Date = new Date()): Promise<MarkAttendedResult> {
  return inTransaction(db, async (tx) => {
    const [updated] = await tx
      .update(contactMessages)
      .set({ attendedAt: now, attendedBy: actor.id })
      .where(and(eq(contactMessages.id, messageId), isNull(contactMessages.attendedAt)))
      .returning({ id: contactMessages.id });
    if (!updated) {
      const [exists] = await tx.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.id, messageId));
      return exists ? { ok: true, changed: false } : { ok: false, reason: "not_found" };
    }
    await recordStaffAction(tx, actor, {
      action: "contact_message.attend",
      entityType: "contact_message",
      entityId: messageId,
      before: { attendedAt: null },
      after: { attendedAt: now.toISOString() },
    });
    return { ok: true, changed: true };
  });
}
