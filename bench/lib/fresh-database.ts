// A database nobody else uses, for one bench run: a temporary PGlite folder, or (with
// DATABASE_URL) a new database on that PostgreSQL server, dropped afterwards.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseTarget } from "../../server/db/client";
import { ensureBuild } from "./server.mjs";

export interface FreshDatabase {
  target: DatabaseTarget;
  /** How a server process reaches it (DATABASE_URL or PGLITE_DATA_DIR). */
  env: Record<string, string>;
  label: string;
  drop(): Promise<void>;
}

export async function freshDatabase(prefix: string): Promise<FreshDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const name = `bench_${prefix}_${randomBytes(4).toString("hex")}`;
    const admin = async <T extends object>(statement: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        return (await client.query<T>(statement)).rows;
      } finally {
        await client.end();
      }
    };
    const [server] = await admin<{ server_version: string }>("show server_version");
    await admin(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      target: { kind: "postgres", url: url.toString() },
      env: { DATABASE_URL: url.toString() },
      label: `PostgreSQL ${server!.server_version} (local server, fsync off)`,
      drop: async () => void (await admin(`drop database if exists ${name} with (force)`)),
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-${prefix}-`));
  const dataDir = path.join(dir, "pglite");
  return {
    target: { kind: "pglite", dataDir },
    env: { PGLITE_DATA_DIR: dataDir },
    label: "PGlite (embedded, data directory on disk)",
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export type Fresh = FreshDatabase;

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? "unknown"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM; Node ${process.version}`;
}

/** The machine's load averages (1, 5, 15 minutes), as the benches print them beside their figures. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");
}

/**
 * How a bench on its own database starts: the load before it does anything, the production build
 * checked (`--no-build` measures build/ as it is), and a fresh database named for the bench.
 */
export async function startBench(name: string, argv: string[]): Promise<{ loadAtStart: string; fresh: FreshDatabase }> {
  const loadAtStart = loadAverage();
  ensureBuild(path.resolve(import.meta.dirname, "../.."), { skip: argv.includes("--no-build") });
  return { loadAtStart, fresh: await freshDatabase(name) };
}
