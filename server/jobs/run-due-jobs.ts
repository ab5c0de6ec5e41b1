import { sendAbandonedCartReminders } from "../cart/abandoned-carts";
import { publicSiteUrl } from "../config/env";
import type { Database } from "../db/client";
import { renderInvoiceAttachments } from "../invoices/index.server";
import { configuredTransport, deliverPendingEmails, type MailTransport } from "../notifications/deliver";
import { expireUnpaidOrders } from "../orders/expire-unpaid";

export interface JobsReport {
  expiredOrders: number;
  cartReminders: number;
  emailsSent: number;
  emailsFailed: number;
}

/**
 * Everything time-driven the shop does, in one pass. Each job is safe to run twice or in two
 * processes at once (rows are claimed with SKIP LOCKED and every write is guarded by its status).
 */
export async function runDueJobs(db: Database, options: { now: Date; transport?: MailTransport; siteUrl?: string }): Promise<JobsReport> {
  const expiredOrders = await expireUnpaidOrders(db, options.now);
  const cartReminders = await sendAbandonedCartReminders(db, options.now, options.siteUrl ?? publicSiteUrl());
  // Emails last, so whatever the jobs above queued leaves in the same run.
  // Attachments (invoice PDFs) are made at sending time by their own domain's renderer.
  const emails = await deliverPendingEmails(db, options.transport ?? configuredTransport(), options.now, {
    renderAttachments: (tx, refs) => renderInvoiceAttachments(tx, refs, { now: options.now }),
  });
  return { expiredOrders, cartReminders, emailsSent: emails.sent, emailsFailed: emails.failed };
}
