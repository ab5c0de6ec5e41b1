import { bigserial, boolean, date, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Spec's organizaciones: social causes a subscription can support. */
export const organizations = pgTable("organizations", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  title: text("title").notNull(),
  description: text("description").notNull(),
  image: text("image"),
  /**
   * Inactive organisations leave the public list and take no new votes; they are never deleted,
   * since votes and subscriptions name them (issue 11).
   */
  active: boolean("active").notNull().default(true),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Spec's historia: slides of the about page's history carousel. */
export const historyEntries = pgTable("history_entries", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  title: text("title").notNull(),
  description: text("description").notNull(),
  image: text("image"),
  /** Spec's `orden`: ascending, nulls last, then by creation time. */
  sortOrder: integer("sort_order"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Spec's textos: legal pages as HTML, sanitized again when rendered. */
export const legalTexts = pgTable("legal_texts", {
  slug: text("slug").primaryKey(),
  title: text("title").notNull(),
  contentHtml: text("content_html").notNull(),
  updatedOn: date("updated_on", { mode: "string" }).notNull(),
});

/**
 * Every saved version of a legal text (issue 11), appended on each save and never changed: what the
 * customer accepted on a given day can always be shown. `legal_texts` holds the current one.
 */
export const legalTextVersions = pgTable(
  "legal_text_versions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    contentHtml: text("content_html").notNull(),
    /** The Lima date the public page shows as "Última actualización". */
    effectiveOn: date("effective_on", { mode: "string" }).notNull(),
    savedBy: text("saved_by").notNull(),
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("legal_text_versions_slug_idx").on(table.slug, table.id)],
);

/** One row (id = 1) of settings the staff can change without a deploy. */
export const siteSettings = pgTable("site_settings", {
  id: integer("id").primaryKey().default(1),
  brandName: text("brand_name").notNull(),
  whatsappNumber: text("whatsapp_number").notNull(),
  whatsappGreeting: text("whatsapp_greeting").notNull(),
  contactEmail: text("contact_email").notNull(),
  instagramUrl: text("instagram_url"),
  facebookUrl: text("facebook_url"),
  tiktokUrl: text("tiktok_url"),
  /** Label of the home page's closing call-to-action button (spec §2 Home). */
  closingCtaLabel: text("closing_cta_label").notNull(),
  /** The largest refund operaciones may give on their own (issue 10); the admin changes it, and refunds without limit. */
  operacionesRefundLimitCents: integer("operaciones_refund_limit_cents").notNull().default(20000),
  /**
   * Whether operaciones may cancel an order before dispatch with its full refund whatever the amount
   * (decision 0071). Off by default: such a cancellation counts against the same per-order limit.
   */
  operacionesMayCancelAnyAmount: boolean("operaciones_may_cancel_any_amount").notNull().default(false),
  /**
   * The issuer (razón social, RUC, domicilio fiscal, phone): the one source for comprobantes, legal
   * pages, e-mails and JSON-LD. The defaults are the demo shop's placeholders, flagged by
   * `issuerIsDemo` until staff enter the company's own data from its SUNAT Ficha RUC.
   */
  issuerLegalName: text("issuer_legal_name").notNull().default("VIDA ALCALINA S.A.C."),
  issuerRuc: text("issuer_ruc").notNull().default("20601234565"),
  issuerFiscalAddress: text("issuer_fiscal_address").notNull().default("Av. Benavides 1555, of. 302, Miraflores, Lima, Perú"),
  issuerPhone: text("issuer_phone").notNull().default("+51 987 654 321"),
  issuerIsDemo: boolean("issuer_is_demo").notNull().default(true),
  /** "¿Te queda agua?" reminders at each customer's pace (decision 0076); the admin turns them off here. */
  reorderRemindersEnabled: boolean("reorder_reminders_enabled").notNull().default(true),
  /** Where comprobantes put the bidón garantía: `inafecto` (its own non-taxed line) or `fuera` (decision 0075, VERIFY). */
  garantiaComprobanteMode: text("garantia_comprobante_mode").notNull().default("inafecto"),
  /**
   * Pago contra entrega (issue 38): offered at all, up to which total, and to whom (`all`, or
   * `delivered`: only accounts with a delivered order). The districts are each district's `door_payment`.
   */
  doorPaymentEnabled: boolean("door_payment_enabled").notNull().default(true),
  doorPaymentMaxCents: integer("door_payment_max_cents").notNull().default(50000),
  doorPaymentCustomers: text("door_payment_customers").notNull().default("all"),
  /** The shop's own Yape/Plin number the driver shows at the door (never a driver's personal account). */
  doorYapeNumber: text("door_yape_number"),
  /** Issue 40: a contra-entrega order above this total needs the photo of the bidones at the door; null: never required. */
  deliveryPhotoRequiredAboveCents: integer("delivery_photo_required_above_cents"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
