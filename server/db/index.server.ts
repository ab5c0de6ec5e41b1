import { env } from "../config/env";
import { openDatabase, type Database, type DatabaseHandle, type DatabaseTarget } from "./client";
import { seedDemoShop } from "./seed/seed";

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
 * The process's database: opened once, migrated, and seeded with the demo shop on first start
 * (unless SEED_DEMO_DATA=false). Concurrent first callers share the same promise.
 */
export function getDatabase(): Promise<Database> {
  opening ??= (async () => {
    const handle = await openDatabase(databaseTarget());
    await handle.migrate(async (db) => {
      if (env().SEED_DEMO_DATA) await seedDemoShop(db);
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
