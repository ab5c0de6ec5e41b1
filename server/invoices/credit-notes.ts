import { and, eq, ne } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { invoices, orderItems, orders } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { creditNoteLines, documentTotals, garantiaLine, saleLines } from "./comprobante-document";
import { creditNoteSeriesFor, formatInvoiceNumber, liveSaleInvoiceOf, nextNumberOf } from "./issue-invoice";

/** SUNAT catalogue 09 (nubefact.md): 1 anulación de la operación, 6 devolución total, 7 devolución por ítem. */
export const CREDIT_NOTE_TYPES = { cancellation: 1, fullRefund: 6, partialRefund: 7 } as const;

export interface RefundForCreditNote {
  id: string;
  orderId: string;
  amountCents: number;
  reason: string;
  note: string | null;
}

/**
 * A refund of an invoiced order produces its nota de crédito, numbered here, in the refund's own
 * transaction (after the order and refund rows: the series row comes next in decision 0025's
 * order), linked to the order's live boleta or factura and sent later by the comprobantes job.
 * Its lines add up to the refunded amount. Once per refund (a unique index says so).
 */
export async function issueCreditNoteForRefund(tx: DatabaseOrTransaction, refund: RefundForCreditNote, now: Date) {
  const [already] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.refundId, refund.id), ne(invoices.electronicStatus, "rejected")));
  if (already) return null;
  const [original] = await tx.select().from(invoices).where(liveSaleInvoiceOf(refund.orderId));
  if (!original) return null;
  const [order] = await tx.select().from(orders).where(eq(orders.id, refund.orderId));
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, refund.orderId)).orderBy(orderItems.id);
  const amountCents = Math.min(refund.amountCents, original.totalCents);
  const sale = saleLines({ ...order!, items });
  const full = amountCents === documentTotals(sale).totalCents;
  const reasonText = refund.note?.trim() || (refund.reason === "order_cancelled" ? "Pedido cancelado" : "Devolución");
  const type = full ? (refund.reason === "order_cancelled" ? CREDIT_NOTE_TYPES.cancellation : CREDIT_NOTE_TYPES.fullRefund) : CREDIT_NOTE_TYPES.partialRefund;
  const lines = creditNoteLines(sale, amountCents, reasonText);
  return insertCreditNote(tx, { original, lines, type, reasonText, refundId: refund.id, garantiaEntryId: null, now });
}

/**
 * A bidón garantía given back (decision 0075), by refund or as credit: when the order's comprobante
 * carried it as its inafecto line, a nota de crédito (devolución por ítem) returns that line for the
 * amount given back, numbered in the caller's transaction (after the order, payment and refund rows;
 * the series row next, decision 0025). Once per release (a unique index says so). Null when the
 * comprobante did not carry the garantía, or the order has none.
 */
export async function issueGarantiaCreditNote(
  tx: DatabaseOrTransaction,
  release: { id: string; orderId: string; units: number; amountCents: number },
  now: Date,
) {
  if (release.amountCents <= 0) return null;
  const [already] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.garantiaEntryId, release.id), ne(invoices.electronicStatus, "rejected")));
  if (already) return null;
  const [order] = await tx.select().from(orders).where(eq(orders.id, release.orderId));
  if (!order || order.garantiaCents <= 0 || !order.garantiaOnComprobante) return null;
  const [original] = await tx.select().from(invoices).where(liveSaleInvoiceOf(release.orderId));
  if (!original) return null;
  const reasonText = garantiaReturnReason(release.units);
  const lines = [garantiaLine(release.units, Math.min(release.amountCents, order.garantiaCents), reasonText.toUpperCase())];
  return insertCreditNote(tx, { original, lines, type: CREDIT_NOTE_TYPES.partialRefund, reasonText, refundId: null, garantiaEntryId: release.id, now });
}

export const garantiaReturnReason = (units: number) => `Devolución de la garantía de ${units} ${units === 1 ? "bidón retornable" : "bidones retornables"}`;

async function insertCreditNote(
  tx: DatabaseOrTransaction,
  input: {
    original: typeof invoices.$inferSelect;
    lines: ReturnType<typeof creditNoteLines>;
    type: number;
    reasonText: string;
    refundId: string | null;
    garantiaEntryId: string | null;
    now: Date;
  },
) {
  const { original, lines, type, reasonText, now } = input;
  const totals = documentTotals(lines);
  const series = creditNoteSeriesFor(original.documentType);
  const number = await nextNumberOf(tx, series);
  const [note] = await tx
    .insert(invoices)
    .values({
      orderId: original.orderId,
      documentType: "nota_credito",
      series,
      number,
      invoiceNumber: formatInvoiceNumber(series, number),
      status: "paid",
      totalCents: totals.totalCents,
      taxableCents: totals.taxableCents,
      igvCents: totals.igvCents,
      customerName: original.customerName,
      customerDocumentType: original.customerDocumentType,
      customerDocumentNumber: original.customerDocumentNumber,
      paymentMethod: original.paymentMethod,
      issuedAt: now,
      dueDate: limaToday(now),
      paidAt: now,
      relatedInvoiceId: original.id,
      refundId: input.refundId,
      garantiaEntryId: input.garantiaEntryId,
      creditNoteType: type,
      creditNoteReason: reasonText.slice(0, 250),
      electronicStatus: "pending",
      nextSendAt: now,
    })
    .returning();
  return note!;
}
