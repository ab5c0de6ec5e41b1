import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, isNull, lt, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "../config/env";
import type { Database } from "../db/client";
import { outboxEmails } from "../db/schema";

const MAX_ATTEMPTS = 5;
const BATCH = 20;

export interface MailTransport {
  send(message: { from: string; to: string; subject: string; html: string; text: string; id: string; kind: string; createdAt: Date }): Promise<void>;
}

/** SMTP through nodemailer when SMTP_URL is set. */
export function smtpTransport(url: string): MailTransport {
  const transporter: Transporter = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transporter.sendMail({ from: message.from, to: message.to, subject: message.subject, html: message.html, text: message.text });
    },
  };
}

/**
 * Without SMTP, every email is written to a folder as a real .eml (open it in any mail client)
 * and an .html copy (open it in a browser): the local outbox a developer reads.
 */
export function folderTransport(dir: string): MailTransport {
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const info = await writer.sendMail({ from: message.from, to: message.to, subject: message.subject, html: message.html, text: message.text });
      const base = path.join(dir, `${message.createdAt.toISOString().replace(/[:.]/g, "-")}-${message.kind}-${message.id.slice(0, 8)}`);
      await writeFile(`${base}.eml`, info.message as Buffer);
      await writeFile(`${base}.json`, JSON.stringify({ to: message.to, subject: message.subject, text: message.text, kind: message.kind }, null, 2));
      await writeFile(`${base}.html`, message.html);
    },
  };
}

export function configuredTransport(): MailTransport {
  const config = env();
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL) : folderTransport(path.resolve(process.cwd(), config.OUTBOX_DIR));
}

/**
 * Sends queued emails. Rows are claimed with SKIP LOCKED inside a transaction, so two workers
 * never send the same email; a failed send is retried on later runs, up to five attempts.
 */
export async function deliverPendingEmails(db: Database, transport: MailTransport, now: Date): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  await db.transaction(async (tx) => {
    const pending = await tx
      .select()
      .from(outboxEmails)
      .where(and(isNull(outboxEmails.sentAt), lt(outboxEmails.attempts, MAX_ATTEMPTS)))
      .orderBy(asc(outboxEmails.createdAt))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    for (const email of pending) {
      try {
        await transport.send({ from: env().MAIL_FROM, to: email.toAddress, subject: email.subject, html: email.html, text: email.text, id: email.id, kind: email.kind, createdAt: email.createdAt });
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
