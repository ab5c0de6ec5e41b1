import { date, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { orders } from "./orders";

/** Last number used in each SUNAT-style series (B001 boletas, F001 facturas). */
export const invoiceSeries = pgTable("invoice_series", {
  series: text("series").primaryKey(),
  lastNumber: integer("last_number").notNull().default(0),
});

/**
 * One invoice per paid order, numbered inside the payment's transaction by taking the series
 * row's lock, so numbers have neither gaps nor repeats however many payments land together.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "restrict" }),
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
  },
  (table) => [unique("invoices_series_number_unique").on(table.series, table.number)],
);
