import { sql } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { igvBreakdown } from "@core/pricing";
import { invoices, invoiceSeries } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

export interface InvoiceableOrder {
  id: string;
  totalCents: number;
  customerFirstName: string;
  customerLastName: string;
  documentType: string;
  documentNumber: string;
  ruc: string | null;
  businessName: string | null;
  paymentMethod: string | null;
}

/** decisions.md: B001 boletas; F001 facturas when the customer gives a RUC. */
export function invoiceSeriesFor(order: Pick<InvoiceableOrder, "ruc">): { series: string; documentType: "boleta" | "factura" } {
  return order.ruc ? { series: "F001", documentType: "factura" } : { series: "B001", documentType: "boleta" };
}

export function formatInvoiceNumber(series: string, number: number): string {
  return `${series}-${String(number).padStart(8, "0")}`;
}

/**
 * Issues the paid order's invoice with the next number of its series. Must run inside the payment's
 * transaction: the series row stays locked until it commits, so concurrent payments queue for
 * numbers and a rolled-back payment gives its number back — no gaps, no repeats.
 */
export async function issueInvoiceForPaidOrder(tx: DatabaseOrTransaction, order: InvoiceableOrder, now: Date) {
  const { series, documentType } = invoiceSeriesFor(order);
  const [counter] = await tx
    .insert(invoiceSeries)
    .values({ series, lastNumber: 1 })
    .onConflictDoUpdate({ target: invoiceSeries.series, set: { lastNumber: sql`${invoiceSeries.lastNumber} + 1` } })
    .returning({ number: invoiceSeries.lastNumber });
  const number = counter!.number;
  const { taxableCents, igvCents } = igvBreakdown(order.totalCents);
  const today = limaToday(now);
  const [invoice] = await tx
    .insert(invoices)
    .values({
      orderId: order.id,
      documentType,
      series,
      number,
      invoiceNumber: formatInvoiceNumber(series, number),
      status: "paid",
      totalCents: order.totalCents,
      taxableCents,
      igvCents,
      customerName: order.ruc
        ? (order.businessName ?? `${order.customerFirstName} ${order.customerLastName}`)
        : `${order.customerFirstName} ${order.customerLastName}`,
      customerDocumentType: order.ruc ? "ruc" : order.documentType,
      customerDocumentNumber: order.ruc ?? order.documentNumber,
      paymentMethod: order.paymentMethod,
      issuedAt: now,
      dueDate: today,
      paidAt: now,
    })
    .returning();
  return invoice!;
}
