import { asc, eq } from "drizzle-orm";
import { whatsappRepeatQuotes } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

/*
 * Ley 29733 (decisions 0051, 0088): a "lo de siempre" summary holds the number that asked and the
 * address and pin it would deliver to. Summaries are always an account's (only a number proven an
 * account's gets one), so the account is whose they are.
 */

/** The account's summaries for its export: what was offered, to which number and address, and what became of it. */
export async function collectRepeatQuotes(db: DatabaseOrTransaction, userId: string | null) {
  if (!userId) return [];
  return db
    .select({
      phone: whatsappRepeatQuotes.phone,
      lines: whatsappRepeatQuotes.lines,
      totalCents: whatsappRepeatQuotes.totalCents,
      payCents: whatsappRepeatQuotes.payCents,
      districtName: whatsappRepeatQuotes.districtName,
      address: whatsappRepeatQuotes.address,
      lat: whatsappRepeatQuotes.lat,
      lng: whatsappRepeatQuotes.lng,
      deliveryDate: whatsappRepeatQuotes.deliveryDate,
      deliveryWindow: whatsappRepeatQuotes.deliveryWindow,
      status: whatsappRepeatQuotes.status,
      orderNumber: whatsappRepeatQuotes.orderNumber,
      createdAt: whatsappRepeatQuotes.createdAt,
    })
    .from(whatsappRepeatQuotes)
    .where(eq(whatsappRepeatQuotes.userId, userId))
    .orderBy(asc(whatsappRepeatQuotes.createdAt));
}

/** Anonymisation: the account's summaries keep their amounts, dates and states, not the number, address, pin or notes. */
export async function eraseRepeatQuotesOf(db: DatabaseOrTransaction, userId: string | null, placeholder: string): Promise<void> {
  if (!userId) return;
  await db
    .update(whatsappRepeatQuotes)
    .set({ phone: placeholder, address: placeholder, lat: null, lng: null, deliveryNotes: null })
    .where(eq(whatsappRepeatQuotes.userId, userId));
}
