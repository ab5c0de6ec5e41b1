/**
 * The invoice list's pure rules, shared by the loader and the page: status labels and colours
 * (spec §4), the status filter and search read from the URL, and the summary cards (spec §9).
 */
export const INVOICE_STATUSES = ["paid", "pending", "overdue"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type InvoiceStatusFilter = InvoiceStatus | "all";

/** Spec §4: Pagada green, Pendiente yellow, Vencida red. */
export const invoiceStatusLabels: Record<InvoiceStatus, string> = { paid: "Pagada", pending: "Pendiente", overdue: "Vencida" };
export const invoiceStatusTones: Record<InvoiceStatus, string> = {
  paid: "bg-green-100 text-green-900",
  pending: "bg-amber-100 text-amber-900",
  overdue: "bg-red-100 text-red-900",
};

/**
 * A nota de crédito is neither paid nor owed: it gives money back. Its badge names the document
 * instead of borrowing "Pagada" from the sale it corrects.
 */
export function invoiceBadge(status: InvoiceStatus, documentType: string): { label: string; tone: string } {
  if (documentType === "nota_credito") return { label: "Nota de crédito", tone: "bg-slate-100 text-slate-800" };
  return { label: invoiceStatusLabels[status], tone: invoiceStatusTones[status] };
}

/** The chips, in the spec's order, with the `?status=` value each one selects. */
export const invoiceStatusChips: { value: InvoiceStatusFilter; label: string }[] = [
  { value: "all", label: "Todas" },
  { value: "paid", label: "Pagadas" },
  { value: "pending", label: "Pendientes" },
  { value: "overdue", label: "Vencidas" },
];

export function parseInvoiceStatusFilter(value: string | null): InvoiceStatusFilter {
  return (INVOICE_STATUSES as readonly string[]).includes(value ?? "") ? (value as InvoiceStatus) : "all";
}

export interface SearchableInvoice {
  invoiceNumber: string;
  orderNumber: string;
  totalCents: number;
}

/** Lower case, without accents or spaces, so 'b001 12' and 'B001-12' are typed alike. */
function folded(value: string): string {
  return value
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, "");
}

/** '119.90' for 11990 céntimos: the amount as typed, without 'S/' or thousands separators. */
function plainAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * Spec §5 leaves the matching open; decision 0017: a row matches when the query, ignoring case,
 * accents and spaces, is part of its invoice number ('B001-00000012', or just '12'), its order
 * number ('VA-001005') or its amount written as '119.90' (a leading 'S/' and thousands commas are
 * dropped from the query, so 'S/ 1,250' finds S/ 1,250.00).
 */
export function matchesInvoiceSearch(invoice: SearchableInvoice, query: string): boolean {
  const needle = folded(query);
  if (!needle) return true;
  if (folded(invoice.invoiceNumber).includes(needle) || folded(invoice.orderNumber).includes(needle)) return true;
  const amountNeedle = needle.replace(/^s\//, "").replace(/,/g, "");
  return amountNeedle !== "" && /^[\d.]+$/.test(amountNeedle) && plainAmount(invoice.totalCents).includes(amountNeedle);
}

export interface InvoiceSummary {
  /** Total facturado: every invoice, whatever its status. */
  billedCents: number;
  /** Spec §9: pendiente de pago counts pending and overdue invoices. */
  pendingPaymentCents: number;
  count: number;
}

export function summarizeInvoices(invoices: readonly { status: InvoiceStatus; totalCents: number }[]): InvoiceSummary {
  return {
    billedCents: invoices.reduce((sum, invoice) => sum + invoice.totalCents, 0),
    pendingPaymentCents: invoices.filter((invoice) => invoice.status !== "paid").reduce((sum, invoice) => sum + invoice.totalCents, 0),
    count: invoices.length,
  };
}

export function countByStatus(invoices: readonly { status: InvoiceStatus }[]): Record<InvoiceStatusFilter, number> {
  const counts: Record<InvoiceStatusFilter, number> = { all: invoices.length, paid: 0, pending: 0, overdue: 0 };
  for (const invoice of invoices) counts[invoice.status] += 1;
  return counts;
}

/** Customer document labels on invoices (SUNAT catálogo 06 names). */
export const invoiceDocumentLabels: Record<string, string> = { dni: "DNI", ce: "Carné de extranjería", pasaporte: "Pasaporte", ruc: "RUC" };

export const invoiceDocumentTitles: Record<string, string> = {
  boleta: "Boleta de venta electrónica",
  factura: "Factura electrónica",
  nota_credito: "Nota de crédito electrónica",
};
