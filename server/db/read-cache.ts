import { PgTransaction } from "drizzle-orm/pg-core";
import { LRUCache } from "lru-cache";
import { env } from "../config/env";
import type { Database } from "./client";
import { forgetStorefrontCaches, refreshStorefrontGeneration, storefrontCacheGeneration } from "./storefront-cache";

/**
 * A short-lived, per-process cache for storefront reads that every page repeats (settings,
 * districts, catalogue, content). The embedded database spends milliseconds per query, so without
 * it /tienda cannot serve 100 requests a second (bench/RESULTS.md). Only successful reads that
 * found something are kept, and each read keeps at most READ_CACHE_MAX_ENTRIES (least recently
 * used go first), so requests for random product slugs cannot grow memory (issue 9). Prices are
 * never taken from here when an order is priced. Staff changes call `invalidateStorefront` in their
 * transaction, which empties this cache in every process within about a second (decision 0040).
 */
export const READ_CACHE_MAX_ENTRIES = 1000;

let ttlOverrideMs: number | null = null;

function ttlMs(): number {
  return ttlOverrideMs ?? env().STOREFRONT_CACHE_SECONDS * 1000;
}

/** Makes every cached read of this process go to the database again (tests; staff changes use `invalidateStorefront`). */
export function clearReadCaches(): void {
  forgetStorefrontCaches();
}

/** Tests that exercise the cache itself set its lifetime directly; null returns to the environment's. */
export function overrideReadCacheTtl(ms: number | null): void {
  ttlOverrideMs = ms;
  clearReadCaches();
}

interface Entry<T> {
  value: Promise<T>;
  expires: number;
  generation: number;
}

const entryCounters: ((db: Database) => number)[] = [];

/** How many entries all cached reads hold for a database (tests watch it stay bounded). */
export function readCacheEntryCount(db: Database): number {
  return entryCounters.reduce((total, count) => total + count(db), 0);
}

export function cachedRead<Args extends (string | number)[], T>(load: (db: Database, ...args: Args) => PromiseLike<T>) {
  // Keyed by database so each test database, and each server's, has its own entries.
  const byDatabase = new WeakMap<Database, { found: LRUCache<string, Entry<T>>; loading: Map<string, Entry<T>> }>();
  entryCounters.push((db) => {
    const entries = byDatabase.get(db);
    return entries ? entries.found.size + entries.loading.size : 0;
  });
  const read = (db: Database, args: Args, ttl: number): Promise<T> => {
    const generation = storefrontCacheGeneration();
    let entries = byDatabase.get(db);
    if (!entries) byDatabase.set(db, (entries = { found: new LRUCache({ max: READ_CACHE_MAX_ENTRIES }), loading: new Map() }));
    const { found, loading } = entries;
    const key = args.join("\u0000");
    const now = Date.now();
    const fresh = (entry: Entry<T> | undefined) => entry && entry.expires > now && entry.generation === generation;
    const hit = found.get(key) ?? loading.get(key);
    if (hit && fresh(hit)) return hit.value;
    // Drizzle's query builders are thenables that run again on every await: settle once here.
    const value = Promise.resolve(load(db, ...args));
    const entry = { value, expires: now + ttl, generation };
    // Concurrent identical reads share one query; only what it found enters the LRU, so a flood
    // of unknown slugs neither grows memory nor pushes the real products out (issue 9).
    loading.set(key, entry);
    const settled = () => {
      if (loading.get(key) === entry) loading.delete(key);
    };
    value.then(
      (result) => {
        settled();
        if (result !== null && result !== undefined) found.set(key, entry);
        else found.delete(key);
      },
      () => {
        settled();
        found.delete(key);
      },
    );
    return value;
  };
  return (db: Database, ...args: Args): Promise<T> => {
    const ttl = ttlMs();
    if (ttl <= 0) return Promise.resolve(load(db, ...args));
    // At most once a second per process: has another process invalidated the storefront? (decision
    // 0040). A transaction's reads are keyed by that transaction, so they never hit: no look for them.
    const looking = db instanceof PgTransaction ? null : refreshStorefrontGeneration(db);
    return looking ? looking.then(() => read(db, args, ttl)) : read(db, args, ttl);
  };
}
