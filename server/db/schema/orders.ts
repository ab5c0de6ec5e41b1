import { sql } from "drizzle-orm";
import { boolean, date, doublePrecision, index, integer, jsonb, pgSequence, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { productVariants, products } from "./catalog";
import { districts } from "./districts";
import { users } from "./accounts";

export const orderNumberSequence = pgSequence("order_number_seq", { startWith: 1001 });
export const deliveryNumberSequence = pgSequence("delivery_number_seq", { startWith: 1001 });

/**
 * An order as the server priced it. Customer and address are copied in, so the order keeps
 * saying what was bought and where it went whatever happens to the account later.
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderNumber: text("order_number")
      .notNull()
      .unique()
      .default(sql`'VA-' || lpad(nextval('order_number_seq')::text, 6, '0')`),
    /** Sent by the checkout form; a repeated submit finds the order it already created. */
    checkoutKey: text("checkout_key").unique(),
    /** The account the order belongs to: the buyer's, or (decisions.md) the verified account of the guest's email. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Set on a subscription's orders (its first order and each renewal). */
    subscriptionId: uuid("subscription_id"),
    status: text("status").notNull().default("pending"),
    orderType: text("order_type").notNull(),
    subscriptionFrequency: text("subscription_frequency"),
    /** A subscription period's order: the cadence it was billed with (decision 0097), so its deliveries are counted by it. */
    deliveryCadence: text("delivery_cadence"),
    customerFirstName: text("customer_first_name").notNull(),
    customerLastName: text("customer_last_name").notNull(),
    customerEmail: text("customer_email").notNull(),
    customerPhone: text("customer_phone").notNull(),
    documentType: text("document_type").notNull(),
    documentNumber: text("document_number").notNull(),
    ruc: text("ruc"),
    businessName: text("business_name"),
    districtId: integer("district_id")
      .notNull()
      .references(() => districts.id),
    districtName: text("district_name").notNull(),
    address: text("address").notNull(),
    /** The address's point (issue 26): the customer's pin or staff's correction; null: the district's centre stands in. */
    addressLat: doublePrecision("address_lat"),
    addressLng: doublePrecision("address_lng"),
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    deliveryWindow: text("delivery_window").notNull(),
    deliveryNotes: text("delivery_notes"),
    subtotalCents: integer("subtotal_cents").notNull(),
    discountCents: integer("discount_cents").notNull(),
    shippingCents: integer("shipping_cents").notNull().default(0),
    /** Subtotal − discount + shipping + garantía: what the order costs (the comprobante's total). */
    totalCents: integer("total_cents").notNull(),
    /** Bidones whose garantía this order charges, and the garantía (part of the total; decision 0075). */
    garantiaUnits: integer("garantia_units").notNull().default(0),
    garantiaCents: integer("garantia_cents").notNull().default(0),
    /**
     * How the customer's bidones were known when it was priced: `account` (the signed-in ledger),
     * `guest_match` (a guest whose e-mail and phone match an earlier order), `guest_new` (a guest
     * not matched: every bidón carries a garantía). Null when the order has no returnable bidón.
     */
    garantiaBasis: text("garantia_basis"),
    /** Whether the comprobante carries the garantía as its own non-taxed line (the setting when it was placed). */
    garantiaOnComprobante: boolean("garantia_on_comprobante").notNull().default(true),
    /** Garantía credit the order used: its payment asks for the total less this (decision 0075). */
    garantiaCreditCents: integer("garantia_credit_cents").notNull().default(0),
    paymentProvider: text("payment_provider").notNull(),
    paymentMethod: text("payment_method"),
    /** An unpaid order stops being payable at this instant and is marked expired/cancelled. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("orders_email_idx").on(table.customerEmail),
    index("orders_status_expires_idx").on(table.status, table.expiresAt),
    index("orders_user_created_idx").on(table.userId, table.createdAt),
    index("orders_subscription_idx").on(table.subscriptionId),
    // The staff order list (/admin/pedidos, 100 000 orders): newest first, and the search box's
    // prefix and exact matches, each answerable from an index (bench/orders-csv.ts measures them).
    index("orders_created_idx").on(table.createdAt, table.id),
    index("orders_email_prefix_idx").using("btree", sql`lower(${table.customerEmail}) text_pattern_ops`),
    index("orders_first_name_prefix_idx").using("btree", sql`lower(${table.customerFirstName}) text_pattern_ops`),
    // Without a pending list: PGlite has no autovacuum to flush one, and every search would scan it.
    index("orders_name_words_idx")
      .using("gin", sql`string_to_array(lower(${table.customerFirstName} || ' ' || ${table.customerLastName}), ' ')`)
      .with({ fastupdate: false }),
    index("orders_last_name_prefix_idx").using("btree", sql`lower(${table.customerLastName}) text_pattern_ops`),
    index("orders_phone_digits_idx").using("btree", sql`regexp_replace(${table.customerPhone}, '[^0-9]', '', 'g')`),
    index("orders_document_idx").on(table.documentNumber),
    index("orders_ruc_idx").on(table.ruc),
    // /admin/metricas: revenue, orders and districts of a date range, by the day each order was paid.
    index("orders_paid_at_idx").on(table.paidAt),
  ],
);

/**
 * Staff's internal notes on an order (issue 10), never shown to the customer. Append-only: a
 * trigger refuses UPDATE and DELETE, and the order cannot be deleted while it has notes.
 */
export const orderNotes = pgTable(
  "order_notes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id),
    /** Who wrote it as they were then, so the note still says so after a rename or deactivation. */
    authorName: text("author_name").notNull(),
    authorEmail: text("author_email").notNull(),
    body: text("body").notNull(),
    /** Sent with the form, so a double-clicked "Agregar nota" adds it once. */
    requestKey: text("request_key").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_notes_order_idx").on(table.orderId, table.id)],
);

export const orderItems = pgTable(
  "order_items",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    variantId: integer("variant_id").references(() => productVariants.id),
    title: text("title").notNull(),
    variantTitle: text("variant_title"),
    sku: text("sku"),
    unitPriceCents: integer("unit_price_cents").notNull(),
    quantity: integer("quantity").notNull(),
    lineTotalCents: integer("line_total_cents").notNull(),
  },
  (table) => [index("order_items_order_idx").on(table.orderId)],
);

