import { sql } from "drizzle-orm";
import { env } from "../config/env";
import { openDatabase, type Database, type DatabaseHandle, type DatabaseTarget } from "./client";
import { seedOnStart } from "./seed/seed";
import { listenForStorefrontChanges } from "./storefront-cache";

export type { Database } from "./client";
export { describeErrorSafely, installSafeErrorLogging } from "./safe-error-log";
export { databaseConnectionFailedSince } from "./client";
export { currentStorefrontGeneration, invalidateStorefront } from "./storefront-cache";

let opening: Promise<DatabaseHandle> | undefined;

export function databaseTarget(): DatabaseTarget {
  const config = env();
  return config.DATABASE_URL ? { kind: "postgres", url: config.DATABASE_URL } : { kind: "pglite", dataDir: config.PGLITE_DATA_DIR };
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

/**
 * An open PGlite keeps the process alive and makes the server ignore the first SIGTERM (stack
 * notes), so the database is closed and the process exits on the first signal.
 */
function closeOnShutdown(handle: DatabaseHandle) {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    handle
      .close()
      .catch((error: unknown) => console.error("Error closing the database", error))
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 0));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}
