import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { phoneProofs } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

/**
 * Who owns a phone number (issue 39, decision 0088), the one place that answers it. A number
 * typed at a checkout, a sign-up or a profile is that order's or that profile's delivery data and
 * proves nothing: anyone can type anyone's number. It belongs to a person only once proven —
 * the number itself answered a WhatsApp question the person asked for, or staff called it and
 * recorded so — and only then may it carry their consent, appear in their Ley 29733 export, be
 * erased with them, or receive messages about their orders.
 */
export type PhoneProofMethod = "whatsapp_reply" | "staff_phone" | "demo";

/** Whose number it was proven to be: an account, an order (a guest's checkout), or both. */
export interface PhoneOwner {
  userId: string | null;
  orderId: string | null;
}

/** The person a question is about, as the customers domain knows them: an account and the orders it found. */
export interface ContactSubject {
  userId: string | null;
  orderIds: readonly string[];
}

export async function recordPhoneProof(
  db: DatabaseOrTransaction,
  proof: PhoneOwner & { phone: string; method: PhoneProofMethod; staffUserId?: string | null; evidence?: string | null },
  now: Date,
): Promise<void> {
  if (!proof.userId && !proof.orderId) throw new Error("A phone proof names the account or the order it proves the number for");
  await db.insert(phoneProofs).values({
    phone: proof.phone,
    userId: proof.userId,
    orderId: proof.orderId,
    method: proof.method,
    staffUserId: proof.staffUserId ?? null,
    evidence: proof.evidence ?? null,
    createdAt: now,
  });
}

function ownedBy(subject: ContactSubject): SQL | null {
  const conditions: SQL[] = [];
  if (subject.userId) conditions.push(eq(phoneProofs.userId, subject.userId));
  if (subject.orderIds.length) conditions.push(inArray(phoneProofs.orderId, [...subject.orderIds]));
  return conditions.length ? or(...conditions)! : null;
}

/** The numbers proven to be the subject's: the only ones their export and erasure reach. */
export async function provenPhonesOf(db: DatabaseOrTransaction, subject: ContactSubject): Promise<string[]> {
  const condition = ownedBy(subject);
  if (!condition) return [];
  const rows = await db.selectDistinct({ phone: phoneProofs.phone }).from(phoneProofs).where(condition);
  return rows.map((row) => row.phone).sort();
}

/** Whether the number is proven for this account (a signed-in person's box needs no question). */
export async function isPhoneProvenFor(db: DatabaseOrTransaction, phone: string, owner: PhoneOwner): Promise<boolean> {
  const condition = ownedBy({ userId: owner.userId, orderIds: owner.orderId ? [owner.orderId] : [] });
  if (!condition) return false;
  const [row] = await db
    .select({ id: phoneProofs.id })
    .from(phoneProofs)
    .where(and(eq(phoneProofs.phone, phone), condition))
    .limit(1);
  return Boolean(row);
}

/**
 * The same rule as a condition inside another statement (the WhatsApp outbox queues many messages
 * in one): the number is proven for the message's order or for its account.
 */
export function phoneProvenForSql(phone: SQL, owner: { orderId: SQL; userId: SQL }): SQL {
  return sql`exists (select 1 from ${phoneProofs} where ${phoneProofs.phone} = ${phone}
    and ((${owner.orderId})::uuid is not null and ${phoneProofs.orderId} = (${owner.orderId})::uuid
      or (${owner.userId})::text is not null and ${phoneProofs.userId} = (${owner.userId})::text))`;
}

/**
 * The account a number is proven for, most recent proof first, or null: whom a WhatsApp message
 * from that number is from, as far as the shop may say.
 */
export async function accountOwningPhone(db: DatabaseOrTransaction, phone: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: phoneProofs.userId })
    .from(phoneProofs)
    .where(and(eq(phoneProofs.phone, phone), sql`${phoneProofs.userId} is not null`))
    .orderBy(sql`${phoneProofs.id} desc`)
    .limit(1);
  return row?.userId ?? null;
}

/**
 * `accountOwningPhone` for many numbers at once (Mensajes lists a hundred conversations): each
 * number that is proven an account's, with that account (its most recent proof).
 */
export async function accountsOwningPhones(db: DatabaseOrTransaction, phones: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(phones)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([phoneProofs.phone], { phone: phoneProofs.phone, userId: phoneProofs.userId })
    .from(phoneProofs)
    .where(and(inArray(phoneProofs.phone, unique), sql`${phoneProofs.userId} is not null`))
    .orderBy(phoneProofs.phone, sql`${phoneProofs.id} desc`);
  return new Map(rows.map((row) => [row.phone, row.userId!]));
}

/** Anonymisation: the subject's proofs lose the number (the record that a proof existed stays). */
export async function erasePhoneProofsOf(db: DatabaseOrTransaction, subject: ContactSubject, placeholder: string): Promise<void> {
  const condition = ownedBy(subject);
  if (!condition) return;
  await db.update(phoneProofs).set({ phone: placeholder, evidence: null }).where(condition);
}
