import { sql } from "drizzle-orm";
import { date, index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { orders } from "./orders";

/** Last number used in each SUNAT-style series (B001 boletas, F001 facturas, BC01/FC01 their notas de crédito). */
export const invoiceSeries = pgTable("invoice_series", {
  series: text("series").primaryKey(),
  lastNumber: integer("last_number").notNull().default(0),
});

/**
 * Where an electronic comprobante is on its way to SUNAT (decision 0045):
 * `pending` waits for the sender (or its backoff); `sent` reached the OSE and waits for SUNAT's
 * answer; `accepted` / `observed` (accepted with observations) are final and valid; `rejected`
 * burnt its number (staff re-issue with the next one); `format_error` was refused by the OSE for
 * its format and is resent with the same number once fixed; `local` was made by the offline
 * provider and is not a tax document.
 */
export const ELECTRONIC_STATUSES = ["pending", "sent", "accepted", "observed", "rejected", "format_error", "local"] as const;
export type ElectronicStatus = (typeof ELECTRONIC_STATUSES)[number];

/**
 * The shop's comprobantes: one boleta or factura per paid order (plus its re-issue when SUNAT
 * rejected the first), and one nota de crédito per refund of an invoiced order. Numbered inside the
 * payment's (or refund's) transaction by taking the series row's lock, so numbers have neither gaps
 * nor repeats however many payments land together; sent to the OSE afterwards by the jobs.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** boleta | factura | nota_credito */
    documentType: text("document_type").notNull(),
    series: text("series").notNull(),
    number: integer("number").notNull(),
    invoiceNumber: text("invoice_number").notNull(),
    status: text("status").notNull(),
    totalCents: integer("total_cents").notNull(),
    taxableCents: integer("taxable_cents").notNull(),
    igvCents: integer("igv_cents").notNull(),
    customerName: text("customer_name").notNull(),
    customerDocumentType: text("customer_document_type").notNull(),
    customerDocumentNumber: text("customer_document_number").notNull(),
    paymentMethod: text("payment_method"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** A nota de crédito: the document it modifies. A re-issue: the rejected document it replaces. */
    relatedInvoiceId: uuid("related_invoice_id").references((): AnyPgColumn => invoices.id),
    /** A nota de crédito: the refund it documents (one note per refund). */
    refundId: uuid("refund_id"),
    /** A nota de crédito returning a bidón garantía (decision 0075): the release it documents (one note each). */
    garantiaEntryId: uuid("garantia_entry_id"),
    /** A nota de crédito: SUNAT catalogue 09 (1 anulación, 6 devolución total, 7 devolución por ítem). */
    creditNoteType: integer("credit_note_type"),
    creditNoteReason: text("credit_note_reason"),
    electronicStatus: text("electronic_status").$type<ElectronicStatus>().notNull().default("pending"),
    /** Which provider made it (`nubefact`, `offline`). */
    provider: text("provider"),
    sendAttempts: integer("send_attempts").notNull().default(0),
    nextSendAt: timestamp("next_send_at", { withTimezone: true }).notNull().defaultNow(),
    /** A sender holds the document until its lease runs out; its outcome counts only with its token. */
    sendClaimedAt: timestamp("send_claimed_at", { withTimezone: true }),
    sendClaimToken: uuid("send_claim_token"),
    lastSendError: text("last_send_error"),
    sunatCode: text("sunat_code"),
    sunatDescription: text("sunat_description"),
    pdfUrl: text("pdf_url"),
    xmlUrl: text("xml_url"),
    cdrUrl: text("cdr_url"),
    /** SUNAT's QR text (RUC|TIPO|SERIE|NUMERO|IGV|TOTAL|FECHA|TIPO_DOC|NUM_DOC|HASH|) and the digest. */
    qrText: text("qr_text"),
    hash: text("hash"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
  },
  (table) => [
    unique("invoices_series_number_unique").on(table.series, table.number),
    // One live sale document per order: a rejected (burnt) one may sit beside its re-issue.
    uniqueIndex("invoices_one_live_sale_per_order")
      .on(table.orderId)
      .where(sql`${table.documentType} in ('boleta', 'factura') and ${table.electronicStatus} <> 'rejected'`),
    uniqueIndex("invoices_one_live_note_per_refund")
      .on(table.refundId)
      .where(sql`${table.refundId} is not null and ${table.electronicStatus} <> 'rejected'`),
    uniqueIndex("invoices_one_live_note_per_garantia_release")
      .on(table.garantiaEntryId)
      .where(sql`${table.garantiaEntryId} is not null and ${table.electronicStatus} <> 'rejected'`),
    index("invoices_order_idx").on(table.orderId),
    index("invoices_electronic_due_idx").on(table.electronicStatus, table.nextSendAt),
  ],
);
