import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

/**
 * Drawing a card takes a few hundred milliseconds of CPU, so each one is drawn once per process
 * and kept by what it shows; a bounded cache, so made-up product URLs cannot grow memory.
 */
const drawn = new LRUCache<string, Promise<Buffer>>({ max: 200 });

export function cachedShareImage(key: string, draw: () => Promise<Buffer>): Promise<Buffer> {
  const hit = drawn.get(key);
  if (hit) return hit;
  const pending = draw();
  drawn.set(key, pending);
  pending.catch(() => drawn.delete(key));
  return pending;
}

/** A short fingerprint of what a card shows, put in its URL so a changed price is a new URL. */
export function shareImageVersion(...parts: (string | number | null)[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 10);
}
