import { and, asc, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import { OPEN_ELECTRONIC_STATUSES as OPEN_STATUSES } from "@core/comprobante-labels";
import { addDays, limaToday } from "@core/lima-dates";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { env } from "../config/env";
import type { Database } from "../db/client";
import { ELECTRONIC_STATUSES, invoices, orders, type ElectronicStatus } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { formatInvoiceNumber, nextNumberOf } from "./issue-invoice";

const OPEN_ELECTRONIC_STATUSES: ElectronicStatus[] = [...OPEN_STATUSES];
const PAGE_SIZE = 100;

/**
 * The last Lima day a comprobante may reach SUNAT (nubefact.md, Deadlines): a factura by the 3rd
 * calendar day after issue (R.S. 000003-2023/SUNAT); a boleta after BOLETA_DEADLINE_DAYS (the
 * accountant's call; 3 by default). Notes follow the document they modify.
 */
export function sendingDeadline(invoice: { documentType: string; series: string; issuedAt: Date }, boletaDays = env().BOLETA_DEADLINE_DAYS): string {
  const factura = invoice.documentType === "factura" || (invoice.documentType === "nota_credito" && invoice.series.startsWith("F"));
  return addDays(limaToday(invoice.issuedAt), factura ? 3 : boletaDays);
}

export interface StaffComprobante {
  id: string;
  invoiceNumber: string;
  documentType: string;
  electronicStatus: ElectronicStatus;
  orderId: string;
  orderNumber: string;
  customerName: string;
  totalCents: number;
  issuedAt: Date;
  deadline: string;
  sendAttempts: number;
  lastSendError: string | null;
  sunatDescription: string | null;
  relatedInvoiceId: string | null;
  /** A rejected document already re-issued under a new number. */
  reissued: boolean;
}

export interface ComprobantesPanel {
  counts: Record<ElectronicStatus, number>;
  rows: StaffComprobante[];
}

export async function listComprobantesForStaff(
  db: Database,
  filter: { status: ElectronicStatus | "open" | "all"; query?: string },
): Promise<ComprobantesPanel> {
  const byStatus = await db.select({ status: invoices.electronicStatus, count: count() }).from(invoices).groupBy(invoices.electronicStatus);
  const counts = Object.fromEntries(ELECTRONIC_STATUSES.map((status) => [status, 0])) as Record<ElectronicStatus, number>;
  for (const row of byStatus) counts[row.status] = Number(row.count);
  const conditions: SQL[] = [];
  if (filter.status === "open") conditions.push(inArray(invoices.electronicStatus, OPEN_ELECTRONIC_STATUSES));
  else if (filter.status !== "all") conditions.push(eq(invoices.electronicStatus, filter.status));
  const query = filter.query?.trim().toUpperCase();
  if (query)
    conditions.push(eq(invoices.invoiceNumber, /^[A-Z0-9]{4}-\d+$/.test(query) ? formatInvoiceNumber(query.slice(0, 4), Number(query.slice(5))) : query));
  const rows = await db
    .select({ invoice: invoices, orderNumber: orders.orderNumber })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(asc(invoices.electronicStatus), desc(invoices.issuedAt), desc(invoices.number))
    .limit(PAGE_SIZE);
  const replaced = new Set(
    rows.flatMap((row) => (row.invoice.relatedInvoiceId && row.invoice.documentType !== "nota_credito" ? [row.invoice.relatedInvoiceId] : [])),
  );
  const rejectedIds = rows.filter((row) => row.invoice.electronicStatus === "rejected").map((row) => row.invoice.id);
  if (rejectedIds.length > 0) {
    const reissues = await db.select({ related: invoices.relatedInvoiceId }).from(invoices).where(inArray(invoices.relatedInvoiceId, rejectedIds));
    for (const reissue of reissues) if (reissue.related) replaced.add(reissue.related);
  }
  return {
    counts,
    rows: rows.map(({ invoice, orderNumber }) => ({
      id: invoice.id,
      invoiceNumber: invoice.invoiceNumber,
      documentType: invoice.documentType,
      electronicStatus: invoice.electronicStatus,
      orderId: invoice.orderId,
      orderNumber,
      customerName: invoice.customerName,
      totalCents: invoice.totalCents,
      issuedAt: invoice.issuedAt,
      deadline: sendingDeadline(invoice),
      sendAttempts: invoice.sendAttempts,
      lastSendError: invoice.lastSendError,
      sunatDescription: invoice.sunatDescription,
      relatedInvoiceId: invoice.relatedInvoiceId,
      reissued: replaced.has(invoice.id),
    })),
  };
}

/**
 * Open comprobantes whose deadline is today or tomorrow (or already past), for the staff home's
 * alarm: a day's warning before SUNAT's limit passes.
 */
export async function comprobantesNearDeadline(db: Database, today: string): Promise<StaffComprobante[]> {
  const { rows } = await listComprobantesForStaff(db, { status: "open" });
  const tomorrow = addDays(today, 1);
  return rows.filter((row) => row.deadline <= tomorrow).sort((a, b) => a.deadline.localeCompare(b.deadline));
}

export type ComprobanteActionResult = { ok: true; invoiceNumber: string } | { ok: false; code: "not_found" | "refused"; message: string };

const NOT_FOUND = "Comprobante no encontrado";

/** "Reintentar": an open comprobante is due now (same number); audited. Twice changes nothing more. */
export async function retryComprobante(db: Database, actor: StaffActor, invoiceId: string, now: Date): Promise<ComprobanteActionResult> {
  return inTransaction(db, async (tx): Promise<ComprobanteActionResult> => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for("update");
    if (!invoice) return { ok: false, code: "not_found", message: NOT_FOUND };
    if (!OPEN_ELECTRONIC_STATUSES.includes(invoice.electronicStatus))
      return { ok: false, code: "refused", message: `El comprobante ${invoice.invoiceNumber} ya no está pendiente de envío.` };
    await tx.update(invoices).set({ nextSendAt: now }).where(eq(invoices.id, invoice.id));
    await recordStaffAction(tx, actor, {
      action: "comprobante.retry",
      entityType: "invoice",
      entityId: invoice.id,
      before: { electronicStatus: invoice.electronicStatus, nextSendAt: invoice.nextSendAt.toISOString(), lastSendError: invoice.lastSendError },
      after: { nextSendAt: now.toISOString() },
    });
    return { ok: true, invoiceNumber: invoice.invoiceNumber };
  });
}

