import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Database } from "@server/db/client";
import { cachedRead, READ_CACHE_MAX_ENTRIES, readCacheEntryCount } from "@server/db/read-cache";

/** The cache only uses the database object as a key; these tests never query it. */
const fakeDatabase = () => ({}) as Database;

describe("storefront read cache bounds (issue 9)", () => {
  it("stays flat while 100 000 random product slugs are asked for: a miss is never kept", async () => {
    const db = fakeDatabase();
    let loads = 0;
    const catalogue = new Set(["agua-alcalina-personal-625ml", "caja-20l-con-dispensador"]);
    const readProduct = cachedRead(async (_db: Database, slug: string) => (loads++, catalogue.has(slug) ? { slug } : null));

    for (const slug of catalogue) await readProduct(db, slug);
    const before = readCacheEntryCount(db);
    expect(before).toBe(2);
    for (let start = 0; start < 100_000; start += 1000) {
      const batch = Array.from({ length: 1000 }, () => readProduct(db, `no-existe-${randomBytes(8).toString("hex")}`));
      const results = await Promise.all(batch);
      expect(results.every((product) => product === null)).toBe(true);
      expect(readCacheEntryCount(db)).toBe(before);
    }

    // Found products are still served from memory.
    loads = 0;
    await readProduct(db, "caja-20l-con-dispensador");
    expect(loads).toBe(0);
  });

  it("keeps at most READ_CACHE_MAX_ENTRIES found reads, dropping the least recently used first", async () => {
    const db = fakeDatabase();
    const loaded: string[] = [];
    const readProduct = cachedRead(async (_db: Database, slug: string) => (loaded.push(slug), { slug }));
    await readProduct(db, "favourite");
    for (let n = 0; n < READ_CACHE_MAX_ENTRIES * 3; n += 1) {
      await readProduct(db, `p-${n}`);
      if (n % 100 === 0) await readProduct(db, "favourite");
    }
    expect(readCacheEntryCount(db)).toBe(READ_CACHE_MAX_ENTRIES);
    loaded.length = 0;
    await readProduct(db, "favourite");
    await readProduct(db, "p-0");
    expect(loaded).toEqual(["p-0"]);
  });
});
