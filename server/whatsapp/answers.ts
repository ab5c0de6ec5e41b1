import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { whatsappInboundMessages } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { retryDelayMs } from "../notifications/index.server";

/*
 * Customers' messages the shop answers by itself (issue 38, decision 0090): the webhook stores
 * them with `answerState: pending` in the transaction that records them, and the jobs'
 * `whatsappConversations` pass (server/whatsapp-orders/) claims, answers and finishes each. The
 * claim is the outbox's (decision 0074): a short transaction that marks a batch with a token and
 * a lease, so two processes never answer one message at once and a process that dies mid-answer
 * leaves it to the next pass. Each answer is idempotent by the message's Meta id (one summary,
 * one order, one reply per message), so a message answered again after a lost lease changes
 * nothing twice.
 */

/** A claimed message holds this long; after it another pass may take it (the answering process died). */
export const ANSWER_LEASE_MS = 2 * 60_000;
/** After this many failed attempts (about an hour and a half) the message waits for staff instead. */
export const MAX_ANSWER_ATTEMPTS = 8;

export interface InboundToAnswer {
  id: string;
  wamid: string;
  from: string;
  type: string;
  body: string;
  intent: string;
  replyId: string | null;
  profileName: string | null;
  sentAt: Date;
  attempts: number;
  claimToken: string;
}

/** Claims up to `limit` messages due for the shop's answer, oldest first. */
export async function claimInboundToAnswer(db: Database, now: Date, limit: number): Promise<InboundToAnswer[]> {
  const claimToken = randomUUID();
  const due = and(
    eq(whatsappInboundMessages.answerState, "pending"),
    lte(whatsappInboundMessages.answerNextAt, now),
    or(isNull(whatsappInboundMessages.answerClaimedAt), lte(whatsappInboundMessages.answerClaimedAt, new Date(now.getTime() - ANSWER_LEASE_MS))),
  );
  const claimed = await inTransaction(
    db,
    async (tx) => {
      const candidates = await tx
        .select({ id: whatsappInboundMessages.id })
        .from(whatsappInboundMessages)
        .where(due)
        .orderBy(asc(whatsappInboundMessages.sentAt), asc(whatsappInboundMessages.id))
        .limit(limit)
        .for("update", { skipLocked: true });
      if (candidates.length === 0) return [];
      return tx
        .update(whatsappInboundMessages)
        .set({ answerClaimedAt: now, answerClaimToken: claimToken, answerAttempts: sql`${whatsappInboundMessages.answerAttempts} + 1` })
        .where(
          inArray(
            whatsappInboundMessages.id,
            candidates.map((candidate) => candidate.id),
          ),
        )
        .returning();
    },
    { label: "whatsapp answers claim" },
  );
  return claimed.map((row) => ({
    id: row.id,
    wamid: row.wamid,
    from: row.fromId,
    type: row.messageType,
    body: row.body,
    intent: row.intent,
    replyId: row.replyId,
    profileName: row.profileName,
    sentAt: row.sentAt,
    attempts: row.answerAttempts,
    claimToken,
  }));
}

const stillOurs = (message: InboundToAnswer) =>
  and(
    eq(whatsappInboundMessages.id, message.id),
    eq(whatsappInboundMessages.answerState, "pending"),
    eq(whatsappInboundMessages.answerClaimToken, message.claimToken),
  );

/** Thrown inside the answer's transaction when the claim was lost: it rolls back, and whoever holds the claim answers. */
export class AnswerClaimLostError extends Error {
  override name = "AnswerClaimLostError";
}

/**
 * The answer is written (in the caller's transaction, with what it queued): the message is done,
 * with what it turned out to be — a typed "sí" without a summary open stays a message for staff
 * (`intent: "message"`, not attended); what the shop answered is attended by the shop.
 */
export async function finishInboundAnswer(
  tx: DatabaseOrTransaction,
  message: InboundToAnswer,
  outcome: { intent: "repeat_request" | "repeat_confirm" | "repeat_change" | "message" },
  now: Date,
): Promise<void> {
  const handled = outcome.intent !== "message";
  const [done] = await tx
    .update(whatsappInboundMessages)
    .set({
      answerState: "done",
      answerClaimedAt: null,
      answerClaimToken: null,
      answerError: null,
      intent: outcome.intent,
      ...(handled ? { attendedAt: now } : {}),
    })
    .where(stillOurs(message))
    .returning({ id: whatsappInboundMessages.id });
  if (!done) throw new AnswerClaimLostError(`The answer to ${message.wamid} was claimed by another pass`);
}

/**
 * An answer that failed (the database, a bug): tried again after the outbox's back-off; after
 * MAX_ANSWER_ATTEMPTS the message is `failed` and waits for staff in Mensajes as any other.
 */
export async function releaseInboundAnswer(db: Database, message: InboundToAnswer, error: string, now: Date): Promise<"retrying" | "failed"> {
  const last = message.attempts >= MAX_ANSWER_ATTEMPTS;
  await db
    .update(whatsappInboundMessages)
    .set({
      answerState: last ? "failed" : "pending",
      answerNextAt: new Date(now.getTime() + retryDelayMs(message.attempts)),
      answerClaimedAt: null,
      answerClaimToken: null,
      answerError: error.slice(0, 500),
      ...(last ? { intent: "message" } : {}),
    })
    .where(stillOurs(message));
  return last ? "failed" : "retrying";
}
