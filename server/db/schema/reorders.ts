import { date, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { orders } from "./orders";

/**
 * "¿Te queda agua?" reminders (decision 0076): one row per reminder sent, unique per customer and
 * interval (the interval is named by the customer's last order before it), so two job runners, a
 * pass run twice or a customer who does not reorder never get a second one for the same interval.
 * The e-mail itself is queued in the outbox in the same transaction.
 */
export const reorderReminders = pgTable(
  "reorder_reminders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** `user:<id>` for an account, `email:<address>` for a guest. */
    customerKey: text("customer_key").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    /** The customer's last order when it was sent: the interval it reminds of. */
    lastOrderId: uuid("last_order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    intervalDays: integer("interval_days").notNull(),
    runsOutOn: date("runs_out_on", { mode: "string" }).notNull(),
    /** email (today; WhatsApp joins at the merge, decision 0076). */
    channel: text("channel").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  },
  (table) => [unique("reorder_reminders_one_per_interval").on(table.customerKey, table.lastOrderId), index("reorder_reminders_sent_idx").on(table.sentAt)],
);
