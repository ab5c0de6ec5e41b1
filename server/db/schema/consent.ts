import { sql } from "drizzle-orm";
import { bigserial, boolean, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { ConsentSource } from "../../../core/promotional-consent";

/**
 * Issue 12: every promotional-e-mail consent and revocation, append-only (a trigger in the
 * migration refuses UPDATE and DELETE). The current choice of an address is its latest event (the
 * highest id); an address with no event has not consented.
 */
export const promotionalConsentEvents = pgTable(
  "promotional_consent_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** Lower-cased, as every form of the shop stores addresses. */
    email: text("email").notNull(),
    granted: boolean("granted").notNull(),
    source: text("source").$type<ConsentSource>().notNull(),
    /** Which wording the customer saw (core/promotional-consent.ts). */
    textVersion: text("text_version").notNull(),
    /** The customer's account when they were signed in (informative; the address is what counts). */
    userId: text("user_id"),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("promotional_consent_events_email_idx").on(table.email, table.id),
    // /admin/clientes finds people who never bought by the beginning of their e-mail (decision 0064).
    index("promotional_consent_events_email_prefix_idx").using("btree", sql`${table.email} text_pattern_ops`),
  ],
);
