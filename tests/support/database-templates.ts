/** Builds the two template databases (migrated + demo seed, and migrated only) once per test run. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@server/db/client";
import { seedDemoShop } from "@server/db/seed/seed";
import { adminQuery, withDatabase } from "./test-database";

/**
 * Embedded: `seeded`/`empty` are dumps (an in-memory database loads one), `seededDir`/`emptyDir`
 * the same databases as closed data folders a server's copy is made from by copying files.
 * PostgreSQL: the names of the two template databases.
 */
export type DatabaseTemplates =
  | { kind: "pglite"; seeded: string; empty: string; seededDir: string; emptyDir: string }
  | { kind: "postgres"; adminUrl: string; seeded: string; empty: string };

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

export async function buildDatabaseTemplates(): Promise<{ templates: DatabaseTemplates; cleanup: () => Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const suffix = process.pid;
    const names = { seeded: `shop_tpl_seeded_${suffix}`, empty: `shop_tpl_empty_${suffix}` };
    for (const [kind, name] of Object.entries(names)) {
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
      await adminQuery(adminUrl, `create database ${name}`);
      const handle = await openDatabase({ kind: "postgres", url: withDatabase(adminUrl, name) });
      await handle.migrate(kind === "seeded" ? seedDemoShop : undefined);
      await handle.close();
    }
    return {
      templates: { kind: "postgres", adminUrl, ...names },
      async cleanup() {
        for (const name of Object.values(names)) await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
      },
    };
  }

  const dir = await mkdtemp(path.join(tmpdir(), "shop-test-db-"));
  const files = { seeded: path.join(dir, "seeded.tar"), empty: path.join(dir, "empty.tar") };
  const dirs = { seededDir: path.join(dir, "seeded"), emptyDir: path.join(dir, "empty") };
  // One embedded database: dump it migrated, then seed it and dump again (creating one costs ~6 s).
  const handle = await openDatabase({ kind: "pglite", dataDir: "memory://" });
  await handle.migrate();
  const empty = await handle.dump!();
  await writeFile(files.empty, Buffer.from(await empty.arrayBuffer()));
  await seedDemoShop(handle.db);
  const seeded = await handle.dump!();
  await writeFile(files.seeded, Buffer.from(await seeded.arrayBuffer()));
  await handle.close();
  // A server's database is a copy of these folders: copying 44 MB of files takes ~0.15 s, where
  // loading a dump into a new folder started PGlite in the test process for 2–4 s of CPU.
  for (const [dataDir, dump] of [
    [dirs.emptyDir, empty],
    [dirs.seededDir, seeded],
  ] as const) {
    const folder = await openDatabase({ kind: "pglite", dataDir, loadDataDir: dump });
    await folder.close();
  }
  return { templates: { kind: "pglite", ...files, ...dirs }, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
