import { and, desc, eq, gt, inArray, ne } from "drizzle-orm";
import { isRepeatChangeWord, readRepeatButtonId } from "@core/whatsapp-repeat";
import { accountOwningPhone } from "../contacts/index.server";
import { readSiteSettingsFor } from "../content/index.server";
import type { Database } from "../db/client";
import { whatsappRepeatQuotes } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { REMINDER_LINK_DAYS, reorderUrl } from "../reorders/index.server";
import {
  AnswerClaimLostError,
  claimInboundToAnswer,
  enqueueWhatsappInteractive,
  enqueueWhatsappReply,
  finishInboundAnswer,
  releaseInboundAnswer,
  withholdQueuedWhatsapp,
  type InboundToAnswer,
} from "../whatsapp/index.server";
import { orderOfQuote, placeRepeatOrder, repeatCheckoutInput } from "./place";
import { lastOrderOf, priceRepeat, QUOTE_VALID_MS, sourceOrder, type SourceOrder } from "./quote";
import {
  alreadyConfirmedText,
  cannotRepeatText,
  changeAfterConfirmText,
  changeText,
  confirmedText,
  DATE_GONE_LEAD,
  EXPIRED_LEAD,
  noOrderText,
  PRICES_CHANGED_LEAD,
  quoteMessage,
  refusedText,
  STALE_QUOTE_TEXT,
  strangerText,
} from "./texts";

/*
 * The jobs' `whatsappConversations` pass (issue 38, decision 0090): each customer's message the
 * webhook marked for the shop's answer — "lo de siempre", a tap on its summary's buttons, a typed
 * "sí" or "cambiar" — is claimed (server/whatsapp `claimInboundToAnswer`), answered, and finished
 * in the transaction that queues the answer. Everything is keyed on the message's Meta id: one
 * summary (`request_wamid`), one answer (the outbox's dedupe key), one order (the summary's
 * checkout key), however often the answer is tried. A failure is logged and tried again later.
 */

const CLAIM_BATCH = 5;
const MAX_PER_RUN = 50;
/** A typed "sí" confirms the number's open summary only if it was sent within this long (the 24-hour window). */
const TYPED_ANSWER_MS = 24 * 3_600_000;

export interface ConversationsReport {
  answered: number;
  retrying: number;
  failed: number;
}

interface AnswerContext {
  db: Database;
  now: Date;
  siteUrl: string;
}

export async function answerWhatsappConversations(db: Database, input: { now: Date; siteUrl: string }): Promise<ConversationsReport> {
  const report: ConversationsReport = { answered: 0, retrying: 0, failed: 0 };
  const context: AnswerContext = { db, now: input.now, siteUrl: input.siteUrl };
  for (let handled = 0; handled < MAX_PER_RUN;) {
    const claimed = await claimInboundToAnswer(db, input.now, Math.min(CLAIM_BATCH, MAX_PER_RUN - handled));
    if (claimed.length === 0) break;
    for (const message of claimed) {
      try {
        await answerOne(context, message);
        report.answered += 1;
      } catch (error) {
        if (error instanceof AnswerClaimLostError) continue;
        console.error(`[whatsapp-orders] the answer to ${message.wamid} failed; it is tried again later`, error);
        report[await releaseInboundAnswer(db, message, error instanceof Error ? error.message : String(error), input.now)] += 1;
      }
    }
    handled += claimed.length;
  }
  return report;
}

type Intent = "repeat_request" | "repeat_confirm" | "repeat_change" | "message";
type Quote = typeof whatsappRepeatQuotes.$inferSelect;

/** Queues one text answer to the message and finishes it, in one transaction. */
async function answerWithText(context: AnswerContext, message: InboundToAnswer, intent: Intent, text: string, userId: string | null = null): Promise<void> {
  await inTransaction(context.db, async (tx) => {
    await enqueueWhatsappReply(tx, { dedupeKey: `repeat-answer:${message.wamid}`, to: message.from, text, userId }, context.now);
    await finishInboundAnswer(tx, message, { intent }, context.now);
  });
}

