import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { isWhatsappOptInAnswer, isWhatsappOptOut } from "@core/whatsapp";
import { isRepeatChangeWord, isRepeatConfirmWord, isRepeatRequest, readRepeatButtonId } from "@core/whatsapp-repeat";
import type { Database } from "../db/client";
import { noteQueuedWork } from "../db/queued-work";
import { readBrandName } from "../content/index.server";
import { shopLogger } from "../observability/index.server";
import { whatsappContacts, whatsappInboundMessages } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { recordWhatsappConsent } from "./consent";
import { answerWhatsappOptInAsk } from "./opt-in-asks";
import { enqueueWhatsappReply } from "./outbox";
import { recordStatusReport } from "./statuses";
import { profileNames, readInbound, readStatus, type InboundMessage } from "./webhook-items";

/**
 * Meta's subscription check (`GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`): the
 * challenge back when the token is ours, otherwise nothing.
 */
export function verifyWebhookSubscription(params: URLSearchParams, verifyToken: string): string | null {
  const token = params.get("hub.verify_token") ?? "";
  const challenge = params.get("hub.challenge");
  if (params.get("hub.mode") !== "subscribe" || !challenge || !sameText(token, verifyToken)) return null;
  return challenge;
}

export type SignatureCheck = "valid" | "missing" | "invalid";

/**
 * `X-Hub-Signature-256: sha256=<hex>`: the HMAC-SHA256 of the raw bytes received, keyed with the
 * App Secret. Computed over the bytes exactly as they arrived, never over JSON parsed and written
 * again (that changes "ñ" into "\u00f1", and the signature with it); compared in constant time.
 */
export function checkWebhookSignature(rawBody: Uint8Array, header: string | null, appSecret: string): SignatureCheck {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!match) return "missing";
  const expected = createHmac("sha256", appSecret).update(rawBody).digest();
  const given = Buffer.from(match[1]!, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected) ? "valid" : "invalid";
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The envelope only (issue 39): each status and message in it is read on its own
 * (./webhook-items.ts), so one item no Meta would send never costs the others.
 */
const changeSchema = z.object({
  field: z.string(),
  value: z
    .object({
      metadata: z
        .object({ phone_number_id: z.string().max(64) })
        .partial()
        .optional(),
      contacts: z.array(z.unknown()).optional(),
      statuses: z.array(z.unknown()).optional(),
      messages: z.array(z.unknown()).optional(),
    })
    .passthrough(),
});

const bodySchema = z.object({
  object: z.string(),
  entry: z.array(z.object({ changes: z.array(changeSchema).max(100) }).passthrough()).max(100),
});

export interface WebhookOutcome {
  /** 400: not Meta's shape; 500: an item could not be written (the others were), so Meta delivers it all again. */
  status: 200 | 400 | 500;
  statuses: number;
  inbound: number;
  optOuts: number;
  /** Items no Meta would send (a NUL where an id goes, a timestamp of 1e16): logged, and a message kept for staff. */
  unreadable: number;
}

/**
 * A verified webhook body (the route checked its size and signature before this). Each status
 * report and inbound message is recorded once, however often Meta delivers it; changes for
 * another phone number of the same app are left alone. A body that is not Meta's shape is a 400.
 *
 * Each item is read and written on its own (issue 39): an unreadable one is logged (a message
 * with a usable id is also stored for staff as «[Mensaje ilegible]») and never stops the rest —
 * a BAJA after it is still honoured — and the answer is 200: sending it again would not make it
 * readable. A write that fails (the database, not the item) is different: the remaining items are
 * still recorded, then the answer is 500 so Meta delivers the batch again; what was recorded is
 * recorded once by its id (wamid; wamid and status), so the redelivery only adds what was missing.
 */
