import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { isWhatsappOptInAnswer, isWhatsappOptOut } from "@core/whatsapp";
import type { Database } from "../db/client";
import { readBrandName } from "../content/index.server";
import { whatsappContacts, whatsappInboundMessages } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { recordWhatsappConsent } from "./consent";
import { answerWhatsappOptInAsk } from "./opt-in-asks";
import { enqueueWhatsappReply } from "./outbox";
import { recordStatusReport, type ReportedStatus } from "./statuses";

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

const epochSeconds = z
  .union([z.string(), z.number()])
  .transform((value) => Number(value))
  .refine((value) => Number.isFinite(value) && value > 0);

const statusSchema = z.object({
  id: z.string().min(1).max(200),
  status: z.string().max(40),
  timestamp: epochSeconds,
  recipient_id: z.string().max(64).optional(),
  errors: z.array(z.object({ code: z.number().int().optional(), title: z.string().max(500).optional(), message: z.string().max(500).optional() })).optional(),
});

const inboundSchema = z
  .object({
    from: z.string().min(1).max(64),
    id: z.string().min(1).max(200),
    timestamp: epochSeconds,
    type: z.string().max(40),
  })
  .passthrough();

const changeSchema = z.object({
  field: z.string(),
  value: z
    .object({
      metadata: z
        .object({ phone_number_id: z.string().max(64) })
        .partial()
        .optional(),
      contacts: z.array(z.object({ wa_id: z.string().max(64).optional(), profile: z.object({ name: z.string().max(200).optional() }).optional() })).optional(),
      statuses: z.array(statusSchema).optional(),
      messages: z.array(inboundSchema).optional(),
    })
    .passthrough(),
});

const bodySchema = z.object({
  object: z.string(),
  entry: z.array(z.object({ changes: z.array(changeSchema).max(100) }).passthrough()).max(100),
});

export interface WebhookOutcome {
  status: 200 | 400;
  statuses: number;
  inbound: number;
  optOuts: number;
}

/**
 * A verified webhook body (the route checked its size and signature before this). Each status
 * report and inbound message is recorded once, however often Meta delivers it; changes for
 * another phone number of the same app are left alone. A body that is not Meta's shape is a 400.
 */
export async function handleWhatsappWebhook(db: Database, rawBody: Uint8Array, options: { now: Date; phoneNumberId: string }): Promise<WebhookOutcome> {
  let parsed: z.infer<typeof bodySchema>;
  try {
    parsed = bodySchema.parse(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(rawBody)));
  } catch {
    return { status: 400, statuses: 0, inbound: 0, optOuts: 0 };
  }
  const outcome: WebhookOutcome = { status: 200, statuses: 0, inbound: 0, optOuts: 0 };
  if (parsed.object !== "whatsapp_business_account") return outcome;
  for (const change of parsed.entry.flatMap((entry) => entry.changes)) {
    if (change.field !== "messages") continue;
    const ownNumber = change.value.metadata?.phone_number_id;
    if (ownNumber !== undefined && ownNumber !== options.phoneNumberId) continue;
    for (const status of change.value.statuses ?? []) {
      if (!isReportedStatus(status.status)) continue;
      const error = status.errors?.[0];
      await recordStatusReport(
        db,
        {
          wamid: status.id,
          status: status.status,
          occurredAt: new Date(status.timestamp * 1000),
          errorCode: error?.code ?? null,
          errorTitle: error ? [error.title, error.message].filter(Boolean).join(": ") || null : null,
        },
        options.now,
      );
      outcome.statuses += 1;
    }
    const names = new Map((change.value.contacts ?? []).flatMap((contact) => (contact.wa_id ? [[contact.wa_id, contact.profile?.name ?? null] as const] : [])));
    for (const message of change.value.messages ?? []) {
      const result = await recordInbound(db, { ...message, profileName: names.get(message.from) ?? null }, options.now);
      if (result === "opt_out") outcome.optOuts += 1;
      if (result) outcome.inbound += 1;
    }
  }
  return outcome;
}

function isReportedStatus(value: string): value is ReportedStatus {
  return value === "sent" || value === "delivered" || value === "read" || value === "failed";
}

/**
 * One inbound message, in one transaction: stored once (by Meta's id), the sender's 24-hour window
 * opened, and, for BAJA / STOP / NO, WhatsApp ended for the number at once with one confirmation
 * sent inside that window. Other messages wait for staff in Mensajes. Returns what it was, or null
 * when it had been recorded already.
 */
async function recordInbound(
  db: Database,
  message: z.infer<typeof inboundSchema> & { profileName: string | null },
  now: Date,
): Promise<"opt_out" | "opt_in" | "message" | null> {
  const body = inboundText(message);
  const intent = message.type === "text" && isWhatsappOptOut(body) ? "opt_out" : "message";
  const sentAt = new Date(message.timestamp * 1000);
  return inTransaction(db, async (tx) => {
    const [stored] = await tx
      .insert(whatsappInboundMessages)
      .values({
        wamid: message.id,
        fromId: message.from,
        profileName: message.profileName,
        messageType: message.type,
        body,
        intent,
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
    if (intent === "message" && isWhatsappOptInAnswer(body) && (await answerWhatsappOptInAsk(tx, { phone: message.from, wamid: message.id, body }, now))) {
      await tx.update(whatsappInboundMessages).set({ intent: "opt_in", attendedAt: now }).where(eq(whatsappInboundMessages.id, stored.id));
      return "opt_in";
    }
    if (intent === "opt_out") {
      const ended = await recordWhatsappConsent(tx, { phone: message.from, granted: false, source: "reply", textShown: `Respuesta: ${body}` }, now);
      if (ended) {
        const brandName = await readBrandName(tx);
        await enqueueWhatsappReply(tx, { dedupeKey: `opt-out-confirmation:${message.id}`, to: message.from, text: optOutConfirmation(brandName) }, now);
      }
    }
    return intent;
  });
}

export function optOutConfirmation(brandName: string): string {
  return `Listo: ${brandName} ya no te enviará avisos por WhatsApp. Seguirás recibiendo por correo las novedades de tus pedidos. Si cambias de opinión, vuelve a activarlos en tu perfil o al hacer tu próximo pedido.`;
}

/** What staff read of an inbound message: its text, or what kind of thing it was. */
function inboundText(message: Record<string, unknown> & { type: string }): string {
  const part = (message[message.type] ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value.slice(0, 4000) : "");
  switch (message.type) {
    case "text":
      return text(part.body);
    case "button":
      return text(part.text);
    case "interactive": {
      const reply = (part.button_reply ?? part.list_reply ?? {}) as Record<string, unknown>;
      return text(reply.title);
    }
    case "location":
      return `[Ubicación] ${[text(part.name), text(part.address), part.latitude !== undefined ? `${String(part.latitude)}, ${String(part.longitude)}` : ""].filter(Boolean).join(" · ")}`;
    case "image":
    case "video":
    case "document":
    case "audio":
    case "sticker":
      return `[${MEDIA_LABELS[message.type]}]${part.caption ? ` ${text(part.caption)}` : ""}`;
    case "reaction":
      return `[Reacción] ${text(part.emoji)}`;
    default:
      return "[Mensaje de un tipo que la tienda no muestra]";
  }
}

const MEDIA_LABELS: Record<string, string> = { image: "Imagen", video: "Video", document: "Documento", audio: "Audio", sticker: "Sticker" };
