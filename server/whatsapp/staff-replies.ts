import { and, eq, inArray, sql } from "drizzle-orm";
import { withoutControlCharacters } from "@core/input-schemas";
import { OPTED_OUT_MESSAGE, STAFF_REPLY_MAX, WINDOW_CLOSED_MESSAGE } from "@core/whatsapp";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { whatsappContacts, whatsappInboundMessages } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { whatsappEnabled } from "./channel";
import { wroteBajaAndNothingSinceSql } from "./opt-in-asks";
import { enqueueWhatsappReply, rowsOf } from "./outbox";
import { customerServiceWindowEnd, pendingMessagesOf } from "./threads";

export type StaffReplyResult =
  /** `queued: false`: that request key had sent its reply already (a double submit): nothing new. */
  { ok: true; queued: boolean; attended: number } | { ok: false; reason: "whatsapp_off" | "invalid" | "window_closed" | "opted_out"; message: string };

/**
 * A staff member's free-text answer in a WhatsApp thread (issue 38): queued in the outbox like the
 * shop's own replies and sent by the same sender, only inside the customer's 24-hour window (the
 * sender checks again when it leaves: Meta refuses free text outside it with 131047), never to a
 * number that wrote BAJA and nothing since. The request key (one per form shown) makes a double
 * submit send once. In one transaction, under the number's row lock: the message, the thread's
 * pending messages marked attended by it, and the audit line.
 */
export async function replyOnWhatsappByStaff(
  db: Database,
  actor: StaffActor,
  input: { phone: string; text: string; requestKey: string },
  now: Date,
): Promise<StaffReplyResult> {
  if (!whatsappEnabled()) return { ok: false, reason: "whatsapp_off", message: "WhatsApp no está activo en esta tienda." };
  const text = withoutControlCharacters(input.text, "text").trim();
  if (!/^\d{6,20}$/.test(input.phone)) return { ok: false, reason: "invalid", message: "Solo se puede responder a un número de WhatsApp." };
  if (text === "") return { ok: false, reason: "invalid", message: "Escribe tu respuesta." };
  if (text.length > STAFF_REPLY_MAX) return { ok: false, reason: "invalid", message: `La respuesta puede tener como máximo ${STAFF_REPLY_MAX} caracteres.` };
  return inTransaction(db, async (tx) => {
    const [contact] = await tx
      .select({ lastInboundAt: whatsappContacts.lastInboundAt })
      .from(whatsappContacts)
      .where(eq(whatsappContacts.phone, input.phone))
      .for("update");
    if (!customerServiceWindowEnd(contact?.lastInboundAt ?? null, now)) return { ok: false, reason: "window_closed", message: WINDOW_CLOSED_MESSAGE };
    const [blocked] = rowsOf<{ blocked: boolean }>(await tx.execute(sql`select ${wroteBajaAndNothingSinceSql(input.phone)} as blocked`));
    if (blocked?.blocked) return { ok: false, reason: "opted_out", message: OPTED_OUT_MESSAGE };
    const queued = await enqueueWhatsappReply(tx, { dedupeKey: `staff-reply:${input.requestKey}`, to: input.phone, text, staffUserId: actor.id }, now);
    if (!queued) return { ok: true, queued: false, attended: 0 };
    // Answering the thread attends what waited in it (the "Marcar atendido" of each message).
    const pending = await pendingMessagesOf(tx, input.phone, now);
    if (pending.length)
      await tx
        .update(whatsappInboundMessages)
        .set({ attendedAt: now, attendedBy: actor.id })
        .where(and(inArray(whatsappInboundMessages.id, pending), sql`${whatsappInboundMessages.attendedAt} is null`));
    await recordStaffAction(tx, actor, {
      action: "whatsapp.reply",
      entityType: "whatsapp_number",
      entityId: input.phone,
      after: { requestKey: input.requestKey, characters: text.length, attended: pending },
    });
    return { ok: true, queued: true, attended: pending.length };
  });
}
