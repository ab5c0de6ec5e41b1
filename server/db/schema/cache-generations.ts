import { bigint, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Decision 0040: one counter per cached scope ("storefront"), bumped in the transaction of every
 * staff change the storefront shows. Each server process compares it with the one it last saw
 * (at most once a second, and at once on PostgreSQL's NOTIFY) and forgets its cached reads and
 * stored pages when it moved.
 */
export const cacheGenerations = pgTable("cache_generations", {
  scope: text("scope").primaryKey(),
  generation: bigint("generation", { mode: "number" }).notNull(),
  /** What changed last, for whoever wonders why the caches emptied (e.g. "settings.update"). */
  reason: text("reason").notNull(),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
});
