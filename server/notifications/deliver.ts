import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, isNull, lt, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "../config/env";
import type { Database } from "../db/client";
import { outboxEmails, type EmailAttachmentRef } from "../db/schema";
import type { DatabaseOrTransaction } from "../orders/transition";
import { inTransaction } from "../db/transaction";

const MAX_ATTEMPTS = 5;
const BATCH = 20;

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
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

/**
 * Turns an email's attachment references into files. Handed in by the caller (the jobs, which get
 * it from the domain that owns the files), so notifications never import the invoices domain.
 * Runs inside the delivery transaction, hence the `db` it is given.
 */
export type AttachmentRenderer = (db: DatabaseOrTransaction, refs: EmailAttachmentRef[]) => Promise<MailAttachment[]>;

/** SMTP through nodemailer when SMTP_URL is set. */
export function smtpTransport(url: string): MailTransport {
  const transporter: Transporter = nodemailer.createTransport(url);
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
      const base = path.join(dir, `${message.createdAt.toISOString().replace(/[:.]/g, "-")}-${message.kind}-${message.id.slice(0, 8)}`);
      const attachments = [];
      for (const file of message.attachments) {
        const name = `${path.basename(base)}.${path.basename(file.filename)}`;
        await writeFile(path.join(dir, name), file.content);
        attachments.push({ filename: file.filename, file: name, contentType: file.contentType, size: file.content.length });
      }
      await writeFile(`${base}.eml`, info.message as Buffer);
      await writeFile(`${base}.html`, message.html);
      // Written last: a reader polling for the .json finds the email's other files already there.
      await writeFile(`${base}.json`, JSON.stringify({ to: message.to, subject: message.subject, text: message.text, kind: message.kind, attachments }, null, 2));
    },
  };
}

export function configuredTransport(): MailTransport {
  const config = env();
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL) : folderTransport(path.resolve(process.cwd(), config.OUTBOX_DIR));
}

/**
 * Sends queued emails. Rows are claimed with SKIP LOCKED inside a transaction, so two workers
 * never send the same email; a failed send is retried on later runs, up to five attempts. An
 * email with attachment references needs `renderAttachments`; without it the email waits (as a
 * failed attempt) rather than leave without its files.
 */
export async function deliverPendingEmails(
  db: Database,
  transport: MailTransport,
  now: Date,
  options: { renderAttachments?: AttachmentRenderer } = {},
): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  await inTransaction(db, async (tx) => {
    const pending = await tx
      .select()
      .from(outboxEmails)
      .where(and(isNull(outboxEmails.sentAt), lt(outboxEmails.attempts, MAX_ATTEMPTS)))
      .orderBy(asc(outboxEmails.createdAt))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    for (const email of pending) {
      try {
        const attachments = await renderAttachmentsOf(tx, email.attachments, options.renderAttachments);
        await transport.send({ from: env().MAIL_FROM, to: email.toAddress, subject: email.subject, html: email.html, text: email.text, id: email.id, kind: email.kind, createdAt: email.createdAt, attachments });
        await tx.update(outboxEmails).set({ sentAt: now, attempts: sql`${outboxEmails.attempts} + 1`, lastError: null }).where(eq(outboxEmails.id, email.id));
        sent += 1;
      } catch (error) {
        await tx
          .update(outboxEmails)
          .set({ attempts: sql`${outboxEmails.attempts} + 1`, lastError: error instanceof Error ? error.message : String(error) })
          .where(eq(outboxEmails.id, email.id));
        failed += 1;
      }
    }
  });
  return { sent, failed };
}

async function renderAttachmentsOf(db: DatabaseOrTransaction, refs: EmailAttachmentRef[] | null, render: AttachmentRenderer | undefined): Promise<MailAttachment[]> {
  if (!refs || refs.length === 0) return [];
  if (!render) throw new Error("This email has attachments and no attachment renderer was given");
  return render(db, refs);
}
