import { env } from "../config/env";
import { openDatabase, type Database, type DatabaseHandle, type DatabaseTarget } from "./client";
import { seedOnStart } from "./seed/seed";

export type { Database } from "./client";
export { describeErrorSafely, installSafeErrorLogging } from "./safe-error-log";

let opening: Promise<DatabaseHandle> | undefined;

export function databaseTarget(): DatabaseTarget {
  const config = env();
  return config.DATABASE_URL
    ? { kind: "postgres", url: config.DATABASE_URL }
    : { kind: "pglite", dataDir: config.PGLITE_DATA_DIR };
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
    closeOnShutdown(handle);
    return handle;
  })().catch((error: unknown) => {
    opening = undefined;
    throw error;
  });
  return opening.then((handle) => handle.db);
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
