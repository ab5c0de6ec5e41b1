import { sql } from "drizzle-orm";
import { env } from "../config/env";
import type { Database } from "../db/client";
import { rateLimitBuckets } from "../db/schema";

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one hit against `key` in a fixed window and says whether it is within the limit. One
 * upsert statement, so concurrent requests in several processes count correctly.
 */
export async function consumeRateLimit(db: Database, key: string, rule: RateLimitRule, now: Date = new Date()): Promise<RateLimitResult> {
  const windowStart = new Date(now.getTime() - rule.windowSeconds * 1000);
  const [bucket] = await db
    .insert(rateLimitBuckets)
    .values({ key, windowStartedAt: now, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        hits: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz then 1 else ${rateLimitBuckets.hits} + 1 end`,
        windowStartedAt: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else ${rateLimitBuckets.windowStartedAt} end`,
      },
    })
    .returning({ hits: rateLimitBuckets.hits, windowStartedAt: rateLimitBuckets.windowStartedAt });
  if (!bucket) throw new Error("rate limit upsert returned no row");
  if (bucket.hits <= rule.limit) return { allowed: true };
  const resetsAt = bucket.windowStartedAt.getTime() + rule.windowSeconds * 1000;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetsAt - now.getTime()) / 1000)) };
}

/** Whether `key` is already over its limit, without counting a hit (used before checking a password). */
export async function isRateLimited(db: Database, key: string, rule: RateLimitRule, now: Date = new Date()): Promise<RateLimitResult> {
  const rows = await db.select().from(rateLimitBuckets).where(sql`${rateLimitBuckets.key} = ${key}`);
  const bucket = rows[0];
  if (!bucket) return { allowed: true };
  const resetsAt = bucket.windowStartedAt.getTime() + rule.windowSeconds * 1000;
  if (resetsAt <= now.getTime() || bucket.hits < rule.limit) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetsAt - now.getTime()) / 1000)) };
}

/**
 * The limits of issue 4: per address and per client. Failed passwords per address are what slows
 * down guessing; the per-client limits stop one machine from walking through many addresses.
 */
export const RATE_LIMITS = {
  loginFailuresPerEmail: { limit: 5, windowSeconds: 15 * 60 },
  recoveryPerEmail: { limit: 3, windowSeconds: 60 * 60 },
  get loginPerClient() {
    return perClient(30, 15 * 60);
  },
  get registerPerClient() {
    return perClient(10, 60 * 60);
  },
  get recoveryPerClient() {
    return perClient(10, 60 * 60);
  },
  get emailCheckPerClient() {
    return perClient(30, 15 * 60);
  },
} satisfies Record<string, RateLimitRule>;

function perClient(limit: number, windowSeconds: number): RateLimitRule {
  return { limit: limit * env().CLIENT_RATE_LIMIT_FACTOR, windowSeconds };
}

export function rateLimitMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Demasiados intentos. Espera ${minutes} ${minutes === 1 ? "minuto" : "minutos"} e inténtalo de nuevo.`;
}
