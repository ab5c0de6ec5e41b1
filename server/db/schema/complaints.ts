import { sql } from "drizzle-orm";
import { boolean, date, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { orders } from "./orders";

/**
 * Last sheet number of each year of the Libro de Reclamaciones. The filing transaction takes the
 * year's row lock (an upsert), so sheets are numbered 1, 2, 3… with neither gaps nor repeats.
 */
export const complaintCounters = pgTable("complaint_counters", {
  year: integer("year").primaryKey(),
  lastNumber: integer("last_number").notNull().default(0),
});

/**
 * One sheet of the Libro de Reclamaciones (D.S. 011-2011-PCM Anexo I), exactly as the consumer
 * filed it, with the provider's data of that moment. Never edited: a trigger in the migration
 * refuses UPDATE and DELETE; the provider's answer is a row of `complaint_answers`.
 */
export const complaints = pgTable(
  "complaints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    year: integer("year").notNull(),
    number: integer("number").notNull(),
    /** "000000001-2026". */
    sheetNumber: text("sheet_number").notNull(),
    /** SHA-256 of the token in the consumer's confirmation link; the token itself is never stored. */
    accessTokenHash: text("access_token_hash").notNull().unique(),
    filedAt: timestamp("filed_at", { withTimezone: true }).notNull(),
    /** The Lima date of filing: the 15 business days count from the day after. */
    filedOn: date("filed_on", { mode: "string" }).notNull(),
    issuerLegalName: text("issuer_legal_name").notNull(),
    issuerRuc: text("issuer_ruc").notNull(),
    issuerAddress: text("issuer_address").notNull(),
    consumerNames: text("consumer_names").notNull(),
    consumerSurnames: text("consumer_surnames").notNull(),
    documentType: text("document_type").notNull(),
    documentNumber: text("document_number").notNull(),
    address: text("address").notNull(),
    phone: text("phone"),
    email: text("email").notNull(),
    isMinor: boolean("is_minor").notNull().default(false),
    guardianName: text("guardian_name"),
    guardianDocumentType: text("guardian_document_type"),
    guardianDocumentNumber: text("guardian_document_number"),
    /** `producto` or `servicio`. */
    goodType: text("good_type").notNull(),
    claimedAmountCents: integer("claimed_amount_cents"),
    goodDescription: text("good_description").notNull(),
    /** The order number as the consumer typed it, and the order when it exists. */
    orderNumber: text("order_number"),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "restrict" }),
    /** `reclamo` or `queja`. */
    kind: text("kind").notNull(),
    detail: text("detail").notNull(),
    consumerRequest: text("consumer_request").notNull(),
  },
  (table) => [
    unique("complaints_year_number_unique").on(table.year, table.number),
    index("complaints_filed_idx").on(table.filedAt),
    // /admin/clientes finds people who never bought by their e-mail's beginning or the sheet's document (decision 0064).
    index("complaints_email_prefix_idx").using("btree", sql`lower(${table.email}) text_pattern_ops`),
    index("complaints_document_idx").on(table.documentNumber),
  ],
);

/**
 * The provider's answer to a sheet (section 4 of Anexo I: observations and actions, and when they
 * were communicated). One per sheet; append-only like the sheet.
 */
export const complaintAnswers = pgTable("complaint_answers", {
  id: uuid("id").primaryKey().defaultRandom(),
  complaintId: uuid("complaint_id")
    .notNull()
    .unique()
    .references(() => complaints.id, { onDelete: "restrict" }),
  answer: text("answer").notNull(),
  answeredById: text("answered_by_id").notNull(),
  answeredByEmail: text("answered_by_email").notNull(),
  answeredAt: timestamp("answered_at", { withTimezone: true }).notNull(),
});

/**
 * The consumer who filed a sheet had their personal data anonymised (Ley 29733, decisions 0051,
 * 0061, 0064) after filing it. The sheet itself stays exactly as filed (a legal record, append-only);
 * this row only says that the person behind it was already answered, so /admin/clientes no longer
 * offers the sheet's e-mail as someone whose data is still to export or anonymise. Written by every
 * anonymisation for the sheets under the subject's e-mail; one per sheet.
 */
export const complaintAnonymisations = pgTable("complaint_anonymisations", {
  complaintId: uuid("complaint_id")
    .primaryKey()
    .references(() => complaints.id, { onDelete: "restrict" }),
  anonymisedAt: timestamp("anonymised_at", { withTimezone: true }).notNull(),
});
