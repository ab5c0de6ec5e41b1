import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { deliveries, orders } from "./orders";
import { refunds } from "./payments";

/**
 * The bidón garantía ledger (decision 0075). Money movements, never edited into something else:
 * - `held`: an order's garantía, written when the order's bidones are delivered (keyed `held:<order>`);
 * - `released`: bidones came home (a delivery that collected more empties than the customer owes,
 *   or staff recording a return), so part of a held garantía goes back (`outcome` refund or credit),
 *   or is kept because the bidón came back broken (`forfeited`). Keyed by what caused it and the
 *   order whose garantía it returns, so a repeated confirmation or form releases nothing twice.
 * The customer is the bidones ledger's (decision 0032): the account, or the e-mail for a guest.
 * A release's money moves afterwards, outside the transaction that wrote it: the garantías job
 * issues the nota de crédito and asks for the refund (`status` pending → refunding → done), retried
 * until it is through; a credit is available at once.
 */
export const garantiaEntries = pgTable(
  "garantia_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** held | released */
    kind: text("kind").notNull(),
    /** The order whose garantía this is (a release names the order it returns the garantía of). */
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Lower-cased, like the bidones ledger's. */
    customerEmail: text("customer_email").notNull(),
    units: integer("units").notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** The delivery that caused it (held: the order's delivered one; released: the one that collected the empties). */
    deliveryId: uuid("delivery_id").references(() => deliveries.id, { onDelete: "set null" }),
    /** Released only: refund | credit | forfeited. */
    outcome: text("outcome"),
    /**
     * held: `held`. released: `pending` (the job's to do: nota de crédito, then the refund or the
     * credit) → `refunding` (its refund row asked the provider; `refund_id`) → `done`; `needs_staff`
     * when the order's payment cannot give it back (already refunded by hand): staff settle it,
     * `returned_by_hand` once they record they gave the money back themselves (also a release whose
     * refund the provider refused).
     */
    status: text("status").notNull(),
    refundId: uuid("refund_id").references(() => refunds.id),
    sourceKey: text("source_key").notNull().unique(),
    /** The staff member who recorded a return (e-mail); null for a delivery's. */
    recordedBy: text("recorded_by"),
    note: text("note"),
    /** `returned_by_hand` only: the staff member (e-mail) who gave it back, how, and when. */
    settledBy: text("settled_by"),
    settledNote: text("settled_note"),
    settledAt: timestamp("settled_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("garantia_entries_email_idx").on(table.customerEmail),
    index("garantia_entries_user_idx").on(table.userId),
    index("garantia_entries_order_idx").on(table.orderId),
    index("garantia_entries_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} in ('pending', 'refunding')`),
    check("garantia_entries_units_positive", sql`${table.units} > 0 and ${table.amountCents} >= 0`),
  ],
);

/** How a customer with an account wants a returned garantía (decision 0075); without a row, the default (refund). */
export const garantiaPreferences = pgTable("garantia_preferences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** refund | credit */
  preference: text("preference").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});
