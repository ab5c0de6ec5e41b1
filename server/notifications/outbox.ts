import { outboxEmails, type EmailAttachmentRef } from "../db/schema";
import { noteQueuedWork } from "../db/queued-work";
import type { DatabaseOrTransaction } from "../db/transaction";

export interface EmailMessage {
  /** One email per key, ever: enqueueing the same key again does nothing. */
  dedupeKey: string;
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Files made when the email is sent (e.g. an invoice's PDF), stored as references. */
  attachments?: EmailAttachmentRef[];
  /** Sent no earlier than this (a paced message, decision 0073); otherwise as soon as it is queued. */
  notBefore?: Date;
}

/**
 * Queues an email in the same transaction as the change it reports (outbox pattern), so a
 * rolled-back payment sends nothing and a replayed one sends nothing twice.
 */
export async function enqueueEmail(db: DatabaseOrTransaction, message: EmailMessage, now: Date): Promise<boolean> {
  return (await enqueueEmails(db, [message], now)) > 0;
}

/** `enqueueEmail` for many messages in one statement (a renewal batch's confirmations); returns how many were new. */
export async function enqueueEmails(db: DatabaseOrTransaction, messages: readonly EmailMessage[], now: Date): Promise<number> {
  if (messages.length === 0) return 0;
  noteQueuedWork("emails");
  const inserted = await db
    .insert(outboxEmails)
    .values(
      messages.map((message) => ({
        dedupeKey: message.dedupeKey,
        kind: message.kind,
        toAddress: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        attachments: message.attachments && message.attachments.length > 0 ? message.attachments : null,
        createdAt: now,
        // Due from the caller's clock, not the database's, like every other time the shop keeps.
        nextAttemptAt: message.notBefore && message.notBefore > now ? message.notBefore : now,
      })),
    )
    .onConflictDoNothing({ target: outboxEmails.dedupeKey })
    .returning({ id: outboxEmails.id });
  return inserted.length;
}
