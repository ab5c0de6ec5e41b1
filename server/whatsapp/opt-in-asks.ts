import { and, desc, eq, gt, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { WHATSAPP_OPT_IN_TEXT_VERSION, whatsappOptInText } from "@core/whatsapp";
import { isPhoneProvenFor, recordPhoneProof } from "../contacts/index.server";
import { readBrandName } from "../content/index.server";
import { whatsappConsentEvents, whatsappInboundMessages, whatsappOptInAsks } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { whatsappEnabled } from "./channel";
import { currentWhatsappConsent, recordWhatsappConsent, type WhatsappConsentSource } from "./consent";
import { enqueueWhatsappOptInAsk, enqueueWhatsappReply } from "./outbox";
import { fillTemplate } from "./templates";

/** One question to a number a day, whoever ticks the box: a stranger cannot flood someone's WhatsApp. */
const ASK_INTERVAL_MS = 24 * 3_600_000;
/** An answer counts for the question asked within this long. */
const ANSWER_WINDOW_MS = 7 * 24 * 3_600_000;

export interface WhatsappOptInRequest {
  phone: string;
  source: Extract<WhatsappConsentSource, "checkout" | "signup" | "profile" | "telefono">;
  userId: string | null;
  email: string | null;
  orderId?: string | null;
  /** The order the box was ticked with (the question names it), when there is one. */
  orderNumber?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
}

/**
 * - `granted`: the number is proven for the signed-in person, so their box is their consent;
 * - `asked`: the number was sent the question and nothing else goes to it until it answers SÍ;
 * - `not_asked`: a question left for it within the day already; this one is recorded, never sent;
 * - `blocked`: the number wrote BAJA and has not written since: nothing is sent to it;
 * - `unchanged`: the number already receives this person's messages.
 */
export type WhatsappOptInOutcome = "granted" | "asked" | "not_asked" | "blocked" | "unchanged";

/**
 * A ticked WhatsApp box (issue 39, decision 0088). A number typed at a checkout, a sign-up or a
 * profile proves nothing: the opt-in exists once the number itself answers the question this
 * sends, and only a number proven for the signed-in person opts in at once. A number that wrote
 * BAJA gets nothing, not even the question, until it writes to the shop again itself.
 */
export async function requestWhatsappOptIn(db: DatabaseOrTransaction, request: WhatsappOptInRequest, now: Date): Promise<WhatsappOptInOutcome> {
  if (!whatsappEnabled()) return "unchanged";
  if (await wroteBajaAndNothingSince(db, request.phone)) return "blocked";
  const owner = { userId: request.userId, orderId: null };
  if (request.userId && (await isPhoneProvenFor(db, request.phone, owner))) {
    const written = await recordWhatsappConsent(
      db,
      {
        phone: request.phone,
        granted: true,
        source: request.source,
        userId: request.userId,
        email: request.email,
        orderId: request.orderId ?? null,
        ...evidence(request),
      },
      now,
    );
    return written ? "granted" : "unchanged";
  }
  const brandName = await readBrandName(db);
  const recent = await db
    .select({ id: whatsappOptInAsks.id })
    .from(whatsappOptInAsks)
    .where(and(eq(whatsappOptInAsks.phone, request.phone), gt(whatsappOptInAsks.sentAt, new Date(now.getTime() - ASK_INTERVAL_MS))))
    .limit(1);
  const [ask] = await db
    .insert(whatsappOptInAsks)
    .values({
      phone: request.phone,
      source: request.source,
      textShown: whatsappOptInText(brandName),
      textVersion: WHATSAPP_OPT_IN_TEXT_VERSION,
      userId: request.userId,
      email: request.email?.trim().toLowerCase() ?? null,
      orderId: request.orderId ?? null,
      ...evidence(request),
      createdAt: now,
      sentAt: recent.length ? null : now,
    })
    .returning({ id: whatsappOptInAsks.id });
  if (recent.length) return "not_asked";
  const where = request.orderNumber ? `pedido ${request.orderNumber}` : "tu cuenta";
  await enqueueWhatsappOptInAsk(
    db,
    {
      dedupeKey: `opt-in-ask:${ask!.id}`,
      to: request.phone,
      // The question has no link: its only button is the quick reply.
      template: fillTemplate("optInAsk", [brandName, where], { siteUrl: "" }),
      orderId: request.orderId ?? null,
      userId: request.userId,
      customerEmail: request.email,
    },
    now,
  );
  return "asked";
}

function evidence(request: WhatsappOptInRequest) {
  return { clientAddress: request.clientAddress ?? null, userAgent: request.userAgent ? request.userAgent.slice(0, 400) : null };
}

/**
 * The number's latest choice is a BAJA it wrote, and no message of its own came after it: the
 * shop sends it nothing, a question included (issue 39).
 */
export function wroteBajaAndNothingSinceSql(phone: SQL | string): SQL {
  const number = typeof phone === "string" ? sql`${phone}` : phone;
  return sql`exists (select 1 from (select ${whatsappConsentEvents.granted} as granted, ${whatsappConsentEvents.source} as source, ${whatsappConsentEvents.createdAt} as at
      from ${whatsappConsentEvents} where ${whatsappConsentEvents.phone} = ${number} order by ${whatsappConsentEvents.id} desc limit 1) latest
    where latest.granted = false and latest.source = 'reply'
      and not exists (select 1 from ${whatsappInboundMessages} where ${whatsappInboundMessages.fromId} = ${number} and ${whatsappInboundMessages.receivedAt} > latest.at))`;
}

async function wroteBajaAndNothingSince(db: DatabaseOrTransaction, phone: string): Promise<boolean> {
  const result = (await db.execute(sql`select ${wroteBajaAndNothingSinceSql(phone)} as blocked`)) as unknown as { rows: { blocked: boolean }[] };
  return Boolean(result.rows[0]?.blocked);
}

/**
 * An inbound SÍ (issue 39): the answer to the latest question sent to that number within a week
 * opts it in with the text its person saw, and proves the number theirs (for their account and
 * the order it was asked with). One confirmation answers, inside the 24-hour window the reply
 * itself opened. Returns whether it answered a question; otherwise the SÍ is a message for staff.
 * The caller holds the inbound message's transaction (one answer per Meta message id).
 */
export async function answerWhatsappOptInAsk(db: DatabaseOrTransaction, reply: { phone: string; wamid: string; body: string }, now: Date): Promise<boolean> {
  const [ask] = await db
    .select()
    .from(whatsappOptInAsks)
    .where(
      and(
        eq(whatsappOptInAsks.phone, reply.phone),
        isNotNull(whatsappOptInAsks.sentAt),
        isNull(whatsappOptInAsks.answeredAt),
        gt(whatsappOptInAsks.sentAt, new Date(now.getTime() - ANSWER_WINDOW_MS)),
      ),
    )
    .orderBy(desc(whatsappOptInAsks.sentAt))
    .limit(1)
    .for("update");
  if (!ask) return false;
  await db.update(whatsappOptInAsks).set({ answeredAt: now }).where(eq(whatsappOptInAsks.id, ask.id));
  await recordWhatsappConsent(
    db,
    {
      phone: reply.phone,
      granted: true,
      source: "reply",
      textShown: `${ask.textShown} Respuesta por WhatsApp: ${reply.body.slice(0, 200)}`,
      textVersion: ask.textVersion,
      userId: ask.userId,
      email: ask.email,
      orderId: ask.orderId,
      clientAddress: ask.clientAddress,
      userAgent: ask.userAgent,
    },
    now,
  );
  await recordPhoneProof(db, { phone: reply.phone, userId: ask.userId, orderId: ask.orderId, method: "whatsapp_reply", evidence: reply.wamid }, now);
  const brandName = await readBrandName(db);
  await enqueueWhatsappReply(
    db,
    {
      dedupeKey: `opt-in-confirmation:${reply.wamid}`,
      to: reply.phone,
      text: `¡Listo! ${brandName} te avisará por aquí de tus pedidos y entregas. Para dejar de recibir avisos, responde BAJA.`,
    },
    now,
  );
  return true;
}

/**
 * What an account's profile says of WhatsApp notices for its number (issue 39): `on` only when
 * the number opted in and is proven the account's — another person's opt-in of a number typed
 * here is theirs, not this account's; `asked` while the question waits for the number's SÍ.
 */
export async function accountWhatsappState(db: DatabaseOrTransaction, userId: string, phone: string | null, now: Date): Promise<"on" | "asked" | "off"> {
  if (!phone) return "off";
  const latest = await currentWhatsappConsent(db, phone);
  if (latest?.granted && (await isPhoneProvenFor(db, phone, { userId, orderId: null }))) return "on";
  const [pending] = await db
    .select({ id: whatsappOptInAsks.id })
    .from(whatsappOptInAsks)
    .where(
      and(
        eq(whatsappOptInAsks.phone, phone),
        eq(whatsappOptInAsks.userId, userId),
        // Only a question that left: one held back by the day's limit waits for nothing.
        isNotNull(whatsappOptInAsks.sentAt),
        isNull(whatsappOptInAsks.answeredAt),
        gt(whatsappOptInAsks.createdAt, new Date(now.getTime() - ANSWER_WINDOW_MS)),
      ),
    )
    .limit(1);
  return pending ? "asked" : "off";
}

/** An unticked profile box withdraws the account's questions still waiting: a later SÍ opts nothing in. */
export async function closeOptInAsksOf(db: DatabaseOrTransaction, userId: string, now: Date): Promise<void> {
  await db
    .update(whatsappOptInAsks)
    .set({ answeredAt: now })
    .where(and(eq(whatsappOptInAsks.userId, userId), isNull(whatsappOptInAsks.answeredAt)));
}
