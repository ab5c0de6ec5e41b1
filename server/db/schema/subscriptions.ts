import { sql } from "drizzle-orm";
import { date, index, integer, jsonb, pgSequence, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { productVariants, products } from "./catalog";
import { organizations } from "./content";
import { districts } from "./districts";
import { users } from "./accounts";
import { orders } from "./orders";

export const subscriptionNumberSequence = pgSequence("subscription_number_seq", { startWith: 1001 });

/**
 * A customer's subscription (spec §3 Subscription; decisions.md: the shop keeps its own schedule).
 * Amounts are per period as the server priced them: `baseAmountCents` is the monthly subtotal,
 * `amountCents` what each billing period charges (mensual: max(S/50, 95%); anual: 12 × 85%).
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
    deliveryWindow: text("delivery_window").notNull(),
    organizationId: integer("organization_id").references(() => organizations.id),
    startDate: date("start_date", { mode: "string" }),
    nextBillingDate: date("next_billing_date", { mode: "string" }),
    nextDeliveryDate: date("next_delivery_date", { mode: "string" }),
    pausedUntil: date("paused_until", { mode: "string" }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    paymentProvider: text("payment_provider"),
    gatewaySubscriptionId: text("gateway_subscription_id"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("subscriptions_user_idx").on(table.userId), index("subscriptions_status_billing_idx").on(table.status, table.nextBillingDate)],
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