async function answerOne(context: AnswerContext, message: InboundToAnswer): Promise<void> {
  if (message.intent === "repeat_request") return answerRepeatRequest(context, message);
  const button = readRepeatButtonId(message.replyId);
  if (button) {
    const [quote] = await context.db.select().from(whatsappRepeatQuotes).where(eq(whatsappRepeatQuotes.id, button.quoteId));
    // A summary is the number's own: a tap naming another number's summary is a message for staff.
    if (!quote || quote.phone !== message.from) return answerWithText(context, message, "message", STALE_QUOTE_TEXT);
    return button.action === "confirm" ? confirmQuote(context, message, quote) : changeQuote(context, message, quote);
  }
  // A typed "sí" or "cambiar": the number's latest summary, if it is open and recent; else it is for staff.
  const [quote] = await context.db
    .select()
    .from(whatsappRepeatQuotes)
    .where(and(eq(whatsappRepeatQuotes.phone, message.from), gt(whatsappRepeatQuotes.createdAt, new Date(message.sentAt.getTime() - TYPED_ANSWER_MS))))
    .orderBy(desc(whatsappRepeatQuotes.createdAt))
    .limit(1);
  if (!quote || quote.status !== "open") {
    await inTransaction(context.db, (tx) => finishInboundAnswer(tx, message, { intent: "message" }, context.now));
    return;
  }
  return isRepeatChangeWord(message.body) ? changeQuote(context, message, quote) : confirmQuote(context, message, quote);
}

/** What the shop's answers name: the contact address and the site. */
async function shopContact(context: AnswerContext) {
  const settings = await readSiteSettingsFor(context.db, ["brandName", "contactEmail"]);
  return { brandName: settings.brandName, contactEmail: settings.contactEmail, siteUrl: context.siteUrl };
}

const reorderLink = (context: AnswerContext, orderId: string) => reorderUrl(orderId, { now: context.now, siteUrl: context.siteUrl, days: REMINDER_LINK_DAYS });

/**
 * "Lo de siempre": only from a number proven an account's (server/contacts) — a typed number
 * proves nothing, so anyone else gets directions and nothing is ordered. The account's last order
 * priced anew becomes a summary with "Confirmar" and "Cambiar".
 */
async function answerRepeatRequest(context: AnswerContext, message: InboundToAnswer, lead: string | null = null): Promise<void> {
  const userId = await accountOwningPhone(context.db, message.from);
  if (!userId) return answerWithText(context, message, "repeat_request", strangerText(await shopContact(context)));
  const source = await lastOrderOf(context.db, userId);
  if (!source) {
    const contact = await shopContact(context);
    return answerWithText(context, message, "repeat_request", noOrderText({ firstName: message.profileName, ...contact }), userId);
  }
  return sendQuote(context, message, { userId, source, lead, intent: "repeat_request" });
}

/** A new summary answering `message` (the one that asked, or a confirmation of an expired one). */
async function sendQuote(
  context: AnswerContext,
  message: InboundToAnswer,
  input: { userId: string; source: SourceOrder; lead: string | null; intent: Intent },
): Promise<void> {
  const priced = await priceRepeat(context.db, input.source, input.userId, context.now);
  if (!priced.ok) return answerWithText(context, message, input.intent, cannotRepeatText(priced.reason, reorderLink(context, input.source.id)), input.userId);
  if (!repeatCheckoutInput({ id: "00000000-0000-4000-8000-000000000000", userId: input.userId, phone: message.from, ...priced.repeat }, input.source))
    return answerWithText(context, message, input.intent, cannotRepeatText("no_data", reorderLink(context, input.source.id)), input.userId);
  await inTransaction(context.db, async (tx) => {
    const values = {
      ...priced.repeat,
      requestWamid: message.wamid,
      phone: message.from,
      userId: input.userId,
      status: "open" as const,
      createdAt: context.now,
      expiresAt: new Date(context.now.getTime() + QUOTE_VALID_MS),
    };
    const [inserted] = await tx.insert(whatsappRepeatQuotes).values(values).onConflictDoNothing({ target: whatsappRepeatQuotes.requestWamid }).returning();
    const quote = inserted ?? (await tx.select().from(whatsappRepeatQuotes).where(eq(whatsappRepeatQuotes.requestWamid, message.wamid)))[0]!;
    // One summary open per number: "sí" confirms the latest, and an older one's buttons answer that it is no longer valid.
    await tx
      .update(whatsappRepeatQuotes)
      .set({ status: "replaced", closedAt: context.now })
      .where(and(eq(whatsappRepeatQuotes.phone, message.from), eq(whatsappRepeatQuotes.status, "open"), ne(whatsappRepeatQuotes.id, quote.id)));
    await enqueueWhatsappInteractive(
      tx,
      {
        dedupeKey: `repeat-quote:${message.wamid}`,
        to: message.from,
        userId: input.userId,
        interactive: quoteMessage(quote, { firstName: input.source.customerFirstName, lead: input.lead, validHours: QUOTE_VALID_MS / 3_600_000 }),
      },
      context.now,
    );
    await finishInboundAnswer(tx, message, { intent: input.intent }, context.now);
  });
}

/**
 * "Confirmar" (or a typed "sí"): places exactly the summary (decision 0090) — once, by its checkout
 * key — and answers with the order's number, day and amount to pay at the door. A summary past its
 * two hours, or whose date, window or prices are no longer offered, is answered with a fresh one;
 * one that was replaced or changed says so.
 */