export async function handleWhatsappWebhook(db: Database, rawBody: Uint8Array, options: { now: Date; phoneNumberId: string }): Promise<WebhookOutcome> {
  let parsed: z.infer<typeof bodySchema>;
  try {
    parsed = bodySchema.parse(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(rawBody)));
  } catch {
    return { status: 400, statuses: 0, inbound: 0, optOuts: 0, unreadable: 0 };
  }
  const outcome: WebhookOutcome = { status: 200, statuses: 0, inbound: 0, optOuts: 0, unreadable: 0 };
  if (parsed.object !== "whatsapp_business_account") return outcome;
  const { now } = options;
  /** One item's write; a failure is logged (redacted: no values) and answered 500 once every item was tried. */
  const write = async (what: string, wamid: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      outcome.status = 500;
      console.error(`[whatsapp] webhook ${what} ${wamid} could not be recorded; the others were, and Meta delivers the batch again`, error);
    }
  };
  for (const change of parsed.entry.flatMap((entry) => entry.changes)) {
    if (change.field !== "messages") continue;
    const ownNumber = change.value.metadata?.phone_number_id;
    if (ownNumber !== undefined && ownNumber !== options.phoneNumberId) continue;
    for (const raw of change.value.statuses ?? []) {
      const item = readStatus(raw);
      if (item.kind === "untracked") continue;
      if (item.kind === "unreadable") {
        // Nobody reads status events but the outbox: the log is their record.
        outcome.unreadable += 1;
        shopLogger().warn({ wamid: item.wamid, problems: item.problems }, "WhatsApp webhook: unreadable status report left out");
        continue;
      }
      await write("status", item.report.wamid, async () => {
        await inTransaction(db, (tx) => recordStatusReport(tx, item.report, now), { label: "whatsapp status report" });
        outcome.statuses += 1;
      });
    }
    const names = profileNames(change.value.contacts ?? []);
    for (const raw of change.value.messages ?? []) {
      const item = readInbound(raw, names);
      if (item.kind === "unreadable") {
        outcome.unreadable += 1;
        const { wamid } = item;
        shopLogger().warn(
          { wamid, problems: item.problems },
          wamid ? "WhatsApp webhook: unreadable message kept for staff" : "WhatsApp webhook: unreadable message without a usable id left out",
        );
        if (wamid) await write("message", wamid, () => recordUnreadableInbound(db, { ...item, wamid }, now));
        continue;
      }
      await write("message", item.message.wamid, async () => {
        const result = await recordInbound(db, item.message, now);
        if (result === "opt_out") outcome.optOuts += 1;
        if (result) outcome.inbound += 1;
      });
    }
  }
  return outcome;
}

/** What an inbound message is, as far as the webhook can tell on its own. */
type InboundIntent = "opt_out" | "repeat_request" | "repeat_confirm" | "repeat_change" | "message";

/**
 * Issue 38: a "lo de siempre" (typed, or the reminder's quick reply) and a tap on its summary's
 * buttons are answered by the shop; so may a typed "sí" or "cambiar", when a summary is open for
 * the number (the answering pass decides). Only a sender that is a number: the answer goes to it.
 */
function classify(message: InboundMessage): { intent: InboundIntent; answer: boolean } {
  const typed = message.type === "text" || message.type === "button" ? message.body : null;
  if (message.type === "text" && isWhatsappOptOut(message.body)) return { intent: "opt_out", answer: false };
  const byNumber = /^\d{6,20}$/.test(message.from);
  const button = message.type === "interactive" ? readRepeatButtonId(message.replyId) : null;
  if (button) return { intent: button.action === "confirm" ? "repeat_confirm" : "repeat_change", answer: byNumber };
  if (typed !== null && isRepeatRequest(typed)) return { intent: "repeat_request", answer: byNumber };
  return { intent: "message", answer: byNumber && typed !== null && (isRepeatConfirmWord(typed) || isRepeatChangeWord(typed)) };
}

/**
 * One inbound message, in one transaction: stored once (by Meta's id), the sender's 24-hour window
 * opened, and, for BAJA / STOP / NO, WhatsApp ended for the number at once with one confirmation
 * sent inside that window. A "lo de siempre", a tap on its summary or a typed "sí" is stored with
 * `answerState: pending` in the same transaction, and the jobs' `whatsappConversations` pass
 * answers it right after the webhook's answer (issue 38): Meta is answered at once, and a failure
 * of the answer is tried again, never lost. Other messages wait for staff in Mensajes. Returns
 * what it was, or null when it had been recorded already.
 */
