import { sql } from "drizzle-orm";
import { check, date, doublePrecision, index, integer, jsonb, pgSequence, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { productVariants, products } from "./catalog";
import { organizations } from "./content";
import { districts } from "./districts";
import { users } from "./accounts";
import { orders } from "./orders";

export const subscriptionNumberSequence = pgSequence("subscription_number_seq", { startWith: 1001 });

/**
 * A customer's subscription (spec §3 Subscription; decisions.md: the shop keeps its own schedule).
 * Amounts are per period as the server priced them: `baseAmountCents` is the monthly subtotal (one
 * delivery's products × the cadence's deliveries a month, decision 0097), `amountCents` what each
 * billing period charges (mensual: max(S/50, 95%); anual: 12 × 85%).
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionNumber: text("subscription_number")
      .notNull()
      .unique()
      .default(sql`'SUS-' || lpad(nextval('subscription_number_seq')::text, 6, '0')`),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** The checkout order that started it. */
    orderId: uuid("order_id").references(() => orders.id),
    /** pending_payment | active | paused | past_due | cancelled */
    status: text("status").notNull().default("pending_payment"),
    frequency: text("frequency").notNull(),
    discountRateBasisPoints: integer("discount_rate_bp").notNull(),
    baseAmountCents: integer("base_amount_cents").notNull(),
    amountCents: integer("amount_cents").notNull(),
    districtId: integer("district_id")
      .notNull()
      .references(() => districts.id),
    districtName: text("district_name").notNull(),
    address: text("address").notNull(),
    /** The address's point (issue 26), copied onto every delivery the subscription creates. */
    addressLat: doublePrecision("address_lat"),
    addressLng: doublePrecision("address_lng"),
    deliveryWindow: text("delivery_window").notNull(),
    organizationId: integer("organization_id").references(() => organizations.id),
    startDate: date("start_date", { mode: "string" }),
    nextBillingDate: date("next_billing_date", { mode: "string" }),
    nextDeliveryDate: date("next_delivery_date", { mode: "string" }),
    pausedUntil: date("paused_until", { mode: "string" }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** A cancellation takes effect at the end of the paid period: no charge from this date on. */
    endsOn: date("ends_on", { mode: "string" }),
    cancelReason: text("cancel_reason"),
    paymentProvider: text("payment_provider"),
    /** The saved card renewals charge; null for customers who pay each period by link (Yape). */
    paymentMethodId: uuid("payment_method_id"),
    /** card (renewals charge the saved card) | payment_link (an email with a link each period) */
    billingMethod: text("billing_method").notNull().default("card"),
    /** Frequency taking effect from the next period (self-service change). */
    pendingFrequency: text("pending_frequency"),
    /** Number of the next billing period to create (1 is the checkout's own order). */
    nextPeriodNumber: integer("next_period_number").notNull().default(2),
    /** Deliveries made so far; a billing period pays for its months × the cadence's deliveries a month. */
    deliveriesMade: integer("deliveries_made").notNull().default(0),
    /** weekly | biweekly | monthly (decision 0097): how often the plan's deliveries come; billing is the plan's. */
    deliveryCadence: text("delivery_cadence").notNull().default("monthly"),
    /** Weekly and biweekly: the day the current month of deliveries counts from (core/cadence-dates.ts); null for monthly. */
    deliveryAnchorDate: date("delivery_anchor_date", { mode: "string" }),
    gatewaySubscriptionId: text("gateway_subscription_id"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("subscriptions_user_idx").on(table.userId),
    index("subscriptions_status_billing_idx").on(table.status, table.nextBillingDate),
    check("subscriptions_delivery_cadence_known", sql`${table.deliveryCadence} in ('weekly', 'biweekly', 'monthly')`),
  ],
);

export const subscriptionItems = pgTable(
  "subscription_items",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    variantId: integer("variant_id").references(() => productVariants.id),
    title: text("title").notNull(),
    variantTitle: text("variant_title"),
    unitPriceCents: integer("unit_price_cents").notNull(),
    quantity: integer("quantity").notNull(),
    /**
     * A catalogue price that takes effect once period `pendingFromPeriod` is the next one billed
     * (decision 0055): set when the price changed while an earlier period was already open.
     */
    pendingUnitPriceCents: integer("pending_unit_price_cents"),
    pendingFromPeriod: integer("pending_from_period"),
  },
  (table) => [index("subscription_items_subscription_idx").on(table.subscriptionId)],
);

