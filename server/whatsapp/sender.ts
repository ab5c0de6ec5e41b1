import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { whatsappContacts, whatsappMessages } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { isLastAttempt, retryDelayMs } from "../notifications/index.server";
import type { OutgoingWhatsapp, SendOutcome, WhatsappClient } from "./clients";
import { phoneProvenForSql } from "../contacts/index.server";
import { mayMessage } from "./consent";
import { wroteBajaAndNothingSinceSql } from "./opt-in-asks";
import { rowsOf } from "./outbox";
import { applyRecordedStatuses, markUnreachable, UNDELIVERABLE_CODE } from "./statuses";

/** Outside this window since the customer's last message, WhatsApp takes templates only (131047). */
export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 3_600_000;
/** A sender holds its claim this long; a claim older than that is due again (the sender died). */
export const SENDING_LEASE_MS = 5 * 60_000;
const CLAIM_BATCH = 5;
const MAX_PER_RUN = 50;
/** Meta's answer that the customer's 24-hour window is closed: only a template may go. */
const OUTSIDE_WINDOW_CODE = 131047;

export interface WhatsappSendReport {
  /** Accepted by the Cloud API (or written by the local stand-in). */
  sent: number;
  /** Failed attempts that will be retried (429, 5xx, network). */
  retrying: number;
  /** Meta refused them for good (131026 undeliverable, 131047). */
  failed: number;
  /** Given up: a day of retries, or an error retrying cannot fix (template, token): staff see them. */
  dead: number;
  /** Not sent: opted out, unreachable, or a free text whose 24-hour window closed. */
  withheld: number;
}

/**
 * Sends the WhatsApp messages that are due (decision 0074; the e-mail sender's rules, decision
 * 0024): a batch is claimed in one short transaction (status `sending`, a claim token, a lease),
 * the Cloud API is called outside any transaction, and the outcome is written only while the claim
 * is still this sender's. Two processes never hold one message at once, so none is sent twice; a
 * sender that dies after Meta accepted and before recording leaves it to be sent again when its
 * lease runs out (at-least-once in that one case). Retries back off like e-mail (30 s doubling to
 * 2 h) and stop after about a day.
 */
export async function sendDueWhatsappMessages(db: Database, client: WhatsappClient, now: Date): Promise<WhatsappSendReport> {
  const started = performance.now();
  const clock = () => new Date(now.getTime() + Math.round(performance.now() - started));
  const report: WhatsappSendReport = { sent: 0, retrying: 0, failed: 0, dead: 0, withheld: 0 };
  let handled = 0;
  while (handled < MAX_PER_RUN) {
    const claimed = await claimDue(db, clock(), Math.min(CLAIM_BATCH, MAX_PER_RUN - handled));
    if (claimed.length === 0) break;
    for (const message of claimed) {
      const refusal = await reasonToWithhold(db, message, clock());
      const outcome = refusal ? null : await client.send(outgoing(message));
      const recorded = refusal ? await withhold(db, message, refusal, clock()) : await recordOutcome(db, message, outcome!, clock());
      if (recorded) report[recorded] += 1;
    }
    handled += claimed.length;
  }
  return report;
}

type ClaimedMessage = typeof whatsappMessages.$inferSelect & { claimToken: string };

