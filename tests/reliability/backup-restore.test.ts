import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type Database } from "@server/db/client";
import { registerCustomer, signInCookies, STRONG_PASSWORD } from "../support/accounts";
import {
  checkoutBody,
  createShopDatabase,
  postCheckout,
  postSandboxAction,
  startShopProcess,
  type ShopDatabase,
  type ShopProcess,
} from "../support/shop-process";
import { newCustomer, subscribe } from "../support/subscription-fixture";
import { adminQuery, rowsOf, withDatabase } from "../support/test-database";

const run = promisify(execFile);

/** What a restore must bring back whole: the shop's books, its customers and the pictures' rows. */
const COUNTED = ["users", "accounts", "orders", "order_items", "payments", "invoices", "subscriptions", "outbox_emails", "product_images", "products"];

async function counts(db: Database): Promise<Record<string, number>> {
  const result = await db.execute(sql.raw(`select ${COUNTED.map((table) => `(select count(*)::int from ${table}) as ${table}`).join(", ")}`));
  return rowsOf<Record<string, number>>(result)[0]!;
}

/**
 * Issue 27 (PostgreSQL only): the backup and restore docs/operations.md describes, done as it
 * says (pg_dump in the custom format, pg_restore into a new database), and the shop started on
 * the copy: the same counts, and a customer signs in with the password they chose before.
 */
describe("a pg_dump backup restored into a new database", () => {
  let source: ShopDatabase;
  let server: ShopProcess | undefined;
  let folder: string;
  let restoredUrl: string | undefined;
  const adminUrl = () => {
    const templates = inject("databaseTemplates");
    if (templates.kind !== "postgres") throw new Error("This scenario runs on PostgreSQL only");
    return templates.adminUrl;
  };

  beforeAll(async () => {
    source = await createShopDatabase();
    folder = await mkdtemp(path.join(tmpdir(), "shop-backup-"));
  });
  afterAll(async () => {
    await server?.kill();
    if (restoredUrl) await adminQuery(adminUrl(), `drop database if exists ${new URL(restoredUrl).pathname.slice(1)} with (force)`);
    await source?.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it("brings back every order, subscription and picture row, and the shop starts on it with working sign-in", async () => {
    // A shop with a paid order, a new customer and a subscription in it.
    server = await startShopProcess({ database: source });
    const checkout = await postCheckout(server.baseURL, checkoutBody({ correo: "respaldo@rel.example.pe" }));
    expect((await postSandboxAction(server.baseURL, checkout.headers.get("location")!, "approve_card")).headers.get("location")).toMatch(/^\/success/);
    const customer = await registerCustomer(server.baseURL, { email: "respaldo-cliente@rel.example.pe" });
    await server.stop();
    server = undefined;
    const handle = await source.open();
    let before: Record<string, number>;
    try {
      await subscribe(handle.db, await newCustomer(handle.db, "respaldo-suscripcion"), "mensual");
      before = await counts(handle.db);
    } finally {
      await handle.close();
    }
    for (const table of ["orders", "payments", "subscriptions", "product_images"]) expect(before[table], table).toBeGreaterThan(0);

    const dump = path.join(folder, "shop.dump");
    await run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${dump}`, source.env.DATABASE_URL!]);
    const name = `shop_restored_${randomBytes(5).toString("hex")}`;
    await adminQuery(adminUrl(), `create database ${name}`);
    restoredUrl = withDatabase(adminUrl(), name);
    await run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", `--dbname=${restoredUrl}`, dump]);

    const restored: ShopDatabase = {
      kind: "postgres",
      env: { DATABASE_URL: restoredUrl },
      open: () => openDatabase({ kind: "postgres", url: restoredUrl! }),
      drop: async () => {},
    };
    server = await startShopProcess({ database: restored });
    expect((await fetch(`${server.baseURL}/readyz`)).status).toBe(200);
    expect(await signInCookies(server.baseURL, customer.email, STRONG_PASSWORD)).not.toEqual([]);
    expect((await fetch(`${server.baseURL}/tienda`)).status).toBe(200);
    const copy = await restored.open();
    try {
      const after = await counts(copy.db);
      // The sign-in just made adds a session; everything counted here is as it was.
      expect(after).toEqual(before);
    } finally {
      await copy.close();
    }
  });
});