async function recordInbound(db: Database, message: InboundMessage, now: Date): Promise<"opt_out" | "opt_in" | "message" | "answered_later" | null> {
  const { body, sentAt } = message;
  const { intent, answer } = classify(message);
  return inTransaction(db, async (tx) => {
    const [stored] = await tx
      .insert(whatsappInboundMessages)
      .values({
        wamid: message.wamid,
        fromId: message.from,
        profileName: message.profileName,
        messageType: message.type,
        body,
        intent,
        replyId: message.replyId,
        sentAt,
        receivedAt: now,
        // A "baja" is handled here; nobody has to answer it.
        attendedAt: intent === "opt_out" ? now : null,
      })
      .onConflictDoNothing({ target: whatsappInboundMessages.wamid })
      .returning({ id: whatsappInboundMessages.id });
    if (!stored) return null;
    await tx
      .insert(whatsappContacts)
      .values({ phone: message.from, lastInboundAt: sentAt, profileName: message.profileName, updatedAt: now })
      .onConflictDoUpdate({
        target: whatsappContacts.phone,
        set: {
          lastInboundAt: sql`greatest(${whatsappContacts.lastInboundAt}, excluded.last_inbound_at)`,
          profileName: sql`coalesce(excluded.profile_name, ${whatsappContacts.profileName})`,
          updatedAt: now,
        },
      });
    // Issue 39: a SÍ that answers the shop's question proves the number and opts it in.
    if (intent === "message" && isWhatsappOptInAnswer(body) && (await answerWhatsappOptInAsk(tx, { phone: message.from, wamid: message.wamid, body }, now))) {
      await tx.update(whatsappInboundMessages).set({ intent: "opt_in", attendedAt: now }).where(eq(whatsappInboundMessages.id, stored.id));
      return "opt_in";
    }
    if (intent === "opt_out") {
      const ended = await recordWhatsappConsent(tx, { phone: message.from, granted: false, source: "reply", textShown: `Respuesta: ${body}` }, now);
      if (ended) {
        const brandName = await readBrandName(tx);
        await enqueueWhatsappReply(tx, { dedupeKey: `opt-out-confirmation:${message.wamid}`, to: message.from, text: optOutConfirmation(brandName) }, now);
      }
      return "opt_out";
    }
    if (answer) {
      await tx.update(whatsappInboundMessages).set({ answerState: "pending", answerNextAt: now }).where(eq(whatsappInboundMessages.id, stored.id));
      noteQueuedWork("whatsappConversations");
      return "answered_later";
    }
    return "message";
  });
}

/**
 * A message that could not be read, kept once (by its id) for staff in Mensajes: its sender when
 * that was readable, «desconocido» otherwise. It opens no 24-hour window and is no opt-out: what
 * it said is not known for sure (its text, if any, is shown after «[Mensaje ilegible]»).
 */
async function recordUnreadableInbound(
  db: Database,
  message: { wamid: string; from: string | null; profileName: string | null; body: string; sentAt: Date | null },
  now: Date,
): Promise<void> {
  await db
    .insert(whatsappInboundMessages)
    .values({
      wamid: message.wamid,
      fromId: message.from ?? "desconocido",
      profileName: message.profileName,
      messageType: "unreadable",
      body: message.body,
      intent: "message",
      sentAt: message.sentAt ?? now,
      receivedAt: now,
    })
    .onConflictDoNothing({ target: whatsappInboundMessages.wamid });
}

export function optOutConfirmation(brandName: string): string {
  return `Listo: ${brandName} ya no te enviará avisos por WhatsApp. Seguirás recibiendo por correo las novedades de tus pedidos. Si cambias de opinión, vuelve a activarlos en tu perfil o al hacer tu próximo pedido.`;
}