/**
 * "Reemitir": a document SUNAT rejected burnt its number; the same sale (or refund) is issued
 * again with the next number of the series, linked to the burnt one, and sent by the job. Locks
 * the order, then the invoice, then the series (decision 0025). A second click finds the re-issue.
 */
export async function reissueRejectedComprobante(db: Database, actor: StaffActor, invoiceId: string, now: Date): Promise<ComprobanteActionResult> {
  return inTransaction(db, async (tx): Promise<ComprobanteActionResult> => {
    const [target] = await tx.select({ orderId: invoices.orderId }).from(invoices).where(eq(invoices.id, invoiceId));
    if (!target) return { ok: false, code: "not_found", message: NOT_FOUND };
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, target.orderId)).for("update");
    const [burnt] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for("update");
    if (!burnt) return { ok: false, code: "not_found", message: NOT_FOUND };
    if (burnt.electronicStatus !== "rejected")
      return { ok: false, code: "refused", message: `SUNAT no rechazó ${burnt.invoiceNumber}: no hay nada que reemitir.` };
    const [existing] = await tx.select({ invoiceNumber: invoices.invoiceNumber }).from(invoices).where(eq(invoices.relatedInvoiceId, burnt.id));
    if (existing && burnt.documentType !== "nota_credito") return { ok: true, invoiceNumber: existing.invoiceNumber };
    // A note documents one refund or one garantía release (decision 0075): its live re-issue is found by either.
    const noteSubject = burnt.refundId
      ? eq(invoices.refundId, burnt.refundId)
      : burnt.garantiaEntryId
        ? eq(invoices.garantiaEntryId, burnt.garantiaEntryId)
        : null;
    const [noteReissue] =
      burnt.documentType === "nota_credito" && noteSubject
        ? await tx
            .select({ invoiceNumber: invoices.invoiceNumber, status: invoices.electronicStatus })
            .from(invoices)
            .where(and(noteSubject, inArray(invoices.electronicStatus, [...ELECTRONIC_STATUSES.filter((status) => status !== "rejected")])))
        : [];
    if (noteReissue) return { ok: true, invoiceNumber: noteReissue.invoiceNumber };
    const number = await nextNumberOf(tx, burnt.series);
    const { id: _id, number: _number, invoiceNumber: _invoiceNumber, ...copy } = burnt;
    const [reissue] = await tx
      .insert(invoices)
      .values({
        ...copy,
        number,
        invoiceNumber: formatInvoiceNumber(burnt.series, number),
        // A re-issued sale points at the burnt one; a re-issued note keeps pointing at its original.
        relatedInvoiceId: burnt.documentType === "nota_credito" ? burnt.relatedInvoiceId : burnt.id,
        issuedAt: now,
        dueDate: limaToday(now),
        electronicStatus: "pending",
        provider: null,
        sendAttempts: 0,
        nextSendAt: now,
        sendClaimedAt: null,
        sendClaimToken: null,
        lastSendError: null,
        sunatCode: null,
        sunatDescription: null,
        pdfUrl: null,
        xmlUrl: null,
        cdrUrl: null,
        qrText: null,
        hash: null,
        sentAt: null,
        acceptedAt: null,
      })
      .returning();
    await recordStaffAction(tx, actor, {
      action: "comprobante.reissue",
      entityType: "invoice",
      entityId: burnt.id,
      before: { invoiceNumber: burnt.invoiceNumber, electronicStatus: "rejected", sunatDescription: burnt.sunatDescription },
      after: { reissueId: reissue!.id, invoiceNumber: reissue!.invoiceNumber },
    });
    return { ok: true, invoiceNumber: reissue!.invoiceNumber };
  });
}
