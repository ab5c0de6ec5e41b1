import type { Database } from "../db/client";
import { configuredTransport, deliverPendingEmails, type MailTransport } from "../notifications/deliver";
import { expireUnpaidOrders } from "../orders/expire-unpaid";

export interface JobsReport {
  expiredOrders: number;
  emailsSent: number;
  emailsFailed: number;
}

/**
 * Everything time-driven the shop does, in one pass. Each job is safe to run twice or in two
 * processes at once (rows are claimed with SKIP LOCKED and every write is guarded by its status).
 */
export async function runDueJobs(db: Database, options: { now: Date; transport?: MailTransport }): Promise<JobsReport> {
  const expiredOrders = await expireUnpaidOrders(db, options.now);
  const emails = await deliverPendingEmails(db, options.transport ?? configuredTransport(), options.now);
  return { expiredOrders, emailsSent: emails.sent, emailsFailed: emails.failed };
}
