import { eq, sql } from "drizzle-orm";
import pg from "pg";
import type { Database } from "./client";
import type { DatabaseOrTransaction } from "./transaction";
import { cacheGenerations } from "./schema";

/**
 * Cross-process invalidation of the storefront's caches (decision 0040). Every process keeps
 * storefront reads (read-cache.ts) and public pages (scripts/micro-cache.mjs) for a few seconds;
 * when staff change what those show, every process must forget them within a few seconds, not
 * wait out their timers. A staff change bumps the `storefront` row of `cache_generations` in its
 * own transaction; each process notices the new number
 *   - at once through PostgreSQL's NOTIFY, where a listener runs (server processes on PostgreSQL);
 *   - otherwise, and whenever that listener is down, on the first cached read or page after its
 *     last look is a second old: at most one one-row query per second per process, never one per request.
 */

export const STOREFRONT_CHANNEL = "storefront_cache";
const SCOPE = "storefront";
export const GENERATION_POLL_MS = 1_000;

/** Bumped each time this process forgets its storefront caches; cache entries remember the value they were made under. */
let localGeneration = 0;

/** The number cached reads and stored pages must carry to still be served. */
export function storefrontCacheGeneration(): number {
  return localGeneration;
}

/** Forgets, in this process only, every cached storefront read and stored page. */
export function forgetStorefrontCaches(): void {
  localGeneration += 1;
}

interface Watch {
  /** The database's generation as last seen; null before the first look. */
  seen: number | null;
  checkedAt: number;
  checkedAfterInvalidation: number;
  checking: Promise<void> | null;
}

const watches = new WeakMap<Database, Watch>();
/** Counts invalidations made by this process, so its next read looks again without waiting the second out. */
let invalidationsHere = 0;

function watchOf(db: Database): Watch {
  let watch = watches.get(db);
  if (!watch) watches.set(db, (watch = { seen: null, checkedAt: Number.NEGATIVE_INFINITY, checkedAfterInvalidation: 0, checking: null }));
  return watch;
}

function noteGeneration(watch: Watch, generation: number, { firstLookForgets }: { firstLookForgets: boolean }): void {
  if (watch.seen === null) {
    watch.seen = generation;
    if (firstLookForgets) forgetStorefrontCaches();
    return;
  }
  // Generations only grow; a slower look that read an older number changes nothing.
  if (generation > watch.seen) {
    watch.seen = generation;
    forgetStorefrontCaches();
  }
}

/**
 * Looks at the database's generation if the last look is a second old (or this process has just
 * invalidated), forgetting the caches when it moved. Null when there is nothing to wait for, so the
 * hot path stays synchronous. A failed look is not an error of the request: the next second retries.
 */
export function refreshStorefrontGeneration(db: Database): Promise<void> | null {
  const watch = watchOf(db);
  if (watch.checking) return watch.checking;
  const now = Date.now();
  if (now - watch.checkedAt < GENERATION_POLL_MS && watch.checkedAfterInvalidation === invalidationsHere) return null;
  watch.checkedAt = now;
  watch.checkedAfterInvalidation = invalidationsHere;
  // Started inside a promise, so even a query that cannot be built fails only the look, not the read.
  const checking = Promise.resolve()
    .then(() => db.select({ generation: cacheGenerations.generation }).from(cacheGenerations).where(eq(cacheGenerations.scope, SCOPE)))
    .then(
      ([row]) => noteGeneration(watch, Number(row?.generation ?? 0), { firstLookForgets: false }),
      () => undefined,
    )
    .finally(() => {
      watch.checking = null;
    });
  watch.checking = checking;
  return checking;
}

/** The generation pages may be stored and served under, after a look at the database when one is due. */
export function currentStorefrontGeneration(db: Database): number | Promise<number> {
  const pending = refreshStorefrontGeneration(db);
  return pending ? pending.then(storefrontCacheGeneration) : localGeneration;
}

/**
 * Call inside the transaction of any staff change the storefront shows (content, settings,
 * catalogue): every process forgets its cached reads and stored pages within about a second of the
 * commit. Last in the transaction, so the one counter row is locked for the shortest time
 * (decision 0025: inserted/updated rows come last). This process forgets at once; if the
 * transaction rolls back, that cost a few cache misses and nothing else.
 */
export async function invalidateStorefront(tx: DatabaseOrTransaction, reason: string): Promise<void> {
  const [row] = await tx
    .insert(cacheGenerations)
    .values({ scope: SCOPE, generation: 1, reason })
    .onConflictDoUpdate({ target: cacheGenerations.scope, set: { generation: sql`${cacheGenerations.generation} + 1`, reason, changedAt: sql`now()` } })
    .returning({ generation: cacheGenerations.generation });
  // Delivered to listeners only when the transaction commits, and not at all if it rolls back.
  await tx.execute(sql`select pg_notify(${STOREFRONT_CHANNEL}, ${String(row!.generation)})`);
  forgetStorefrontCaches();
  invalidationsHere += 1;
}

export interface StorefrontListener {
  stop(): Promise<void>;
}

const RECONNECT_MS = 5_000;

/**
 * PostgreSQL only: a connection of its own, outside the pool, that LISTENs for invalidations and
 * forgets the caches the moment another process commits one. When it drops, it reconnects after
 * a few seconds; meanwhile the once-a-second look keeps the caches honest.
 */
export function listenForStorefrontChanges(url: string, db: Database): StorefrontListener {
  const watch = watchOf(db);
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const reconnectLater = (failed: pg.Client) => {
    if (stopped || client !== failed) return;
    client = null;
    failed.end().catch(() => undefined);
    retry = setTimeout(connect, RECONNECT_MS);
    retry.unref();
  };

  function connect() {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on("notification", (message) => {
      const generation = Number(message.payload);
      // Missed notifications while disconnected are covered by the poll; a reconnect forgets once to be sure.
      if (Number.isFinite(generation)) noteGeneration(watch, generation, { firstLookForgets: true });
    });
    next.on("error", (error) => {
      console.warn(`The storefront cache listener lost its connection (${error.message}); reconnecting in ${RECONNECT_MS / 1000} s`);
      reconnectLater(next);
    });
    next.on("end", () => reconnectLater(next));
    next
      .connect()
      .then(() => next.query(`listen ${STOREFRONT_CHANNEL}`))
      .then(() => {
        // Whatever was committed while no listener ran is caught by the next look, made due now.
        watch.checkedAt = Number.NEGATIVE_INFINITY;
      })
      .catch(() => reconnectLater(next));
  }

  connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  };
}