/** What happened to a subscription and who did it; the customer sees this history. */
export const subscriptionEvents = pgTable(
  "subscription_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    description: text("description").notNull(),
    actor: text("actor").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("subscription_events_subscription_idx").on(table.subscriptionId)],
);

/**
 * The states a subscription has been in, each from the instant it took effect, with the one before (decision
 * 0067-subscription-state-history): status, plan and price per period, what /admin/metricas needs
 * to count the active subscriptions and the MRR of any past date. `subscriptions` keeps only the
 * present and `subscription_events` is the customer's history, which misses the silent changes
 * (a renewal moving to a pending plan or a parked catalogue price). Written only by the trigger
 * `subscriptions_state_history` (migration), in the same statement as the change, from whatever
 * path makes it; `changed_at` is the change's own `updated_at` (the shop's clock).
 */
export const subscriptionStateChanges = pgTable(
  "subscription_state_changes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
    status: text("status").notNull(),
    frequency: text("frequency").notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** The state it changed from (null for the first row): a row is a move, summed without reading a subscription's other rows. */
    previousStatus: text("previous_status"),
    previousFrequency: text("previous_frequency"),
    previousAmountCents: integer("previous_amount_cents"),
  },
  (table) => [index("subscription_state_changes_subscription_idx").on(table.subscriptionId, table.changedAt)],
);

/**
 * A reusable card kept with a provider for renewals (Culqi: customer + card; Flow: a registered
 * customer; sandbox: an offline stand-in). Only the provider's references and what the customer
 * needs to recognise the card are stored, never the card number.
 */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider").notNull(),
    providerCustomerId: text("provider_customer_id"),
    providerCardId: text("provider_card_id").notNull(),
    brand: text("brand"),
    last4: text("last4"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("payment_methods_user_idx").on(table.userId), unique("payment_methods_provider_card_unique").on(table.provider, table.providerCardId)],
);

/**
 * One billing period of a subscription: the ledger that makes renewals happen exactly once. The
 * (subscription, period) pair is unique, and so is each charge attempt's key, which is written
 * before the provider is called, so a crash between charge and write is reconciled by looking the
 * key up at the provider instead of charging again.
 */
export const subscriptionPeriods = pgTable(
  "subscription_periods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    periodNumber: integer("period_number").notNull(),
    billingDate: date("billing_date", { mode: "string" }).notNull(),
    /** due | charging | paid | failed | awaiting_payment | skipped */
    status: text("status").notNull().default("due"),
    amountCents: integer("amount_cents").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptDate: date("next_attempt_date", { mode: "string" }),
    chargeKey: text("charge_key").unique(),
    providerChargeId: text("provider_charge_id"),
    orderId: uuid("order_id")
      .unique()
      .references(() => orders.id),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("subscription_periods_subscription_period_unique").on(table.subscriptionId, table.periodNumber),
    index("subscription_periods_status_idx").on(table.status, table.nextAttemptDate),
    // /admin/metricas: the failed-payment recovery of the renewals billed in a date range.
    index("subscription_periods_billing_date_idx").on(table.billingDate),
  ],
);

/** Spec §1: signed-in customers vote for one organisation (one vote each, changeable). */
export const organizationVotes = pgTable(
  "organization_votes",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("organization_votes_organization_idx").on(table.organizationId)],
);
