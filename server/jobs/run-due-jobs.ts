import { sendAbandonedCartReminders } from "../cart/index.server";
import { renderComplaintAttachments } from "../complaints/index.server";
import { publicSiteUrl } from "../config/env";
import type { Database } from "../db/client";
import { activeComprobanteProvider, renderInvoiceAttachments, sendDueComprobantes, type ComprobanteProvider } from "../invoices/index.server";
import { configuredTransport, deliverPendingEmails, type MailTransport } from "../notifications/index.server";
import { sweepUnusedMediaWhenDue } from "../media/index.server";
import { observeJobRun } from "../observability/index.server";
import { expireUnpaidOrders, processGarantiaReturns, retryDueRefunds } from "../order-flows/index.server";
import { cardProviderFor, type CardProvider } from "../payments/index.server";
import { tellLateDeliveries } from "../deliveries/index.server";
import type { CulqiClient, FlowClient } from "../payments/index.server";
import { culqiClientIfConfigured, flowClientIfConfigured, retryDueProviderErasures } from "../payments/index.server";
import { activePaymentProvider } from "../payments/index.server";
import { sendReorderRemindersWhenDue } from "../reorders/index.server";
import { configuredWhatsappClient, sendDueWhatsappMessages, whatsappEnabled, type WhatsappClient } from "../whatsapp/index.server";
import { answerWhatsappConversations } from "../whatsapp-orders/index.server";
import {
  closeAbandonedSignups,
  endCancelledSubscriptions,
  issueRenewalPaymentLinks,
  renewDueSubscriptions,
  resumeEndedPauses,
  scheduleSubscriptionDeliveries,
  sendRenewalReminders,
  settlePaymentLinkPeriods,
} from "../subscriptions/index.server";

export interface JobOptions {
  now: Date;
  transport?: MailTransport;
  siteUrl?: string;
  cardsFor?: (provider: string) => CardProvider;
  /** Culqi for refunds and deletions; `null` when it is not configured (the tests hand in the local one). */
  culqi?: CulqiClient | null;
  /** Flow for deleting saved Flow customers; `null` when it is not configured (the tests hand in the local one). */
  flow?: FlowClient | null;
  /** The OSE for comprobantes (the tests hand in one pointed at the local Nubefact). */
  comprobantes?: ComprobanteProvider;
  /** WhatsApp's Cloud API (the tests hand in one pointed at the local stand-in); `null`: WhatsApp is off. */
  whatsapp?: WhatsappClient | null;
  /**
   * Aborted when the process is told to stop (SIGTERM): no further job starts, and the long ones
   * (e-mails, renewals) stop after the row or batch in hand, giving back what they claimed.
   */
  signal?: AbortSignal;
}

interface JobContext {
  db: Database;
  now: Date;
  siteUrl: string;
  transport: () => MailTransport;
  cardsFor: (provider: string) => CardProvider;
  culqi: () => CulqiClient | null;
  flow: () => FlowClient | null;
  comprobantes: () => ComprobanteProvider;
  whatsapp: () => WhatsappClient | null;
  signal?: AbortSignal;
}

/**
 * Everything time-driven the shop does, in the order of one pass (emails last, so whatever the
 * jobs above queued leaves in the same pass). Each is safe to run twice or in two processes at
 * once (rows are claimed with SKIP LOCKED and every write is guarded by its status), and each can
 * run on its own (`runJobSoon("emails")`).
 */
