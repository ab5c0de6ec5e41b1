import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { OPEN_ELECTRONIC_STATUSES } from "@core/comprobante-labels";
import { invoiceDocumentTitles } from "@core/invoice-list";
import type { Database } from "../db/client";
import { readBrandName } from "../content/index.server";
import { invoices, orders } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { comprobanteAcceptedEmail, enqueueEmail } from "../notifications/index.server";
import { InvalidComprobanteError, validateComprobante } from "./comprobante-document";
import { comprobanteForInvoice } from "./comprobante-for-invoice";
import type { ComprobanteProvider, DocumentLinks, ProviderAnswer } from "./providers/index";

/**
 * Sending comprobantes to the OSE (decision 0045), in the outbox's way
 * (decision 0024): a short transaction claims due documents with a lease and a token; the provider
 * is called outside any transaction; the outcome is written only while the claim is still ours.
 * The number was fixed when the document was issued, so a resend after a crash or a lost answer is
 * the same document, and the OSE's "already exists" (code 23) means it arrived: it is consulted.
 */
export const SEND_LEASE_MS = 2 * 60_000;
export const CLAIM_BATCH = 5;
const MAX_PER_RUN = 100;
export const FIRST_RETRY_MS = 30_000;
/** Never longer than this between tries, so a provider back after an outage is used within minutes. */
export const LONGEST_RETRY_MS = 10 * 60_000;
/** A format error or a configuration problem waits for a person; it is still tried now and then. */
const STAFF_RETRY_MS = 60 * 60_000;

export function sendRetryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.min(Math.max(0, attempts - 1), 12), LONGEST_RETRY_MS);
}

export interface SendReport {
  accepted: number;
  observed: number;
  rejected: number;
  /** Reached the OSE, SUNAT's answer still to come. */
  sent: number;
  /** Kept pending (provider down, format error…), retried later. */
  retrying: number;
  local: number;
}

type Claimed = typeof invoices.$inferSelect & { sendClaimToken: string };

export async function sendDueComprobantes(db: Database, provider: ComprobanteProvider, options: { now: Date; siteUrl: string }): Promise<SendReport> {
  const started = performance.now();
  const clock = () => new Date(options.now.getTime() + Math.round(performance.now() - started));
  const report: SendReport = { accepted: 0, observed: 0, rejected: 0, sent: 0, retrying: 0, local: 0 };
  let handled = 0;
  while (handled < MAX_PER_RUN) {
    const claimed = await claimDue(db, clock(), CLAIM_BATCH);
    if (claimed.length === 0) break;
    for (const invoice of claimed) {
      const answer = await attempt(db, provider, invoice);
      const recorded = await recordAnswer(db, invoice, answer, provider.name, { now: clock(), siteUrl: options.siteUrl });
      if (recorded) report[recorded] += 1;
    }
    handled += claimed.length;
  }
  return report;
}

