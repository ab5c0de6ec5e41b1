import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "../config/env";
import type { Database } from "../db/client";
import { outboxEmails, type EmailAttachmentRef } from "../db/schema";
import { isLastAttempt, isPermanentRefusal, retryDelayMs } from "./retry-schedule";
import { addressesWithPromotionalConsent, emailPreferencesUrl } from "../consent/index.server";
import { isEmailAddress } from "@core/email-address";
import { isPromotionalEmailKind } from "./templates/promotional";
import { inTransaction } from "../db/transaction";
import { eraseOutboxFiles, outboxDir, outboxFileBase } from "./outbox-files";

/** A file sent with an email, made at sending time from the row's attachment references. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  id: string;
  kind: string;
  createdAt: Date;
  attachments: MailAttachment[];
  /** Promotions only: the one-click unsubscribe URL for the List-Unsubscribe headers (RFC 8058). */
  listUnsubscribeUrl?: string;
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

/**
 * Turns an email's attachment references into files. Handed in by the caller (the jobs, which get
 * it from the domain that owns the files), so notifications never import the invoices domain.
 * Runs outside any transaction (it only reads), under RENDER_TIMEOUT_MS.
 */
export type AttachmentRenderer = (db: Database, refs: EmailAttachmentRef[]) => Promise<MailAttachment[]>;

/**
 * How long SMTP may stay silent before the attempt fails: a server that accepts the connection
 * and then hangs must not hold a sender (and, before, a transaction) for nodemailer's default
 * ten minutes of socket inactivity.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000, dnsTimeout: 15_000 };

/** SMTP through nodemailer when SMTP_URL is set. */
export function smtpTransport(url: string, timeouts: Partial<typeof SMTP_TIMEOUTS> = {}): MailTransport {
  const transporter: Transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS, ...timeouts });
  return {
    async send(message) {
      await transporter.sendMail(nodemailerMessage(message));
    },
  };
}

function nodemailerMessage(message: MailMessage) {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    html: message.html,
    text: message.text,
    attachments: message.attachments.map((file) => ({ filename: file.filename, content: file.content, contentType: file.contentType })),
    // RFC 2369 + RFC 8058: mail clients offer "unsubscribe" and POST `List-Unsubscribe=One-Click` to the URL.
    ...(message.listUnsubscribeUrl
      ? { list: { unsubscribe: message.listUnsubscribeUrl }, headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } }
      : {}),
  };
}

/**
 * Without SMTP, every email is written to a folder as a real .eml (open it in any mail client)
 * and an .html copy (open it in a browser): the local outbox a developer reads. Attachments are
 * inside the .eml and also written beside it as plain files, listed in the .json.
 */
export function folderTransport(dir: string): MailTransport {
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const info = await writer.sendMail(nodemailerMessage(message));
      const base = path.join(dir, outboxFileBase({ id: message.id, createdAt: message.createdAt, label: message.kind }));
      const attachments = [];
      for (const file of message.attachments) {
        const name = `${path.basename(base)}.${path.basename(file.filename)}`;
        await writeFile(path.join(dir, name), file.content);
        attachments.push({ filename: file.filename, file: name, contentType: file.contentType, size: file.content.length });
      }
      await writeFile(`${base}.eml`, info.message as Buffer);
      await writeFile(`${base}.html`, message.html);
      // Written last, and whole: a reader polling for the .json finds the email's other files already
      // there, and never half a .json (written beside it, then renamed into place in one step).
      await writeFile(
        `${base}.json.partial`,
        JSON.stringify({ to: message.to, subject: message.subject, text: message.text, kind: message.kind, attachments }, null, 2),
      );
      await rename(`${base}.json.partial`, `${base}.json`);
    },
  };
}

export function configuredTransport(): MailTransport {
  const config = env();
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL) : folderTransport(outboxDir());
}

/**
 * The local outbox's copies of these e-mails (`.eml`, `.html`, `.json`, attachments), removed
 * when their rows are anonymised (issue 39, finding 8); see `eraseOutboxFiles` for what a missing
 * file or a failure does.
 */
export async function eraseEmailOutboxFiles(emails: { id: string; kind: string; createdAt: Date }[]): Promise<number> {
  return eraseOutboxFiles(emails.map((email) => ({ id: email.id, createdAt: email.createdAt, label: email.kind })));
}

/**
 * Bounds on one email's attempt. The lease of a claim must outlast a whole claimed batch
 * (CLAIM_BATCH × (render + send)), so a live sender never loses a claim it is still working on.
 */