async function claimDue(db: Database, at: Date, limit: number): Promise<ClaimedMessage[]> {
  const due = or(
    and(eq(whatsappMessages.status, "pending"), lte(whatsappMessages.nextAttemptAt, at)),
    and(eq(whatsappMessages.status, "sending"), lte(whatsappMessages.claimedAt, new Date(at.getTime() - SENDING_LEASE_MS))),
  );
  const claimToken = randomUUID();
  // Two statements, as the e-mail sender does (decision 0024): `UPDATE … WHERE id IN (SELECT …
  // FOR UPDATE SKIP LOCKED LIMIT n)` may be re-run per row by PostgreSQL and claim more than n.
  const claimed = await inTransaction(db, async (tx) => {
    const candidates = await tx
      .select({ id: whatsappMessages.id })
      .from(whatsappMessages)
      .where(due)
      .orderBy(asc(whatsappMessages.nextAttemptAt), asc(whatsappMessages.createdAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (candidates.length === 0) return [];
    return tx
      .update(whatsappMessages)
      .set({ status: "sending", claimedAt: at, claimToken, lastAttemptAt: at, attempts: sql`${whatsappMessages.attempts} + 1` })
      .where(
        inArray(
          whatsappMessages.id,
          candidates.map((candidate) => candidate.id),
        ),
      )
      .returning();
  });
  return claimed.map((message) => ({ ...message, claimToken }));
}

function outgoing(message: ClaimedMessage): OutgoingWhatsapp {
  return {
    id: message.id,
    to: message.toPhone,
    kind: message.kind === "text" || message.kind === "interactive" ? message.kind : "template",
    templateName: message.templateName,
    interactive: message.interactive,
    languageCode: message.languageCode,
    parameters: message.parameters,
    renderedText: message.renderedText,
    createdAt: message.createdAt,
  };
}

/**
 * Read again as the message is about to leave: an opt-out or an "unreachable" since it was queued
 * stops it for good; a free-text reply goes only inside the customer's 24-hour window.
 */
async function reasonToWithhold(db: Database, message: ClaimedMessage, at: Date): Promise<string | null> {
  // Free text and reply buttons answer the customer: only inside their 24-hour window (issue 38).
  if (message.kind === "text" || message.kind === "interactive") {
    const [contact] = await db
      .select({ lastInboundAt: whatsappContacts.lastInboundAt })
      .from(whatsappContacts)
      .where(eq(whatsappContacts.phone, message.toPhone));
    const open = contact?.lastInboundAt && at.getTime() - contact.lastInboundAt.getTime() < CUSTOMER_SERVICE_WINDOW_MS;
    return open ? null : "Fuera de la ventana de 24 horas: solo se pueden enviar plantillas";
  }
  if (message.kind === "opt_in_ask") {
    const [asking] = rowsOf<{ ok: boolean }>(
      await db.execute(sql`select not (${wroteBajaAndNothingSinceSql(message.toPhone)})
        and not exists (select 1 from ${whatsappContacts} where ${whatsappContacts.phone} = ${message.toPhone} and ${whatsappContacts.unreachableAt} is not null) as ok`),
    );
    return asking?.ok ? null : "El número escribió BAJA o no está en WhatsApp: no se le pregunta";
  }
  const owner = { orderId: sql`${message.orderId}`, userId: sql`${message.userId}` };
  const [allowed] = rowsOf<{ ok: boolean }>(
    await db.execute(sql`select ${mayMessage(message.toPhone)} and ${phoneProvenForSql(sql`${message.toPhone}`, owner)} as ok`),
  );
  return allowed?.ok ? null : "El número ya no acepta avisos por WhatsApp (se dio de baja, no está en WhatsApp o no confirmó que es suyo)";
}

const ours = (message: ClaimedMessage) =>
  and(eq(whatsappMessages.id, message.id), eq(whatsappMessages.status, "sending"), eq(whatsappMessages.claimToken, message.claimToken));
const released = { claimedAt: null, claimToken: null };

async function withhold(db: Database, message: ClaimedMessage, reason: string, at: Date): Promise<keyof WhatsappSendReport | undefined> {
  const updated = await db
    .update(whatsappMessages)
    .set({ status: "withheld", lastError: reason, lastAttemptAt: at, ...released })
    .where(ours(message))
    .returning({ id: whatsappMessages.id });
  return updated.length > 0 ? "withheld" : undefined;
}

/**
 * Writes an attempt's outcome if the claim is still ours. Accepted: Meta's id, then any status
 * that arrived before it. Retryable (429, 5xx, network): again after the back-off, dead after about
 * a day. 131026: failed, and the number is marked unreachable. Anything else is not fixed by
 * retrying the same message (a template Meta does not know, a bad token): dead at once, and staff
 * see it among the alarms on /admin.
 */
async function recordOutcome(db: Database, message: ClaimedMessage, outcome: SendOutcome, at: Date): Promise<keyof WhatsappSendReport | undefined> {
  let result: keyof WhatsappSendReport;
  let changes: Partial<typeof whatsappMessages.$inferInsert>;
  if (outcome.ok) {
    result = "sent";
    changes = { status: "accepted", wamid: outcome.wamid, acceptedAt: at, lastError: null, errorCode: null };
  } else if (outcome.retry && !isLastAttempt(message.attempts)) {
    result = "retrying";
    changes = {
      status: "pending",
      nextAttemptAt: new Date(at.getTime() + retryDelayMs(message.attempts)),
      lastError: outcome.message,
      errorCode: outcome.code,
    };
  } else if (!outcome.retry && (outcome.code === UNDELIVERABLE_CODE || outcome.code === OUTSIDE_WINDOW_CODE)) {
    result = "failed";
    changes = { status: "failed", failedAt: at, lastError: outcome.message, errorCode: outcome.code };
  } else {
    result = "dead";
    changes = { status: "dead", deadAt: at, lastError: outcome.message, errorCode: outcome.code };
  }
  const updated = await db
    .update(whatsappMessages)
    .set({ ...changes, ...released })
    .where(ours(message))
    .returning({ id: whatsappMessages.id });
  if (updated.length === 0) return undefined;
  if (outcome.ok) await applyRecordedStatuses(db, outcome.wamid, at);
  if (!outcome.ok && outcome.code === UNDELIVERABLE_CODE) await markUnreachable(db, message.toPhone, outcome.message, at);
  return result;
}
