/** Builds the two template databases (migrated + demo seed, and migrated only) once per test run. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@server/db/client";
import { seedDemoShop } from "@server/db/seed/seed";
import { adminQuery, withDatabase } from "./test-database";

export type DatabaseTemplates = { kind: "pglite"; seeded: string; empty: string } | { kind: "postgres"; adminUrl: string; seeded: string; empty: string };

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
  // One embedded database: dump it migrated, then seed it and dump again (creating one costs ~6 s).
  const handle = await openDatabase({ kind: "pglite", dataDir: "memory://" });
  await handle.migrate();
  await writeFile(files.empty, Buffer.from(await (await handle.dump!()).arrayBuffer()));
  await seedDemoShop(handle.db);
  await writeFile(files.seeded, Buffer.from(await (await handle.dump!()).arrayBuffer()));
  await handle.close();
  return { templates: { kind: "pglite", ...files }, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
