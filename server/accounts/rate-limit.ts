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

/**
 * The limits of issue 4 besides sign-in, which has its own throttle counting failures only
 * (sign-in-throttle.ts): per address and per client.
 */
export const RATE_LIMITS = {
  recoveryPerEmail: { limit: 3, windowSeconds: 60 * 60 },
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

/**
 * Paces something the shop does on anyone's behalf (decision 0073): the first `perHour` in an hour
 * happen at once, each one after that is given a time `3600 / perHour` seconds after the one before,
 * so however many arrive, at most about `perHour` an hour go out and none is refused or dropped.
 * The bucket's `window_started_at` holds the time the slots are booked up to (a leaky bucket, as
 * GCRA). One upsert statement, so concurrent requests in several processes book distinct slots.
 */
export async function reservePacedSlot(db: Database, key: string, perHour: number, now: Date = new Date()): Promise<Date> {
  const intervalSeconds = 3600 / perHour;
  const [bucket] = await db
    .insert(rateLimitBuckets)
    .values({ key, windowStartedAt: new Date(now.getTime() + intervalSeconds * 1000), hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        windowStartedAt: sql`greatest(${rateLimitBuckets.windowStartedAt}, ${now.toISOString()}::timestamptz) + ${intervalSeconds}::float8 * interval '1 second'`,
        hits: sql`${rateLimitBuckets.hits} + 1`,
      },
    })
    .returning({ bookedUntil: rateLimitBuckets.windowStartedAt });
  if (!bucket) throw new Error("paced slot upsert returned no row");
  return new Date(Math.max(now.getTime(), bucket.bookedUntil.getTime() - 3600 * 1000));
}

/** The Spanish answer of a refused attempt, saying how long to wait (seconds under a minute). */
export function rateLimitMessage(retryAfterSeconds: number): string {
  if (retryAfterSeconds < 60) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    return `Demasiados intentos. Espera ${seconds} ${seconds === 1 ? "segundo" : "segundos"} e inténtalo de nuevo.`;
  }
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Demasiados intentos. Espera ${minutes} ${minutes === 1 ? "minuto" : "minutos"} e inténtalo de nuevo.`;
}
