import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { env } from "../config/env";
import { openDatabase, type Database, type DatabaseHandle, type DatabaseTarget } from "./client";
import { migrationsFolder } from "./project-files";
import { seedOnStart } from "./seed/seed";
import { listenForStorefrontChanges } from "./storefront-cache";

export type { Database } from "./client";
export { describeErrorSafely, installSafeErrorLogging } from "./safe-error-log";
export { databaseConnectionFailedSince } from "./client";
export { currentStorefrontGeneration } from "./storefront-cache";

let opening: Promise<DatabaseHandle> | undefined;

export function databaseTarget(): DatabaseTarget {
  const config = env();
  if (!config.DATABASE_URL) return { kind: "pglite", dataDir: config.PGLITE_DATA_DIR };
  const timeouts = {
    connectSeconds: config.PG_CONNECT_TIMEOUT_SECONDS,
    statementSeconds: config.PG_STATEMENT_TIMEOUT_SECONDS,
    idleInTransactionSeconds: config.PG_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS,
    poolMax: config.PG_POOL_MAX,
  };
  return { kind: "postgres", url: config.DATABASE_URL, timeouts };
}

/**
 * The process's database: opened once, migrated, and seeded on first start with the shop's base
 * data and, outside production unless told otherwise, the demo accounts (SEED_BASE_DATA,
 * SEED_DEMO_DATA). Concurrent first callers share the same promise.
 */
export function getDatabase(): Promise<Database> {
  opening ??= (async () => {
    const handle = await openDatabase(databaseTarget());
    const config = env();
    await handle.migrate(async (db) => {
      await seedOnStart(db, { base: config.SEED_BASE_DATA, demo: config.SEED_DEMO_DATA });
    });
    // Other processes' content changes reach this one's caches at once (decision 0040).
    const target = databaseTarget();
    const listener = target.kind === "postgres" ? listenForStorefrontChanges(target.url, handle.db) : null;
    closeOnShutdown({ ...handle, close: () => Promise.all([listener?.stop(), handle.close()]).then(() => undefined) });
    return handle;
  })().catch((error: unknown) => {
    opening = undefined;
    throw error;
  });
  return opening.then((handle) => handle.db);
}

/** How long the reachability check waits for the database before calling it away. */
const REACHABILITY_TIMEOUT_MS = 3_000;

/**
 * Whether the database answers a trivial query now. Asked after a request failed, to tell "the
 * database is away" (answered with a 503 page) from a bug (a 500).
 */
export async function databaseReachable(): Promise<boolean> {
  if (!opening) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), REACHABILITY_TIMEOUT_MS)));
  const probe = opening
    .then((handle) => handle.db.execute(sql`select 1`))
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The open database, for closing it and for the readiness check; undefined until it is ready. */
let openHandle: DatabaseHandle | undefined;
/** Whether this module ends the process on SIGTERM/SIGINT itself (see `closeDatabaseOnShutdownElsewhere`). */
let ownsSignals = true;
let signalHandler: ((signal: NodeJS.Signals) => void) | undefined;

/**
 * An open PGlite keeps the process alive and makes the server ignore the first SIGTERM (stack
 * notes), so unless someone else shuts the process down (scripts/serve.mjs does, after its
 * requests and jobs finish), the database is closed and the process exits on the first signal.
 */
function closeOnShutdown(handle: DatabaseHandle) {
  openHandle = handle;
  if (!ownsSignals) return;
  let closing = false;
  signalHandler = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    handle
      .close()
      .catch((error: unknown) => console.error("Error closing the database", error))
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 0));
  };
  process.once("SIGTERM", signalHandler);
  process.once("SIGINT", signalHandler);
}

/**
 * The production server shuts down in order (issue 27): it stops taking requests, lets those in
 * flight finish and the jobs stop, then calls `closeDatabase` itself.
 */
export function closeDatabaseOnShutdownElsewhere(): void {
  ownsSignals = false;
  if (!signalHandler) return;
  process.removeListener("SIGTERM", signalHandler);
  process.removeListener("SIGINT", signalHandler);
  signalHandler = undefined;
}

/** Closes the process's database (ends the pool's connections, or closes the embedded one). */
export async function closeDatabase(): Promise<void> {
  const handle = openHandle ?? (opening ? await opening.catch(() => undefined) : undefined);
  openHandle = undefined;
  opening = undefined;
  await handle?.close();
}

/** What the connection pool is doing, for the metrics (PostgreSQL only). */
export function databasePoolStats(): { total: number; idle: number; waiting: number } | undefined {
  return openHandle?.poolStats?.();
}

export type Readiness = { ready: true } | { ready: false; reason: string };

/** How long /readyz gives the database to answer (issue 27: "reachable within 1 s"). */
export const READINESS_TIMEOUT_MS = 1_000;

/**
 * `/readyz` (issue 27): the database answers within a second and every migration this build
 * carries is applied. A process that is still migrating, or whose database is away or behind, is
 * not ready: the load balancer sends its visitors elsewhere. The reason names no data.
 */
export async function databaseReadiness(): Promise<Readiness> {
  if (!openHandle) return { ready: false, reason: "database not open yet (starting or migrating)" };
  const handle = openHandle;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>(
    (resolve) =>
      (timer = setTimeout(() => resolve({ ready: false, reason: `database did not answer within ${READINESS_TIMEOUT_MS} ms` }), READINESS_TIMEOUT_MS)),
  );
  const check = (async (): Promise<Readiness> => {
    const result = await handle.db.execute(sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`);
    const latest = Number((result as unknown as { rows: { latest: string | null }[] }).rows[0]?.latest ?? 0);
    const expected = latestMigrationTime();
    return latest >= expected ? { ready: true } : { ready: false, reason: "database migrations are behind this build" };
  })().catch((error: unknown): Readiness => ({ ready: false, reason: `database unreachable (${errorCode(error)})` }));
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

let latestMigration: number | undefined;

/** The `when` of the newest migration in the journal this build ships (drizzle records it as created_at). */
function latestMigrationTime(): number {
  if (latestMigration === undefined) {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
    latestMigration = Math.max(0, ...journal.entries.map((entry) => entry.when));
  }
  return latestMigration;
}

/** A database error's SQLSTATE or a network error's code: enough to tell the causes apart, no values. */
function errorCode(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error && /timeout/i.test(error.message) ? "timeout" : "error";
}
