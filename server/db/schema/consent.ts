import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { ConsentMethod, ConsentSource } from "../../../core/promotional-consent";

/**
 * Issue 24 (decision 0072): a ticked promotional box asks; it consents to nothing yet. Each ask is
 * kept with what a consent must prove — the address, where it was asked, the exact text shown,
 * who asked (client address, browser, account) — and the hash of the token its confirmation
 * e-mail carries. The consent exists once the page that e-mail's link opens is confirmed with a
 * POST (`confirmedAt`, and an event naming this row).
 */
export const promotionalConsentRequests = pgTable(
  "promotional_consent_requests",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** Lower-cased, as every form of the shop stores addresses. */
    email: text("email").notNull(),
    /** SHA-256 of the link's token: a database leak does not hand out working confirmation links. */
    tokenHash: text("token_hash").notNull().unique(),
    source: text("source").$type<ConsentSource>().notNull(),
    textVersion: text("text_version").notNull(),
    /** The box's label and the note under it, as the form showed them. */
    consentText: text("consent_text").notNull(),
    userId: text("user_id"),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  },
  (table) => [index("promotional_consent_requests_email_idx").on(table.email, table.createdAt)],
);

/**
 * Issue 12: every promotional-e-mail consent and revocation, append-only (a trigger in the
 * migration refuses UPDATE and DELETE). The current choice of an address is its latest event (the
 * highest id); an address with no event has not consented. Since issue 24 a consent counts only
 * when it was confirmed from its e-mail (`requestId` set, `method` "email-confirmation"): grants
 * recorded before that, straight from a ticked box, prove nothing and count as no consent.
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
    /** How the choice was made (decision 0072); null on events recorded before it. */
    method: text("method").$type<ConsentMethod>(),
    /** The exact text the person saw: the consent's box and note, or the revoking button's words. */
    consentText: text("consent_text"),
    /** The confirmed ask this consent comes from (double opt-in); null on revocations. */
    requestId: bigint("request_id", { mode: "number" }).references(() => promotionalConsentRequests.id),
  },
  (table) => [
    index("promotional_consent_events_email_idx").on(table.email, table.id),
    // /admin/clientes finds people who never bought by the beginning of their e-mail (decision 0064).
    index("promotional_consent_events_email_prefix_idx").using("btree", sql`${table.email} text_pattern_ops`),
  ],
);
