import { eq } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { paymentMethodLabels } from "@core/order-labels";
import { invoices, orderItems, orders, refunds } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import {
  creditNoteLines,
  documentTotals,
  garantiaLine,
  saleLines,
  SUNAT_DOCUMENT_TYPES,
  type ComprobanteDocument,
  type ComprobanteKind,
} from "./comprobante-document";

type InvoiceRow = typeof invoices.$inferSelect;

/**
 * The document for a stored invoice, rebuilt from the shop's rows each time it is sent: a document
 * the OSE refused for its format goes again, fixed, with the same number (decision 0045).
 */
export async function comprobanteForInvoice(db: DatabaseOrTransaction, invoice: InvoiceRow): Promise<ComprobanteDocument> {
  const [order] = await db.select().from(orders).where(eq(orders.id, invoice.orderId));
  if (!order) throw new Error(`order ${invoice.orderId} of invoice ${invoice.id} not found`);
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.id);
  const sale = saleLines({ ...order, items });
  const base = {
    series: invoice.series,
    number: invoice.number,
    issueDate: limaToday(invoice.issuedAt),
    customer: {
      documentType: SUNAT_DOCUMENT_TYPES[invoice.customerDocumentType] ?? "-",
      documentNumber: invoice.customerDocumentNumber,
      name: invoice.customerName.toUpperCase(),
      address: `${order.address}, ${order.districtName}, LIMA`.toUpperCase(),
      email: order.customerEmail,
    },
    // The series-number is unique at the OSE already; this keeps a copy from being taken as new.
    uniqueCode: `${invoice.series}-${invoice.number}`,
    paymentMethod: invoice.paymentMethod ? (paymentMethodLabels[invoice.paymentMethod] ?? invoice.paymentMethod).toUpperCase() : null,
  };
  if (invoice.documentType !== "nota_credito") {
    return { ...base, kind: invoice.documentType as ComprobanteKind, lines: sale, ...documentTotals(sale) };
  }
  const [original] = invoice.relatedInvoiceId ? await db.select().from(invoices).where(eq(invoices.id, invoice.relatedInvoiceId)) : [];
  if (!original) throw new Error(`nota de crédito ${invoice.invoiceNumber} has no original document`);
  const [refund] = invoice.refundId ? await db.select().from(refunds).where(eq(refunds.id, invoice.refundId)) : [];
  const reason = invoice.creditNoteReason ?? refund?.note ?? "DEVOLUCIÓN";
  // A garantía's note gives back its inafecto line (decision 0075); the quantity is read from the line it returns.
  const lines = invoice.garantiaEntryId
    ? [garantiaLine(Number(/\d+/.exec(reason)?.[0] ?? 1), invoice.totalCents, reason.toUpperCase())]
    : creditNoteLines(sale, invoice.totalCents, `DEVOLUCIÓN PARCIAL DEL PEDIDO ${order.orderNumber}: ${reason}`.toUpperCase());
  return {
    ...base,
    kind: "nota_credito",
    lines,
    ...documentTotals(lines),
    modifies: { kind: original.documentType as "boleta" | "factura", series: original.series, number: original.number },
    creditNoteType: invoice.creditNoteType ?? 6,
    creditNoteReason: reason.toUpperCase().slice(0, 250),
  };
}