async function claimDue(db: Database, at: Date, limit: number): Promise<Claimed[]> {
  const due = and(
    inArray(invoices.electronicStatus, [...OPEN_ELECTRONIC_STATUSES]),
    lte(invoices.nextSendAt, at),
    or(isNull(invoices.sendClaimedAt), lte(invoices.sendClaimedAt, new Date(at.getTime() - SEND_LEASE_MS))),
  );
  const token = randomUUID();
  const claimed = await inTransaction(db, async (tx) => {
    const candidates = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(due)
      .orderBy(asc(invoices.nextSendAt), asc(invoices.issuedAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (candidates.length === 0) return [];
    return tx
      .update(invoices)
      .set({ sendClaimedAt: at, sendClaimToken: token, sendAttempts: sql`${invoices.sendAttempts} + 1` })
      .where(
        inArray(
          invoices.id,
          candidates.map((candidate) => candidate.id),
        ),
      )
      .returning();
  });
  return claimed.map((invoice) => ({ ...invoice, sendClaimToken: token }));
}

/** Sends a document the OSE has not confirmed, or asks after one it has; never throws. */
async function attempt(db: Database, provider: ComprobanteProvider, invoice: Claimed): Promise<ProviderAnswer> {
  try {
    const reference = { kind: invoice.documentType as "boleta" | "factura" | "nota_credito", series: invoice.series, number: invoice.number };
    if (invoice.electronicStatus === "sent") {
      const answer = await provider.consult(reference);
      if (answer.kind !== "missing") return answer;
    }
    const document = await comprobanteForInvoice(db, invoice);
    validateComprobante(document);
    const answer = await provider.send(document);
    if (answer.kind !== "already_exists") return answer;
    // It arrived on an earlier attempt whose answer was lost (or a sender died after sending).
    const consulted = await provider.consult(reference);
    return consulted.kind === "missing" ? { kind: "unavailable", message: "Nubefact dice que ya existe pero no lo encuentra al consultarlo" } : consulted;
  } catch (error) {
    if (error instanceof InvalidComprobanteError) return { kind: "format_error", message: `Datos del comprobante: ${error.message}` };
    return { kind: "unavailable", message: error instanceof Error ? error.message : String(error) };
  }
}

async function recordAnswer(
  db: Database,
  invoice: Claimed,
  answer: ProviderAnswer,
  providerName: string,
  context: { now: Date; siteUrl: string },
): Promise<keyof SendReport | undefined> {
  const { now } = context;
  const ours = and(eq(invoices.id, invoice.id), eq(invoices.sendClaimToken, invoice.sendClaimToken));
  const released = { sendClaimedAt: null, sendClaimToken: null, provider: providerName };
  const later = (ms: number) => new Date(now.getTime() + ms);
  // What any answer from the OSE about the document itself carries: its files, QR and hash.
  const reachedOse = (answer: { links: DocumentLinks; qrText: string | null; hash: string | null }) => ({
    pdfUrl: answer.links.pdf,
    xmlUrl: answer.links.xml,
    cdrUrl: answer.links.cdr,
    qrText: answer.qrText,
    hash: answer.hash,
    lastSendError: null,
    sentAt: invoice.sentAt ?? now,
  });
  return inTransaction(db, async (tx): Promise<keyof SendReport | undefined> => {
    const write = async (changes: Partial<typeof invoices.$inferInsert>) =>
      (
        await tx
          .update(invoices)
          .set({ ...changes, ...released })
          .where(ours)
          .returning({ id: invoices.id })
      ).length > 0;
    switch (answer.kind) {
      case "accepted":
      case "observed": {
        const done = await write({
          ...reachedOse(answer),
          electronicStatus: answer.kind,
          sunatCode: answer.code,
          sunatDescription: answer.description,
          acceptedAt: now,
        });
        if (!done) return undefined;
        await enqueueAcceptedEmail(tx, invoice, answer.links, context);
        return answer.kind;
      }
      case "sent":
        return (await write({ ...reachedOse(answer), electronicStatus: "sent", nextSendAt: later(sendRetryDelayMs(invoice.sendAttempts)) }))
          ? "sent"
          : undefined;
      case "rejected":
        return (await write({ electronicStatus: "rejected", sunatCode: answer.code, sunatDescription: answer.description, lastSendError: null }))
          ? "rejected"
          : undefined;
      case "format_error":
        console.error(`[comprobantes] ${invoice.invoiceNumber} refused for its format: ${answer.message}`);
        return (await write({ electronicStatus: "format_error", lastSendError: answer.message, nextSendAt: later(STAFF_RETRY_MS) })) ? "retrying" : undefined;
      case "needs_staff":
        console.error(`[comprobantes] ${invoice.invoiceNumber} needs staff: ${answer.message}`);
        return (await write({ lastSendError: answer.message, nextSendAt: later(STAFF_RETRY_MS) })) ? "retrying" : undefined;
      case "local":
        return (await write({ electronicStatus: "local", lastSendError: null })) ? "local" : undefined;
      case "already_exists":
      case "missing":
      case "unavailable": {
        const message = answer.kind === "unavailable" ? answer.message : `respuesta inesperada (${answer.kind})`;
        return (await write({ lastSendError: message, nextSendAt: later(sendRetryDelayMs(invoice.sendAttempts)) })) ? "retrying" : undefined;
      }
    }
  });
}

async function enqueueAcceptedEmail(
  tx: Parameters<Parameters<typeof inTransaction>[1]>[0],
  invoice: Claimed,
  links: DocumentLinks,
  context: { now: Date; siteUrl: string },
) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, invoice.orderId));
  if (!order) return;
  const brandName = await readBrandName(tx);
  const email = comprobanteAcceptedEmail({
    brandName,
    firstName: order.customerFirstName,
    title: invoiceDocumentTitles[invoice.documentType] ?? "Comprobante electrónico",
    invoiceNumber: invoice.invoiceNumber,
    orderNumber: order.orderNumber,
    totalCents: invoice.totalCents,
    links,
    invoicesUrl: new URL("/dashboard/facturas", context.siteUrl).toString(),
  });
  await enqueueEmail(
    tx,
    {
      dedupeKey: `comprobante-accepted:${invoice.id}`,
      kind: "comprobante-accepted",
      to: order.customerEmail,
      ...email,
      attachments: [{ kind: "invoice_pdf", id: invoice.id }],
    },
    context.now,
  );
}
