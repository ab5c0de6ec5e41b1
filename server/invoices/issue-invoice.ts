import { and, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { invoices, invoiceSeries, orderItems } from "../db/schema";
import { noteQueuedWork } from "../db/queued-work";
import type { DatabaseOrTransaction } from "../db/transaction";
import { documentTotals, saleLines, type SaleOrder } from "./comprobante-document";

export interface InvoiceableOrder {
  id: string;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  customerFirstName: string;
  customerLastName: string;
  documentType: string;
  documentNumber: string;
  ruc: string | null;
  businessName: string | null;
  paymentMethod: string | null;
  /** The bidón garantía inside the total (decision 0075): an inafecto line, or outside the comprobante. */
  garantiaCents?: number;
  garantiaUnits?: number;
  garantiaOnComprobante?: boolean;
  /** A subscription period's cadence (decision 0097), for the comprobante's "(4 entregas)". */
  deliveryCadence?: string | null;
}

/** decisions.md: B001 boletas; F001 facturas when the customer gives a RUC. */
export function invoiceSeriesFor(order: Pick<InvoiceableOrder, "ruc">): { series: string; documentType: "boleta" | "factura" } {
  return order.ruc ? { series: "F001", documentType: "factura" } : { series: "B001", documentType: "boleta" };
}

/** nubefact.md: notes share the letter of the document they modify, with their own correlative. */
export function creditNoteSeriesFor(documentType: string): string {
  return documentType === "factura" ? "FC01" : "BC01";
}

export function formatInvoiceNumber(series: string, number: number): string {
  return `${series}-${String(number).padStart(8, "0")}`;
}

/** The order's boleta or factura that counts: not a nota de crédito, not a number SUNAT burnt. */
export function liveSaleInvoiceOf(orderId: string): SQL {
  return and(eq(invoices.orderId, orderId), inArray(invoices.documentType, ["boleta", "factura"]), ne(invoices.electronicStatus, "rejected"))!;
}

/**
 * The next number of a series (or the last of the next `count`); the series row stays locked until
 * the caller's transaction ends. Every comprobante is numbered here before it is inserted for the
 * comprobantes job to send, so this is where that job is told it has work.
 */
export async function nextNumberOf(tx: DatabaseOrTransaction, series: string, count = 1): Promise<number> {
  noteQueuedWork("comprobantes");
  const [counter] = await tx
    .insert(invoiceSeries)
    .values({ series, lastNumber: count })
    .onConflictDoUpdate({ target: invoiceSeries.series, set: { lastNumber: sql`${invoiceSeries.lastNumber} + ${count}` } })
    .returning({ number: invoiceSeries.lastNumber });
  return counter!.number;
}

/** The order's sale totals as the comprobante's lines add them up (decision 0045). */
export async function saleTotalsOf(tx: DatabaseOrTransaction, order: InvoiceableOrder) {
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.id);
  return documentTotals(saleLines({ ...order, items }));
}

/** The invoice row of a paid order numbered `number` in its series, with its sale totals. */
function paidInvoiceValues(order: InvoiceableOrder, number: number, totals: { totalCents: number; taxableCents: number; igvCents: number }, now: Date) {
  const { series, documentType } = invoiceSeriesFor(order);
  return {
    orderId: order.id,
    documentType,
    series,
    number,
    invoiceNumber: formatInvoiceNumber(series, number),
    status: "paid",
    // The lines' sum: the order's total, less a garantía kept outside the comprobante (decision 0075).
    totalCents: totals.totalCents,
    taxableCents: totals.taxableCents,
    igvCents: totals.igvCents,
    customerName: order.ruc
      ? (order.businessName ?? `${order.customerFirstName} ${order.customerLastName}`)
      : `${order.customerFirstName} ${order.customerLastName}`,
    customerDocumentType: order.ruc ? "ruc" : order.documentType,
    customerDocumentNumber: order.ruc ?? order.documentNumber,
    paymentMethod: order.paymentMethod,
    issuedAt: now,
    dueDate: limaToday(now),
    paidAt: now,
    electronicStatus: "pending",
    nextSendAt: now,
  } satisfies typeof invoices.$inferInsert;
}

/**
 * Issues the paid order's invoice with the next number of its series. Must run inside the payment's
 * transaction: the series row stays locked until it commits, so concurrent payments queue for
 * numbers and a rolled-back payment gives its number back — no gaps, no repeats. It is sent to the
 * OSE later, by the comprobantes job (never inside a payment's transaction).
 */
export async function issueInvoiceForPaidOrder(tx: DatabaseOrTransaction, order: InvoiceableOrder, now: Date) {
  const totals = await saleTotalsOf(tx, order);
  const number = await nextNumberOf(tx, invoiceSeriesFor(order).series);
  const [invoice] = await tx
    .insert(invoices)
    .values(paidInvoiceValues(order, number, totals, now))
    .returning();
  return invoice!;
}

/**
 * `issueInvoiceForPaidOrder` for a batch of paid orders whose lines the caller already holds (a
 * renewal pass completing a claimed batch, decision 0046): each series' counter is advanced by the
 * batch's count in one statement and every invoice is inserted in one. The same guarantees: the
 * counters stay locked until the caller's transaction ends, so numbers are consecutive, never
 * repeated, and a rolled-back batch gives them all back. Series are taken in name order (decision
 * 0025: same-table rows in key order). Returns the invoices in the order of `paid`.
 */
export async function issueInvoicesForPaidOrders(
  tx: DatabaseOrTransaction,
  paid: readonly { order: InvoiceableOrder; items: SaleOrder["items"] }[],
  now: Date,
) {
  if (paid.length === 0) return [];
  const bySeries = new Map<string, number[]>();
  paid.forEach(({ order }, index) => {
    const { series } = invoiceSeriesFor(order);
    bySeries.set(series, [...(bySeries.get(series) ?? []), index]);
  });
  const numbers: number[] = [];
  for (const series of [...bySeries.keys()].sort()) {
    const indexes = bySeries.get(series)!;
    const last = await nextNumberOf(tx, series, indexes.length);
    indexes.forEach((index, position) => (numbers[index] = last - indexes.length + 1 + position));
  }
  const issued = await tx
    .insert(invoices)
    .values(paid.map(({ order, items }, index) => paidInvoiceValues(order, numbers[index]!, documentTotals(saleLines({ ...order, items })), now)))
    .returning();
  const byOrder = new Map(issued.map((invoice) => [invoice.orderId, invoice]));
  return paid.map(({ order }) => byOrder.get(order.id)!);
}
