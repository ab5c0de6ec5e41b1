import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShopServer } from "../support/shop-server";
import { adminQuery, withDatabase } from "../support/postgres-admin";

/** Starting, stopping and restarting the real server the way `npm start` and Ctrl-C do. */
describe("server lifecycle", () => {
  const databaseEnv: Record<string, string> = {};
  let cleanup: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const adminUrl = process.env.DATABASE_URL;
    if (adminUrl) {
      const name = `shop_lifecycle_${randomBytes(4).toString("hex")}`;
      await adminQuery(adminUrl, `create database ${name}`);
      databaseEnv.DATABASE_URL = withDatabase(adminUrl, name);
      cleanup = () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    } else {
      const dir = await mkdtemp(path.join(tmpdir(), "shop-lifecycle-"));
      // A nested folder: PGlite must get its parents created for it.
      databaseEnv.PGLITE_DATA_DIR = path.join(dir, "nested", "pglite");
      cleanup = () => rm(dir, { recursive: true, force: true });
    }
  });
  afterAll(() => cleanup());

  it("refuses to start with a bad setting and names it", async () => {
    await expect(startShopServer({ env: { DATABASE_URL: "mysql://localhost/shop" } })).rejects.toThrow(
      /DATABASE_URL: must start with postgres:\/\/ or postgresql:\/\//,
    );
    await expect(startShopServer({ env: { SITE_URL: "vidaalcalina" } })).rejects.toThrow(/SITE_URL: must be a full URL/);
  });

  it("in production, refuses to start without SITE_URL and SESSION_SECRET, or on the sandbox unless it is allowed", async () => {
    const refusal = await startShopServer({ env: { SITE_URL: "", SESSION_SECRET: "", ALLOW_SANDBOX_PAYMENTS: "" } }).then(
      () => "started",
      (error: Error) => error.message,
    );
    expect(refusal).toMatch(/- SITE_URL: required in production/);
    expect(refusal).toMatch(/- SESSION_SECRET: required in production/);
    expect(refusal).toMatch(/- CULQI_PUBLIC_KEY: production needs a payment provider.*ALLOW_SANDBOX_PAYMENTS=true/);
  });

  // Two whole starts, the first one migrating and seeding an empty database: ~30 s on a busy CI machine, 60+ s under heavier load.
  it(
    "creates, migrates and seeds on first start, stops on SIGTERM, and keeps its data across restarts without seeding twice",
    { timeout: 150_000 },
    async () => {
      const first = await startShopServer({ env: databaseEnv });
      const firstPage = await (await fetch(`${first.baseURL}/tienda`)).text();
      expect(firstPage.match(/data-testid="product-card"/g)).toHaveLength(6);
      const stopped = await first.stop();
      expect(stopped).toEqual({ code: 0, forced: false });

      const second = await startShopServer({ env: databaseEnv });
      const secondPage = await (await fetch(`${second.baseURL}/tienda`)).text();
      expect(secondPage.match(/data-testid="product-card"/g)).toHaveLength(6);
      expect((await second.stop()).forced).toBe(false);
    },
  );
});
