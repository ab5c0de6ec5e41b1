/**
 * A fresh, migrated database per test file, on the same engine the shop runs on: an embedded
 * PGlite copied from a dump made once per run, or, when DATABASE_URL is set, a new database on
 * that PostgreSQL server cloned from a template. Both templates come from global-setup.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { inject } from "vitest";
import { openDatabase, type Database, type DatabaseHandle } from "@server/db/client";
import { adminQuery, withDatabase } from "./postgres-admin";

export { adminQuery, withDatabase };

export interface TestDatabase {
  db: Database;
  handle: DatabaseHandle;
  /** Connection target a server process can be started with. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export type TemplateName = "seeded" | "empty";

export async function createTestDatabase(template: TemplateName = "seeded"): Promise<TestDatabase> {
  const templates = inject("databaseTemplates");
  if (templates.kind === "postgres") {
    const name = `shop_test_${randomBytes(6).toString("hex")}`;
    await adminQuery(templates.adminUrl, `create database ${name} template ${templates[template]}`);
    const url = withDatabase(templates.adminUrl, name);
    const handle = await openDatabase({ kind: "postgres", url });
    return {
      db: handle.db,
      handle,
      env: { DATABASE_URL: url },
      async close() {
        await handle.close();
        await adminQuery(templates.adminUrl, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const dump = new Blob([await readFile(templates[template])]);
  const handle = await openDatabase({ kind: "pglite", dataDir: "memory://", loadDataDir: dump });
  return { db: handle.db, handle, env: {}, close: () => handle.close() };
}

/** The rows of a raw `db.execute(sql…)`: both drivers answer with `{ rows }`, typed loosely by Drizzle. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
