import { and, count, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { cachedRead } from "../db/read-cache";
import { organizations, organizationVotes } from "../db/schema";

/** Votes per organisation id; an organisation nobody voted for is absent (read it as 0). */
export type VoteCounts = Record<number, number>;

export type VoteResult = { ok: true; organizationId: number } | { ok: false; reason: "unknown_organization" };

/**
 * Spec §1 / decisions.md (Social causes): one vote per customer, changeable. One statement: the
 * vote is inserted only if the organisation exists and is active, and a second vote replaces the first (the
 * user id is the key), so a double submit or two tabs can never count a customer twice.
 */
export async function voteForOrganization(db: Database, input: { userId: string; organizationId: number; now: Date }): Promise<VoteResult> {
  const rows = await db
    .insert(organizationVotes)
    .select(
      db
        .select({
          userId: sql<string>`${input.userId}`.as("user_id"),
          organizationId: organizations.id,
          createdAt: sql<Date>`${input.now}::timestamptz`.as("created_at"),
          updatedAt: sql<Date>`${input.now}::timestamptz`.as("updated_at"),
        })
        .from(organizations)
        .where(and(eq(organizations.id, input.organizationId), eq(organizations.active, true))),
    )
    .onConflictDoUpdate({ target: organizationVotes.userId, set: { organizationId: sql`excluded.organization_id`, updatedAt: sql`excluded.updated_at` } })
    .returning({ organizationId: organizationVotes.organizationId });
  return rows[0] ? { ok: true, organizationId: rows[0].organizationId } : { ok: false, reason: "unknown_organization" };
}

/** The organisation the customer voted for, or null. */
export async function findVoteOf(db: Database, userId: string): Promise<number | null> {
  const [row] = await db.select({ organizationId: organizationVotes.organizationId }).from(organizationVotes).where(eq(organizationVotes.userId, userId));
  return row?.organizationId ?? null;
}

/** Fresh counts, for a voter who must see their own vote counted at once. */
export async function countVotes(db: Database): Promise<VoteCounts> {
  const rows = await db
    .select({ organizationId: organizationVotes.organizationId, votes: count() })
    .from(organizationVotes)
    .groupBy(organizationVotes.organizationId);
  // count() is a bigint: a number from PGlite, a string from node-postgres (stack notes).
  return Object.fromEntries(rows.map((row) => [row.organizationId, Number(row.votes)]));
}

/**
 * The counts the public (cached) page shows: at most STOREFRONT_CACHE_SECONDS old, like every
 * storefront read (decision 0011). A voter's own page reads `countVotes` instead (decision 0022).
 */
export const countVotesForPublicPage = cachedRead((db: Database) => countVotes(db));
