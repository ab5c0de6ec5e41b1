import { and, eq, ne } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { invoices, orderItems, orders } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { creditNoteLines, documentTotals, saleLines } from "./comprobante-document";
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
  const totals = documentTotals(lines);
  const series = creditNoteSeriesFor(original.documentType);
  const number = await nextNumberOf(tx, series);
  const [note] = await tx
    .insert(invoices)
    .values({
      orderId: refund.orderId,
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
      refundId: refund.id,
      creditNoteType: type,
      creditNoteReason: reasonText.slice(0, 250),
      electronicStatus: "pending",
      nextSendAt: now,
    })
    .returning();
  return note!;
}