export const RENDER_TIMEOUT_MS = 30_000;
export const SEND_TIMEOUT_MS = 60_000;
export const CLAIM_BATCH = 5;
export const SENDING_LEASE_MS = 10 * 60_000;
/** More than this waits for the next run, so one run never monopolises the job runner. */
const MAX_PER_RUN = 50;

export interface DeliveryOptions {
  renderAttachments?: AttachmentRenderer;
  sendTimeoutMs?: number;
  renderTimeoutMs?: number;
  /** The public origin of the unsubscribe links (the jobs' siteUrl; publicSiteUrl() by default). */
  siteUrl?: string;
  /** The process is stopping (SIGTERM): the e-mail in hand is finished, the rest of the claim given back. */
  signal?: AbortSignal;
}

export interface DeliveryReport {
  sent: number;
  /** Failed attempts that will be retried later. */
  failed: number;
  /** Emails that became dead letters in this run. */
  dead: number;
  /** Promotions not sent because their address had no consent any more (only when there were some). */
  withheld?: number;
}

/**
 * Sends the emails that are due (docs/decisions/0024-email-delivery-outside-transactions.md).
 * A batch is claimed in one short transaction (status `sending`, a claim token, a lease); rendering
 * and SMTP run outside any transaction, each under a timeout; the outcome is written in another
 * short statement, only while the claim is still this sender's. Two senders never hold the same
 * email at once; an email whose outcome was never written (the process died after the SMTP server
 * accepted it) is sent again when its lease runs out: at-least-once in that one case.
 *
 * `now` is the run's clock at its start; the run's own elapsed time is added to it, so claims and
 * backoffs stay honest however long the run takes.
 */
export async function deliverPendingEmails(db: Database, transport: MailTransport, now: Date, options: DeliveryOptions = {}): Promise<DeliveryReport> {
  const started = performance.now();
  const clock = () => new Date(now.getTime() + Math.round(performance.now() - started));
  const report: DeliveryReport = { sent: 0, failed: 0, dead: 0 };
  let handled = 0;
  while (handled < MAX_PER_RUN && !options.signal?.aborted) {
    const claimed = await claimDueEmails(db, clock(), Math.min(CLAIM_BATCH, MAX_PER_RUN - handled));
    if (claimed.length === 0) break;
    for (const [index, email] of claimed.entries()) {
      if (options.signal?.aborted) {
        await releaseClaims(db, claimed.slice(index));
        break;
      }
      if (isPromotionalEmailKind(email.kind) && !(await addressesWithPromotionalConsent(db, [email.toAddress])).has(email.toAddress.toLowerCase())) {
        if (await withholdPromotion(db, email, clock())) report.withheld = (report.withheld ?? 0) + 1;
        continue;
      }
      const outcome = await attemptDelivery(db, transport, email, options);
      const recorded = await recordOutcome(db, email, outcome, clock());
      if (recorded) report[recorded] += 1;
    }
    handled += claimed.length;
  }
  return report;
}

type ClaimedEmail = typeof outboxEmails.$inferSelect & { claimToken: string };

