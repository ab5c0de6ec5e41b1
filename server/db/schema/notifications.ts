import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Where an email is in its delivery (docs/decisions/0024-email-delivery-outside-transactions.md):
 * `pending` waits for `next_attempt_at`; `sending` is claimed by one sender until its lease runs
 * out; `sent` is done; `dead` gave up after a day of retries (or a permanent SMTP refusal) and
 * waits for staff to retry it; `withheld` is a promotion whose address had no consent when it was
 * due (issue 12), never sent.
 */
export type OutboxEmailStatus = "pending" | "sending" | "sent" | "dead" | "withheld";

export interface EmailAttachmentRef {
  kind: "invoice_pdf" | "complaint_pdf";
  id: string;
}

/**
 * Every email the shop sends goes through this outbox. `dedupeKey` makes "send once" a database
 * fact (an order's confirmation, one recovery email per cart); the sender delivers pending rows by
 * SMTP, or leaves them here as the local outbox when no SMTP server is configured.
 */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dedupeKey: text("dedupe_key").notNull().unique(),
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    /** Files made when the email is sent (e.g. invoice PDFs), referenced rather than stored. */
    attachments: jsonb("attachments").$type<EmailAttachmentRef[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    status: text("status").$type<OutboxEmailStatus>().notNull().default("pending"),
    /** When a pending email is next due (the backoff after a failed attempt). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a sender claimed it: a `sending` row whose lease has run out is due again. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    /** Names the claim; a sender records its outcome only while its claim is still the row's. */
    claimToken: uuid("claim_token"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    deadAt: timestamp("dead_at", { withTimezone: true }),
    /** Attempts started (a claim counts, so a sender that dies mid-send still uses one up). */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
  },
  (table) => [index("outbox_emails_due_idx").on(table.status, table.nextAttemptAt)],
);

export interface SavedCartItem {
  productId: number;
  variantId: number | null;
  quantity: number;
}

/**
 * The cart of someone who typed an email at checkout (one row per email, updated on every save).
 * An hour without an order sends one recovery email with a random token, kept here only hashed.
 */
export const abandonedCarts = pgTable(
  "abandoned_carts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull().unique(),
    items: jsonb("items").$type<SavedCartItem[]>().notNull(),
    subtotalCents: integer("subtotal_cents").notNull(),
    /** SHA-256 of the token in the email link; the token itself is never stored. */
    tokenHash: text("token_hash").unique(),
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }),
    origin: text("origin"),
    recoveredOrderId: uuid("recovered_order_id"),
    reminderSentAt: timestamp("reminder_sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("abandoned_carts_due_idx").on(table.reminderSentAt, table.updatedAt),
    // /admin/clientes finds people who never bought by the beginning of their e-mail (decision 0064).
    index("abandoned_carts_email_prefix_idx").using("btree", sql`${table.email} text_pattern_ops`),
  ],
);
