import { count, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "@server/db/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@server/config/env";
import { districts, products, productVariants, siteSettings, users } from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { seedBaseData, seedOnStart } from "@server/db/seed/seed";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/** Every table's columns and row count, every site setting, and the migrations recorded as applied. */
async function databaseSnapshot(db: Database) {
  // Both drivers answer a raw query with `{ rows }`; Drizzle's shared type leaves it unknown.
  const rowsOf = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const tables = await rowsOf<{ table_name: string; columns: string }>(sql`
    select table_name, string_agg(column_name || ':' || data_type, ',' order by column_name) as columns
    from information_schema.columns where table_schema = 'public' group by table_name order by table_name`);
  const rows: Record<string, number> = {};
  for (const { table_name } of tables) {
    rows[table_name] = (await rowsOf<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table_name)}`))[0]!.n;
  }
  const migrations = (await rowsOf<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]!.n;
  return { tables, rows, settings: await db.select().from(siteSettings), migrations };
}

describe("migrations and demo seed", () => {
  let empty: TestDatabase;
  beforeAll(async () => {
    empty = await createTestDatabase("empty");
  });
  afterAll(() => empty.close());

  it("seeds an empty database once, and a second run adds nothing", async () => {
    expect(await seedBaseData(empty.db)).toEqual({ seeded: true });
    const countRows = async () => ({
      products: (await empty.db.select({ n: count() }).from(products))[0]!.n,
      variants: (await empty.db.select({ n: count() }).from(productVariants))[0]!.n,
      districts: (await empty.db.select({ n: count() }).from(districts))[0]!.n,
    });
    const first = await countRows();
    expect(await seedBaseData(empty.db)).toEqual({ seeded: false });
    expect(await countRows()).toEqual(first);
    expect(first).toEqual({ products: 6, variants: 15, districts: 50 });
  });

  it("applying the migrations again changes nothing", async () => {
    const before = await databaseSnapshot(empty.db);
    expect(before.migrations).toBeGreaterThan(0);
    expect(before.rows.products).toBe(6);
    await empty.handle.migrate();
    expect(await databaseSnapshot(empty.db)).toEqual(before);
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

describe("what a first start seeds (docs/security.md)", () => {
  const production = { NODE_ENV: "production", SITE_URL: "https://vidaalcalina.pe", SESSION_SECRET: "s".repeat(32), ALLOW_SANDBOX_PAYMENTS: "true" };
  const startWith = async (source: Record<string, string>) => {
    const database = await createTestDatabase("empty");
    try {
      const config = parseEnv(source);
      await seedOnStart(database.db, { base: config.SEED_BASE_DATA, demo: config.SEED_DEMO_DATA });
      const [catalogue] = await database.db.select({ n: count() }).from(products);
      const people = await database.db.select({ email: users.email, role: users.role }).from(users);
      return { products: Number(catalogue!.n), people };
    } finally {
      await database.close();
    }
  };

  it("in production: the shop's catalogue and districts, but no account, least of all the demo admin", async () => {
    expect(await startWith(production)).toEqual({ products: 6, people: [] });
  });

  it("adds the demo accounts in production only when SEED_DEMO_DATA=true, and by default elsewhere", async () => {
    const admin = { email: DEMO_ADMIN.email, role: "admin" };
    expect((await startWith({ ...production, SEED_DEMO_DATA: "true" })).people).toContainEqual(admin);
    expect((await startWith({ NODE_ENV: "development" })).people).toContainEqual(admin);
  });
});
