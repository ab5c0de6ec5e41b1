import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { districts, products, productVariants, siteSettings } from "@server/db/schema";
import { seedDemoData } from "@server/db/seed/seed";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

describe("migrations and demo seed", () => {
  let empty: TestDatabase;
  beforeAll(async () => {
    empty = await createTestDatabase("empty");
  });
  afterAll(() => empty.close());

  it("seeds an empty database once, and a second run adds nothing", async () => {
    expect(await seedDemoData(empty.db)).toEqual({ seeded: true });
    const countRows = async () => ({
      products: (await empty.db.select({ n: count() }).from(products))[0]!.n,
      variants: (await empty.db.select({ n: count() }).from(productVariants))[0]!.n,
      districts: (await empty.db.select({ n: count() }).from(districts))[0]!.n,
    });
    const first = await countRows();
    expect(await seedDemoData(empty.db)).toEqual({ seeded: false });
    expect(await countRows()).toEqual(first);
    expect(first).toEqual({ products: 6, variants: 15, districts: 50 });
  });

  it("applying the migrations again changes nothing", async () => {
    await empty.handle.migrate();
    const [settings] = await empty.db.select().from(siteSettings).where(eq(siteSettings.id, 1));
    expect(settings?.brandName).toBe("Vida Alcalina");
  });

  it("seeds prices as integer céntimos, some under and some over the S/50 minimum", async () => {
    const prices = (await empty.db.select({ price: productVariants.priceCents }).from(productVariants)).map((row) => row.price);
    for (const price of prices) expect(Number.isInteger(price)).toBe(true);
    expect(prices.some((price) => price < 5000)).toBe(true);
    expect(prices.some((price) => price > 5000)).toBe(true);
  });
});
