import { env } from "../config/env";
import type { Database } from "./client";

/**
 * A short-lived, per-process cache for storefront reads that every page repeats (settings,
 * districts, catalogue, content). The embedded database spends milliseconds per query, so without
 * it /tienda cannot serve 100 requests a second (bench/RESULTS.md). Only successful reads are
 * kept; prices are never taken from here when an order is priced. Writers call `clearReadCaches`.
 */
let generation = 0;
let ttlOverrideMs: number | null = null;

function ttlMs(): number {
  return ttlOverrideMs ?? env().STOREFRONT_CACHE_SECONDS * 1000;
}

/** Makes every cached read go to the database again (after staff change the catalogue or content). */
export function clearReadCaches(): void {
  generation += 1;
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

export function cachedRead<Args extends (string | number)[], T>(load: (db: Database, ...args: Args) => PromiseLike<T>) {
  // Keyed by database so each test database, and each server's, has its own entries.
  const byDatabase = new WeakMap<Database, Map<string, Entry<T>>>();
  return (db: Database, ...args: Args): Promise<T> => {
    const ttl = ttlMs();
    if (ttl <= 0) return Promise.resolve(load(db, ...args));
    let entries = byDatabase.get(db);
    if (!entries) byDatabase.set(db, (entries = new Map()));
    const key = args.join("\u0000");
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.expires > now && hit.generation === generation) return hit.value;
    // Drizzle's query builders are thenables that run again on every await: settle once here.
    const value = Promise.resolve(load(db, ...args));
    entries.set(key, { value, expires: now + ttl, generation });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    return value;
  };
}
