import type { InvoiceStatus } from "@core/invoice-list";

/**
 * Spec §4 invoice statuses, decided at read time (decision 0017): a stored `paid` stays paid; a
 * stored `pending` whose due date is before today in Lima is `overdue`, so no job has to flip it
 * and it is right the minute Lima's day changes; any other stored value counts as overdue (spec §4).
 */
export function effectiveInvoiceStatus(stored: string, dueDate: string, limaToday: string): InvoiceStatus {
  if (stored === "paid") return "paid";
  if (stored === "pending") return dueDate < limaToday ? "overdue" : "pending";
  return "overdue";
}

interface Sortable {
  status: InvoiceStatus;
  dueDate: string;
  issuedAt: Date;
  invoiceNumber: string;
}

/**
 * Spec §9: paid invoices newest first; the others by due date ascending. The unpaid ones come
 * first (they are what the customer has to act on, the most overdue at the top), then the paid
 * ones (decision 0017). Ties fall back to the invoice number so the order never wobbles.
 */
export function compareInvoicesForList(a: Sortable, b: Sortable): number {
  const aPaid = a.status === "paid";
  const bPaid = b.status === "paid";
  if (aPaid !== bPaid) return aPaid ? 1 : -1;
  if (aPaid) {
    const byIssued = b.issuedAt.getTime() - a.issuedAt.getTime();
    if (byIssued !== 0) return byIssued;
  } else if (a.dueDate !== b.dueDate) {
    return a.dueDate < b.dueDate ? -1 : 1;
  }
  return a.invoiceNumber.localeCompare(b.invoiceNumber);
}

export function sortInvoicesForList<T extends Sortable>(invoices: readonly T[]): T[] {
  return [...invoices].sort(compareInvoicesForList);
}