/** Claims up to `limit` due emails: pending ones whose time has come, and claims whose lease ran out. */
async function claimDueEmails(db: Database, at: Date, limit: number): Promise<ClaimedEmail[]> {
  const due = or(
    and(eq(outboxEmails.status, "pending"), lte(outboxEmails.nextAttemptAt, at)),
    and(eq(outboxEmails.status, "sending"), lte(outboxEmails.claimedAt, new Date(at.getTime() - SENDING_LEASE_MS))),
  );
  const claimToken = randomUUID();
  // Two statements in one short transaction rather than `UPDATE … WHERE id IN (SELECT … LIMIT
  // n FOR UPDATE SKIP LOCKED)`, which PostgreSQL may re-run per row and so claim more than n.
  // SKIP LOCKED: a concurrent claimer takes other rows instead of waiting for these, and a row
  // another claimer has just committed as `sending` no longer matches `due` once locked.
  const claimed = await inTransaction(db, async (tx) => {
    const candidates = await tx
      .select({ id: outboxEmails.id })
      .from(outboxEmails)
      .where(due)
      .orderBy(asc(outboxEmails.nextAttemptAt), asc(outboxEmails.createdAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (candidates.length === 0) return [];
    return tx
      .update(outboxEmails)
      .set({ status: "sending", claimedAt: at, claimToken, lastAttemptAt: at, attempts: sql`${outboxEmails.attempts} + 1` })
      .where(
        inArray(
          outboxEmails.id,
          candidates.map((candidate) => candidate.id),
        ),
      )
      .returning();
  });
  return claimed.map((email) => ({ ...email, claimToken }));
}

/**
 * Gives back claimed e-mails that were never attempted (the process is stopping): pending again,
 * due as they were, the attempt they were counted for taken back, so another process sends them
 * now rather than when the lease would run out.
 */
async function releaseClaims(db: Database, emails: readonly ClaimedEmail[]): Promise<void> {
  for (const email of emails) {
    await db
      .update(outboxEmails)
      .set({ status: "pending", claimedAt: null, claimToken: null, attempts: sql`${outboxEmails.attempts} - 1` })
      .where(and(eq(outboxEmails.id, email.id), eq(outboxEmails.status, "sending"), eq(outboxEmails.claimToken, email.claimToken)));
  }
}

type Outcome = { ok: true } | { ok: false; error: string; permanent: boolean };

async function attemptDelivery(db: Database, transport: MailTransport, email: ClaimedEmail, options: DeliveryOptions): Promise<Outcome> {
  // Issue 24: an address outside the shop's one rule is never handed to nodemailer, which would
  // read it as another address (or several). Forms refuse such addresses; one stored before the
  // rule becomes a dead letter staff see, not a message to somebody else.
  if (!isEmailAddress(email.toAddress)) return { ok: false, error: "Dirección de correo no válida: no se envía", permanent: true };
  try {
    const attachments = await withTimeout(
      renderAttachmentsOf(db, email.attachments, options.renderAttachments),
      options.renderTimeoutMs ?? RENDER_TIMEOUT_MS,
      "Rendering the attachments",
    );
    const message = {
      from: env().MAIL_FROM,
      to: email.toAddress,
      subject: email.subject,
      html: email.html,
      text: email.text,
      id: email.id,
      kind: email.kind,
      createdAt: email.createdAt,
      attachments,
      listUnsubscribeUrl: isPromotionalEmailKind(email.kind) ? emailPreferencesUrl(email.toAddress, options.siteUrl) : undefined,
    };
    await withTimeout(transport.send(message), options.sendTimeoutMs ?? SEND_TIMEOUT_MS, "Sending");
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), permanent: isPermanentRefusal(error) };
  }
}

/**
 * Writes an attempt's outcome if the claim is still ours (a claim taken over after its lease ran
 * out belongs to the sender that took it). Returns what was recorded, or nothing.
 */
async function recordOutcome(db: Database, email: ClaimedEmail, outcome: Outcome, at: Date): Promise<keyof DeliveryReport | undefined> {
  const ours = and(eq(outboxEmails.id, email.id), eq(outboxEmails.status, "sending"), eq(outboxEmails.claimToken, email.claimToken));
  const released = { claimedAt: null, claimToken: null };
  let result: keyof DeliveryReport;
  let changes: Partial<typeof outboxEmails.$inferInsert>;
  if (outcome.ok) {
    result = "sent";
    changes = { status: "sent", sentAt: at, lastError: null };
  } else if (outcome.permanent || isLastAttempt(email.attempts)) {
    result = "dead";
    changes = { status: "dead", deadAt: at, lastError: outcome.error };
  } else {
    result = "failed";
    changes = { status: "pending", nextAttemptAt: new Date(at.getTime() + retryDelayMs(email.attempts)), lastError: outcome.error };
  }
  const updated = await db
    .update(outboxEmails)
    .set({ ...changes, ...released })
    .where(ours)
    .returning({ id: outboxEmails.id });
  return updated.length > 0 ? result : undefined;
}

/**
 * Issue 12: a revocation takes effect at once, so consent is read again when a promotion is about
 * to leave; one queued before the customer unsubscribed is withheld for good, never retried.
 */
async function withholdPromotion(db: Database, email: ClaimedEmail, at: Date): Promise<boolean> {
  const updated = await db
    .update(outboxEmails)
    .set({ status: "withheld", lastError: "No promotional consent at sending time", lastAttemptAt: at, claimedAt: null, claimToken: null })
    .where(and(eq(outboxEmails.id, email.id), eq(outboxEmails.status, "sending"), eq(outboxEmails.claimToken, email.claimToken)))
    .returning({ id: outboxEmails.id });
  return updated.length > 0;
}

async function renderAttachmentsOf(db: Database, refs: EmailAttachmentRef[] | null, render: AttachmentRenderer | undefined): Promise<MailAttachment[]> {
  if (!refs || refs.length === 0) return [];
  if (!render) throw new Error("This email has attachments and no attachment renderer was given");
  return render(db, refs);
}

/** Gives up waiting after `ms` (the work itself may go on; its result is then ignored). */
async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
