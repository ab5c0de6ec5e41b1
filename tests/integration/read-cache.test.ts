import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { findProductBySlug, listShopProducts } from "@server/catalog/index.server";
import { clearReadCaches, overrideReadCacheTtl, readCacheEntryCount } from "@server/db/read-cache";
import { products } from "@server/db/schema";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

describe("storefront read cache", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    overrideReadCacheTtl(60_000);
  });
  afterAll(async () => {
    overrideReadCacheTtl(null);
    await test.close();
  });

  const firstTitle = async () => (await listShopProducts(test.db))[0]?.title;

  it("reuses a read until it is cleared", async () => {
    expect(await firstTitle()).toBe("Agua alcalina personal 625 ml");
    await test.db.update(products).set({ title: "Nuevo nombre" }).where(eq(products.slug, "agua-alcalina-personal-625ml"));
    expect(await firstTitle()).toBe("Agua alcalina personal 625 ml");
    clearReadCaches();
    expect(await firstTitle()).toBe("Nuevo nombre");
  });

  it("never keeps a failed read, so the shop recovers as soon as the database does", async () => {
    expectConsoleError(/Could not read products/);
    clearReadCaches();
    await test.db.execute(sql`alter table ${products} rename to products_away`);
    try {
      expect(await listShopProducts(test.db)).toEqual([]);
    } finally {
      await test.db.execute(sql`alter table products_away rename to products`);
    }
    expect(await listShopProducts(test.db)).toHaveLength(6);
  });

  it("keeps entries apart per database", async () => {
    const other = await createTestDatabase("seeded");
    try {
      expect((await listShopProducts(other.db))[0]?.title).toBe("Agua alcalina personal 625 ml");
      expect(await firstTitle()).toBe("Nuevo nombre");
    } finally {
      await other.close();
    }
  });

  it("does not keep product pages that do not exist, however many are asked for", async () => {
    clearReadCaches();
    await listShopProducts(test.db);
    const before = readCacheEntryCount(test.db);
    for (let round = 0; round < 2; round += 1) {
      const batch = Array.from({ length: 100 }, () => findProductBySlug(test.db, `no-existe-${randomBytes(6).toString("hex")}`));
      for (const product of await Promise.all(batch)) expect(product).toBeNull();
    }
    expect(readCacheEntryCount(test.db)).toBe(before);
    expect(await findProductBySlug(test.db, "caja-20l-con-dispensador")).not.toBeNull();
    expect(readCacheEntryCount(test.db)).toBeGreaterThan(before);
  });
});
