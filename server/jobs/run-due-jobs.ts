import { sendAbandonedCartReminders } from "../cart/abandoned-carts";
import { publicSiteUrl } from "../config/env";
import type { Database } from "../db/client";
import { renderInvoiceAttachments } from "../invoices/index.server";
import { configuredTransport, deliverPendingEmails, type MailTransport } from "../notifications/deliver";
import { expireUnpaidOrders } from "../orders/expire-unpaid";
import { cardProviderFor, type CardProvider } from "../payments/cards";
import type { CulqiClient } from "../payments/culqi";
import { activePaymentProvider } from "../payments/providers";
import { culqiClientIfConfigured, retryDueRefunds } from "../payments/index.server";
import {
  closeAbandonedSignups,
  endCancelledSubscriptions,
  issueRenewalPaymentLinks,
  renewDueSubscriptions,
  resumeEndedPauses,
  scheduleSubscriptionDeliveries,
  sendRenewalReminders,
  settlePaymentLinkPeriods,
  type RenewalReport,
} from "../subscriptions/index.server";

export interface JobsReport {
  renewals: RenewalReport;
  subscriptionDeliveries: number;
  renewalReminders: number;
  expiredOrders: number;
  refundsCompleted: number;
  cartReminders: number;
  emailsSent: number;
  emailsFailed: number;
}

/**
 * Everything time-driven the shop does, in one pass. Each job is safe to run twice or in two
 * processes at once (rows are claimed with SKIP LOCKED and every write is guarded by its status).
 */
export async function runDueJobs(
  db: Database,
  options: { now: Date; transport?: MailTransport; siteUrl?: string; cardsFor?: (provider: string) => CardProvider; culqi?: CulqiClient | null },
): Promise<JobsReport> {
  const siteUrl = options.siteUrl ?? publicSiteUrl();
  await endCancelledSubscriptions(db, options.now);
  await resumeEndedPauses(db, options.now);
  const renewals = await renewDueSubscriptions(db, { now: options.now, siteUrl, cardsFor: options.cardsFor ?? ((provider) => cardProviderFor(db, provider)) });
  await issueRenewalPaymentLinks(db, { now: options.now, siteUrl, provider: activePaymentProvider() });
  await settlePaymentLinkPeriods(db, options.now);
  await closeAbandonedSignups(db, options.now);
  const subscriptionDeliveries = await scheduleSubscriptionDeliveries(db, options.now);
  const renewalReminders = await sendRenewalReminders(db, options.now, siteUrl);
  const expiredOrders = await expireUnpaidOrders(db, options.now);
  // Refunds whose provider call failed or never happened (decision 0024-late-payments-and-refunds).
  const refunds = await retryDueRefunds(db, options.culqi !== undefined ? options.culqi : culqiClientIfConfigured(), { now: options.now, siteUrl });
  const cartReminders = await sendAbandonedCartReminders(db, options.now, siteUrl);
  // Emails last, so whatever the jobs above queued leaves in the same run.
  // Attachments (invoice PDFs) are made at sending time by their own domain's renderer.
  const emails = await deliverPendingEmails(db, options.transport ?? configuredTransport(), options.now, {
    renderAttachments: (tx, refs) => renderInvoiceAttachments(tx, refs, { now: options.now }),
  });
  return { renewals, subscriptionDeliveries, renewalReminders, expiredOrders, refundsCompleted: refunds.refunded, cartReminders, emailsSent: emails.sent, emailsFailed: emails.failed };
}