/** Every status change of an order, with who made it (decisions.md: state machine). */
export const orderStatusChanges = pgTable(
  "order_status_changes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    actor: text("actor").notNull(),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_status_changes_order_idx").on(table.orderId)],
);

export interface DeliveryStatusEntry {
  status: string;
  timestamp: string;
  note: string | null;
  /** Who moved it (a staff member's e-mail, `system`); absent in entries from before the back office. */
  actor?: string;
}

export const deliveries = pgTable(
  "deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deliveryNumber: text("delivery_number")
      .notNull()
      .unique()
      .default(sql`'ENV-' || lpad(nextval('delivery_number_seq')::text, 6, '0')`),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    districtId: integer("district_id")
      .notNull()
      .references(() => districts.id),
    districtName: text("district_name").notNull(),
    address: text("address").notNull(),
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    deliveryWindow: text("delivery_window").notNull(),
    status: text("status").notNull().default("pending"),
    statusHistory: jsonb("status_history").$type<DeliveryStatusEntry[]>().notNull().default([]),
    trackingCode: text("tracking_code"),
    notes: text("notes"),
    /** The repartidor whose route it is on (issue 10: dispatch assigns, the driver sees only their own). */
    assignedDriverId: text("assigned_driver_id").references(() => users.id),
    /** Stop order within the driver's route for the day; staff move stops up or down. */
    routePosition: integer("route_position"),
    /** The stop's point, copied from its order or subscription (issue 26); null: the district's centre ("ubicación aproximada"). */
    lat: doublePrecision("lat"),
    lng: doublePrecision("lng"),
    /**
     * When the van is expected at this stop, from the route's order, the travel-time settings and the
     * van's shift (issue 26): set by "Optimizar rutas" and recomputed whenever the route changes.
     */
    estimatedArrivalAt: timestamp("estimated_arrival_at", { withTimezone: true }),
    /** A subscription's deliveries are numbered 1, 2, 3… so each month's is created exactly once. */
    subscriptionId: uuid("subscription_id"),
    subscriptionSequence: integer("subscription_sequence"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("deliveries_order_idx").on(table.orderId),
    index("deliveries_date_idx").on(table.deliveryDate),
    index("deliveries_driver_date_idx").on(table.assignedDriverId, table.deliveryDate),
    unique("deliveries_subscription_sequence_unique").on(table.subscriptionId, table.subscriptionSequence),
  ],
);