async function confirmQuote(context: AnswerContext, message: InboundToAnswer, quote: Quote): Promise<void> {
  const placed = await orderOfQuote(context.db, quote.id);
  if (placed) return answerPlaced(context, message, quote, placed, quote.status === "confirmed");
  if (quote.status !== "open") return answerWithText(context, message, "repeat_confirm", STALE_QUOTE_TEXT, quote.userId);
  const source = await sourceOrder(context.db, quote.sourceOrderId);
  if (!source) return answerWithText(context, message, "repeat_confirm", STALE_QUOTE_TEXT, quote.userId);
  if (quote.expiresAt.getTime() <= context.now.getTime()) return freshQuote(context, message, quote, source, EXPIRED_LEAD);
  const input = repeatCheckoutInput(quote, source);
  if (!input) return answerWithText(context, message, "repeat_confirm", cannotRepeatText("no_data", reorderLink(context, source.id)), quote.userId);
  const result = await placeRepeatOrder(context.db, input, { now: context.now, userId: quote.userId, siteUrl: context.siteUrl });
  if (result.ok) {
    const order = await orderOfQuote(context.db, quote.id);
    return answerPlaced(context, message, quote, order!, !result.created);
  }
  if (result.reason === "stale") return freshQuote(context, message, quote, source, DATE_GONE_LEAD);
  const text =
    result.reason === "refused" ? refusedText(result.message, reorderLink(context, source.id)) : cannotRepeatText("minimum", reorderLink(context, source.id));
  return answerWithText(context, message, "repeat_confirm", text, quote.userId);
}

/** The order the summary placed: the summary confirmed, and the answer. */
async function answerPlaced(
  context: AnswerContext,
  message: InboundToAnswer,
  quote: Quote,
  order: { id: string; orderNumber: string; payCents: number; deliveryDate: string; deliveryWindow: string },
  already: boolean,
): Promise<void> {
  await inTransaction(context.db, async (tx) => {
    await tx
      .update(whatsappRepeatQuotes)
      .set({ status: "confirmed", orderId: order.id, orderNumber: order.orderNumber, closedAt: quote.closedAt ?? context.now })
      .where(eq(whatsappRepeatQuotes.id, quote.id));
    const text = already ? alreadyConfirmedText(order) : confirmedText(order);
    // The order's «pedido confirmado» template would say it again: this answer already did, in the conversation.
    await withholdQueuedWhatsapp(tx, `order-confirmed:${order.id}`, "No se envió: el cliente confirmó el pedido en la conversación de WhatsApp");
    await enqueueWhatsappReply(
      tx,
      { dedupeKey: `repeat-answer:${message.wamid}`, to: message.from, text, userId: quote.userId, orderId: order.id },
      context.now,
    );
    await finishInboundAnswer(tx, message, { intent: "repeat_confirm" }, context.now);
  });
}

/** The summary that could not be placed as it was: closed as expired, and a fresh one answers. */
async function freshQuote(context: AnswerContext, message: InboundToAnswer, quote: Quote, source: SourceOrder, lead: string): Promise<void> {
  await context.db
    .update(whatsappRepeatQuotes)
    .set({ status: "expired", closedAt: context.now })
    .where(and(eq(whatsappRepeatQuotes.id, quote.id), inArray(whatsappRepeatQuotes.status, ["open"])));
  const priced = await priceRepeat(context.db, source, quote.userId, context.now);
  const changed = priced.ok && priced.repeat.subtotalCents !== quote.subtotalCents;
  return sendQuote(context, message, { userId: quote.userId, source, lead: changed ? PRICES_CHANGED_LEAD : lead, intent: "repeat_confirm" });
}

/** "Cambiar": the "Repetir pedido" link of the order it repeats (decision 0076), to change anything on the web. */
async function changeQuote(context: AnswerContext, message: InboundToAnswer, quote: Quote): Promise<void> {
  const placed = await orderOfQuote(context.db, quote.id);
  if (placed) return answerWithText(context, message, "message", changeAfterConfirmText(placed.orderNumber), quote.userId);
  await inTransaction(context.db, async (tx) => {
    await tx
      .update(whatsappRepeatQuotes)
      .set({ status: "changed", closedAt: context.now })
      .where(and(eq(whatsappRepeatQuotes.id, quote.id), eq(whatsappRepeatQuotes.status, "open")));
    await enqueueWhatsappReply(
      tx,
      { dedupeKey: `repeat-answer:${message.wamid}`, to: message.from, text: changeText(reorderLink(context, quote.sourceOrderId)), userId: quote.userId },
      context.now,
    );
    await finishInboundAnswer(tx, message, { intent: "repeat_change" }, context.now);
  });
}