const jobs = {
  subscriptionEnds: (job: JobContext) => endCancelledSubscriptions(job.db, job.now),
  pauseEnds: (job: JobContext) => resumeEndedPauses(job.db, job.now),
  renewals: (job: JobContext) => renewDueSubscriptions(job.db, { now: job.now, siteUrl: job.siteUrl, cardsFor: job.cardsFor, signal: job.signal }),
  renewalPaymentLinks: (job: JobContext) => issueRenewalPaymentLinks(job.db, { now: job.now, siteUrl: job.siteUrl, provider: activePaymentProvider() }),
  paymentLinkSettlements: (job: JobContext) => settlePaymentLinkPeriods(job.db, job.now),
  abandonedSignups: (job: JobContext) => closeAbandonedSignups(job.db, job.now),
  subscriptionDeliveries: (job: JobContext) => scheduleSubscriptionDeliveries(job.db, job.now, job.siteUrl),
  renewalReminders: (job: JobContext) => sendRenewalReminders(job.db, job.now, job.siteUrl),
  expiredOrders: (job: JobContext) => expireUnpaidOrders(job.db, job.now),
  // Returned bidón garantías: their nota de crédito and their refund or credit (decision 0075); before the refunds job.
  garantiaReturns: (job: JobContext) => processGarantiaReturns(job.db, { now: job.now, siteUrl: job.siteUrl, culqi: job.culqi() }),
  // Refunds whose provider call failed or never happened (decision 0026-late-payments-and-refunds).
  refunds: (job: JobContext) => retryDueRefunds(job.db, job.culqi(), { now: job.now, siteUrl: job.siteUrl }),
  // Saved cards and customers an anonymisation left to delete at the provider (decisions 0061, 0064).
  providerErasures: (job: JobContext) => retryDueProviderErasures(job.db, { culqi: job.culqi(), flow: job.flow() }, job.now),
  // Boletas, facturas and notas de crédito to the OSE, after the transactions that numbered them (decision 0045).
  comprobantes: (job: JobContext) => sendDueComprobantes(job.db, job.comprobantes(), { now: job.now, siteUrl: job.siteUrl }),
  cartReminders: (job: JobContext) => sendAbandonedCartReminders(job.db, job.now, job.siteUrl),
  // "¿Te queda agua?" at each customer's pace (decision 0076), at most every 10 minutes per process.
  reorderReminders: (job: JobContext) => sendReorderRemindersWhenDue(job.db, { now: job.now, siteUrl: job.siteUrl }),
  // Uploaded images no row names any more, past a day's grace; at most hourly per process (decision 0065).
  // File ages are the wall clock's (it wrote them), never the pass's `now`, which tests move ahead.
  mediaSweep: (job: JobContext) => sweepUnusedMediaWhenDue(job.db),
  // Customers' WhatsApp messages the shop answers itself ("lo de siempre", issue 38, decision 0090),
  // right before the pass that sends the answers; nothing when WhatsApp is off.
  whatsappConversations: (job: JobContext) =>
    whatsappEnabled() ? answerWhatsappConversations(job.db, { now: job.now, siteUrl: job.siteUrl }) : Promise.resolve(null),
  // Issue 40: one "pedido retrasado" per delivery and day whose slot will be missed; nothing when WhatsApp is off.
  lateDeliveries: (job: JobContext) => tellLateDeliveries(job.db, { now: job.now, siteUrl: job.siteUrl }),
  // WhatsApp messages queued by the jobs above or by requests (decision 0074); nothing when WhatsApp is off.
  whatsapp: async (job: JobContext) => {
    const client = job.whatsapp();
    return client ? sendDueWhatsappMessages(job.db, client, job.now) : null;
  },
  // Attachments (invoice and complaint-sheet PDFs) are made at sending time by their own domain's renderer.
  emails: (job: JobContext) =>
    deliverPendingEmails(job.db, job.transport(), job.now, {
      renderAttachments: async (db, refs) => {
        const complaintRefs = refs.filter((ref) => ref.kind === "complaint_pdf");
        const otherRefs = refs.filter((ref) => ref.kind !== "complaint_pdf");
        return [
          ...(otherRefs.length > 0 ? await renderInvoiceAttachments(db, otherRefs, { now: job.now }) : []),
          ...(complaintRefs.length > 0 ? await renderComplaintAttachments(db, complaintRefs) : []),
        ];
      },
      siteUrl: job.siteUrl,
      signal: job.signal,
    }),
};

export type JobName = keyof typeof jobs;
export const jobNames = Object.keys(jobs) as JobName[];
export type JobResults = { [Name in JobName]?: Awaited<ReturnType<(typeof jobs)[Name]>> };

export interface JobsReport {
  /** What each job that finished returned. */
  results: JobResults;
  /** Jobs that threw: logged with their name, retried on the next pass. */
  failures: { job: JobName; error: string }[];
}

/**
 * Runs the due jobs (all of them, or `only` the named ones) one after the other. A job that
 * throws is logged with its name and recorded in the report, and the jobs after it still run;
 * it is tried again on the next pass. This never throws for a job's error.
 */
export async function runDueJobs(db: Database, options: JobOptions & { only?: readonly JobName[] }): Promise<JobsReport> {
  const siteUrl = options.siteUrl ?? publicSiteUrl();
  let transport = options.transport;
  const context: JobContext = {
    db,
    now: options.now,
    siteUrl,
    // Made only when the email job runs, so a job failing on configuration fails alone.
    transport: () => (transport ??= configuredTransport()),
    cardsFor: options.cardsFor ?? ((provider) => cardProviderFor(db, provider)),
    culqi: () => (options.culqi !== undefined ? options.culqi : culqiClientIfConfigured()),
    flow: () => (options.flow !== undefined ? options.flow : flowClientIfConfigured()),
    comprobantes: () => options.comprobantes ?? activeComprobanteProvider(),
    whatsapp: () => (options.whatsapp !== undefined ? options.whatsapp : configuredWhatsappClient()),
    signal: options.signal,
  };
  const report: JobsReport = { results: {}, failures: [] };
  // Always in the pass's order, however `only` lists them (emails last).
  for (const name of options.only ? jobNames.filter((job) => options.only!.includes(job)) : jobNames) {
    if (options.signal?.aborted) break;
    try {
      const result = await jobs[name](context);
      (report.results as Record<JobName, unknown>)[name] = result;
      observeJobRun(name, false, result);
    } catch (error) {
      console.error(`Job "${name}" failed; it runs again on the next pass:`, error);
      report.failures.push({ job: name, error: error instanceof Error ? error.message : String(error) });
      observeJobRun(name, true);
    }
  }
  return report;
}
