import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client";
import { outboxEmails } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { recordStaffAction, type StaffActor } from "../audit/index.server";

/** An email the sender gave up on, as staff see it (the CLI today, /admin later). */
export interface DeadEmail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  deadAt: Date | null;
}

/** Dead letters, most recent first. */
export async function listDeadEmails(db: Database, { limit = 100 }: { limit?: number } = {}): Promise<DeadEmail[]> {
  return db
    .select({
      id: outboxEmails.id,
      kind: outboxEmails.kind,
      to: outboxEmails.toAddress,
      subject: outboxEmails.subject,
      attempts: outboxEmails.attempts,
      lastError: outboxEmails.lastError,
      createdAt: outboxEmails.createdAt,
      deadAt: outboxEmails.deadAt,
    })
    .from(outboxEmails)
    .where(eq(outboxEmails.status, "dead"))
    .orderBy(desc(outboxEmails.deadAt), desc(outboxEmails.createdAt))
    .limit(limit);
}

export type RetryDeadEmailResult = { ok: true } | { ok: false; reason: "not_found" | "not_dead" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Makes a dead letter due again with a fresh retry schedule (staff retry once the cause is fixed:
 * a mistyped address, SMTP credentials). The last error stays until the next attempt replaces it.
 * Only a dead email can be retried, so a retry can never resend one that was sent.
 */
export async function retryDeadEmail(db: DatabaseOrTransaction, id: string, now: Date): Promise<RetryDeadEmailResult> {
  if (!UUID.test(id)) return { ok: false, reason: "not_found" };
  const retried = await db
    .update(outboxEmails)
    .set({ status: "pending", nextAttemptAt: now, attempts: 0, deadAt: null })
    .where(and(eq(outboxEmails.id, id), eq(outboxEmails.status, "dead")))
    .returning({ id: outboxEmails.id });
  if (retried.length > 0) return { ok: true };
  const [exists] = await db.select({ id: outboxEmails.id }).from(outboxEmails).where(eq(outboxEmails.id, id));
  return { ok: false, reason: exists ? "not_dead" : "not_found" };
}

/** "Reintentar" on the back office's home (issue 10): the same retry, audited in its transaction. */
export async function retryDeadEmailByStaff(db: Database, actor: StaffActor, id: string, now: Date): Promise<RetryDeadEmailResult> {
  return inTransaction(db, async (tx) => {
    const result = await retryDeadEmail(tx, id, now);
    if (result.ok)
      await recordStaffAction(tx, actor, {
        action: "email.retry",
        entityType: "email",
        entityId: id,
        before: { status: "dead" },
        after: { status: "pending" },
      });
    return result;
  });
}

/**
 * The e-mail outbox for the metrics (issue 27): e-mails waiting to leave (pending or being sent)
 * and dead letters. Both counts use the (status, next attempt) index.
 */
export async function emailOutboxCounts(db: Database): Promise<{ backlog: number; dead: number }> {
  const [backlog] = await db
    .select({ value: count() })
    .from(outboxEmails)
    .where(inArray(outboxEmails.status, ["pending", "sending"]));
  const [dead] = await db.select({ value: count() }).from(outboxEmails).where(eq(outboxEmails.status, "dead"));
  return { backlog: Number(backlog?.value ?? 0), dead: Number(dead?.value ?? 0) };
}
