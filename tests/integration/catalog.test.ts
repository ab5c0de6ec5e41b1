import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findProductBySlug, listProductSlugs, listShopProducts } from "@server/catalog/index.server";
import { products, productVariants } from "@server/db/schema";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

describe("catalog", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("lists active products by their order key, those without one last", async () => {
    await test.db.insert(products).values([
      { slug: "sin-orden", title: "Sin orden", priceCents: 1000 },
      { slug: "retirado", title: "Retirado", priceCents: 1000, sortOrder: 0, active: false },
    ]);
    const list = await listShopProducts(test.db);
    expect(list.map((product) => product.slug)).toEqual([
      "agua-alcalina-personal-625ml",
      "agua-alcalina-sport-1l",
      "agua-alcalina-familiar-8l",
      "bidon-retornable-hogar-20l",
      "bidon-retornable-oficina-20l",
      "caja-20l-con-dispensador",
      "sin-orden",
    ]);
    await test.db.delete(products).where(sql`${products.slug} in ('sin-orden', 'retirado')`);
  });

  it("derives price ranges from active variants only", async () => {
    const list = await listShopProducts(test.db);
    const office = list.find((product) => product.slug === "bidon-retornable-oficina-20l")!;
    // The Pack 20 variant (S/ 380) is inactive and must not widen the range.
    expect(office).toMatchObject({ hasVariants: true, minPriceCents: 8400, maxPriceCents: 19900 });
    const box = list.find((product) => product.slug === "caja-20l-con-dispensador")!;
    expect(box).toMatchObject({ hasVariants: false, minPriceCents: 5990, maxPriceCents: 5990, refillPerBidon: null });
  });

  it("says what one bidón costs as a recarga: the least of the active packs, never the bidón sold with its container", async () => {
    const list = await listShopProducts(test.db);
    const home = list.find((product) => product.slug === "bidon-retornable-hogar-20l")!;
    // Recarga S/ 22.00 and Pack 3 recargas S/ 60.00 (S/ 20.00 each); "Primer bidón con envase" S/ 45.00 is no recarga.
    expect(home.refillPerBidon).toEqual({ cents: 2000, from: true });
    const office = list.find((product) => product.slug === "bidon-retornable-oficina-20l")!;
    // Pack 4 S/ 84.00 (S/ 21.00 each), Pack 10 S/ 199.00 (S/ 19.90 each); the inactive Pack 20 (S/ 19.00 each) does not count.
    expect(office.refillPerBidon).toEqual({ cents: 1990, from: true });
    expect(list.find((product) => product.slug === "agua-alcalina-personal-625ml")!.refillPerBidon).toBeNull();
  });

  it("finds a product by slug with its active variants in id order", async () => {
    const product = await findProductBySlug(test.db, "bidon-retornable-oficina-20l");
    expect(product?.variants.map((variant) => variant.title)).toEqual(["Pack 4 recargas", "Pack 10 recargas"]);
    expect(await findProductBySlug(test.db, "no-existe")).toBeNull();
  });

  it("hides a withdrawn product from its page and the sitemap", async () => {
    await test.db.update(products).set({ active: false }).where(eq(products.slug, "agua-alcalina-sport-1l"));
    expect(await findProductBySlug(test.db, "agua-alcalina-sport-1l")).toBeNull();
    expect((await listProductSlugs(test.db)).map((row) => row.slug)).not.toContain("agua-alcalina-sport-1l");
    await test.db.update(products).set({ active: true }).where(eq(products.slug, "agua-alcalina-sport-1l"));
  });

  it("shows products without price ranges when the variant read fails, and an empty list when the product read fails", async () => {
    expectConsoleError(/Could not read product variants/);
    expectConsoleError(/Could not read variants of product/);
    expectConsoleError(/Could not read products/);
    await test.db.execute(sql`alter table ${productVariants} rename to product_variants_away`);
    try {
      const list = await listShopProducts(test.db);
      expect(list).toHaveLength(6);
      expect(list.every((product) => !product.hasVariants)).toBe(true);
      expect(list.find((product) => product.slug === "caja-20l-con-dispensador")?.minPriceCents).toBe(5990);
      const detail = await findProductBySlug(test.db, "agua-alcalina-personal-625ml");
      expect(detail?.variants).toEqual([]);
    } finally {
      await test.db.execute(sql`alter table product_variants_away rename to product_variants`);
    }
    await test.db.execute(sql`alter table ${products} rename to products_away`);
    try {
      expect(await listShopProducts(test.db)).toEqual([]);
    } finally {
      await test.db.execute(sql`alter table products_away rename to products`);
    }
  });
});
