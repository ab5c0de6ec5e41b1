import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { migrationsFolder } from "./project-files";
import { installSafeErrorLogging } from "./safe-error-log";
import * as schema from "./schema";

/** The one database type domains see: identical on PGlite and on a PostgreSQL server. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * Bounds on a PostgreSQL server that hangs rather than refuses (issue 27): opening a connection,
 * one statement (server-side, lock waits included), and a session left idle inside a transaction.
 * The client also stops waiting for an answer a little after the statement timeout, since a
 * server that is silent never enforces its own.
 */
export interface PostgresTimeouts {
  connectSeconds: number;
  statementSeconds: number;
  idleInTransactionSeconds: number;
  poolMax: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = { connectSeconds: 5, statementSeconds: 30, idleInTransactionSeconds: 60, poolMax: 10 };

/** How much longer than the server's statement_timeout the client waits before calling the server silent. */
const CLIENT_GRACE_MS = 2_000;

export type DatabaseTarget =
  | { kind: "postgres"; url: string; timeouts?: PostgresTimeouts }
  /** `loadDataDir` starts the embedded database from a dump (how tests get a fresh copy fast). */
  | { kind: "pglite"; dataDir: string; loadDataDir?: Blob };

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseTarget["kind"];
  /**
   * Applies the committed migrations, then runs `afterMigrate` (the seed), while holding a
   * PostgreSQL advisory lock so two server processes starting together never race.
   */
  migrate(afterMigrate?: (db: Database) => Promise<void>): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: what the connection pool is doing now (the metrics read it). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** Embedded only: the whole data directory as a tarball, to start copies from. */
  dump?: () => Promise<Blob>;
}

const MIGRATION_LOCK_KEY = 7_212_025;

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  // Every process that opens the shop's database (server, jobs CLI, migrations) logs its errors
  // without the customer data a failed query carries.
  installSafeErrorLogging();
  return target.kind === "postgres" ? openPostgres(target.url, target.timeouts ?? DEFAULT_POSTGRES_TIMEOUTS) : openPglite(target.dataDir, target.loadDataDir);
}

let lastConnectionFailureAt = 0;

/**
 * Whether a connection to the PostgreSQL server failed (refused, dropped, "starting up") at or
 * after this instant: a request that failed meanwhile failed because the database was away.
 */
export function databaseConnectionFailedSince(instant: number): boolean {
  return lastConnectionFailureAt >= instant;
}

/** A pool connection that notes when it cannot connect, so the 503 page knows why a request failed. */
class ObservedClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: ((error: Error) => void) | ((error: null, client: pg.Client) => void)): void;
  override connect(callback?: ((error: Error) => void) | ((error: null, client: pg.Client) => void)): Promise<pg.Client> | void {
    if (!callback) {
      return super.connect().catch((error: unknown) => {
        lastConnectionFailureAt = Date.now();
        throw error;
      });
    }
    const reply = callback as (error: Error | null, client?: pg.Client) => void;
    super.connect((error: Error | null, client?: pg.Client) => {
      if (error) lastConnectionFailureAt = Date.now();
      reply(error, client);
    });
  }
}

/**
 * pg-pool applies its one `connectionTimeoutMillis` both to opening a connection and to waiting
 * for a busy pool's free one. Those differ: a connection to a healthy server opens in
 * milliseconds, while under a burst a request may rightly queue behind transactions that each
 * hold a connection for up to a statement's timeout. The connection itself gets the short bound
 * (node-postgres' client honours it); the pool's queue waits as long as one statement may run.
 */
function clientWithConnectTimeout(connectMillis: number): typeof ObservedClient {
  return class extends ObservedClient {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectMillis });
    }
  };
}

async function openPostgres(url: string, timeouts: PostgresTimeouts): Promise<DatabaseHandle> {
  const statementMillis = timeouts.statementSeconds * 1000;
  const pool = new pg.Pool({
    connectionString: url,
    max: timeouts.poolMax,
    Client: clientWithConnectTimeout(timeouts.connectSeconds * 1000),
    connectionTimeoutMillis: statementMillis + CLIENT_GRACE_MS,
    statement_timeout: statementMillis,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionSeconds * 1000,
    query_timeout: statementMillis + CLIENT_GRACE_MS,
  });
  // A connection the server drops (a restart, a failover) emits "error"; unheard, that ends the
  // process. Each connection gets a listener for its whole life, including while a transaction
  // holds it between two queries; the pool's own event repeats it for idle ones. The broken
  // connection is discarded, the request using it fails, and new connections are opened later.
  pool.on("connect", (client) =>
    client.on("error", (error) => {
      lastConnectionFailureAt = Date.now();
      console.error("A database connection was lost:", error.message);
    }),
  );
  pool.on("error", () => {});
  // Fail at boot rather than on the first request when the server is unreachable.
  await pool.query("select 1");
  const db = drizzleNodePg(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    async migrate(afterMigrate) {
      // The advisory lock belongs to one connection, so everything runs on that connection.
      const client = await pool.connect();
      try {
        // Waiting for another process's migrations, and a long migration itself, may take longer
        // than one page's statement: no statement timeout on this connection (it is reset below).
        await client.query("set statement_timeout = 0");
        withoutReadTimeout(client, true);
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        const locked = drizzleNodePg(client, { schema });
        await migrateNodePg(locked, { migrationsFolder });
        await afterMigrate?.(locked as unknown as Database);
      } finally {
        // If the unlock itself fails, the connection is destroyed rather than returned to the pool:
        // closing the session is what frees a session-level advisory lock, so no later start waits
        // on a lock nobody holds any more.
        // `reset` goes back to the statement timeout the connection was opened with.
        const unlockError = await client
          .query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY])
          .then(() => client.query("reset statement_timeout"))
          .then(
            () => undefined,
            (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
          );
        withoutReadTimeout(client, false);
        client.release(unlockError);
      }
    },
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * node-postgres reads the client-side answer timeout of every query from the connection's
 * parameters; the migration connection waits as long as the lock and the migrations take.
 */
function withoutReadTimeout(client: pg.PoolClient, off: boolean): void {
  const parameters = (client as unknown as { connectionParameters: { query_timeout?: number; savedQueryTimeout?: number } }).connectionParameters;
  if (off) {
    parameters.savedQueryTimeout = parameters.query_timeout;
    parameters.query_timeout = undefined;
  } else parameters.query_timeout = parameters.savedQueryTimeout;
}

/**
 * PostgreSQL's own defaults size shared buffers for a server with the machine to itself (128 MB),
 * and the embedded one touches all of them when it starts: that alone was a third of `npm start`'s
 * memory (issue 13). The shop's data is a few megabytes and the data files stay in the operating
 * system's page cache, so 16 MB of buffers cost no measurable speed (docs/decisions/0047). The
 * first start's throwaway initdb instance takes the same parameters. PGlite's own defaults come
 * first; ours override them.
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  "-c",
  "shared_buffers=16MB",
  "-c",
  "work_mem=2MB",
  "-c",
  "maintenance_work_mem=16MB",
  "-c",
  "temp_buffers=2MB",
];

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<DatabaseHandle> {
  // PGlite does not create parent folders of its data directory (stack notes).
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir, loadDataDir, startParams: PGLITE_START_PARAMS });
  const pgliteDb = drizzlePglite(client, { schema });
  const db = pgliteDb as unknown as Database;
  return {
    db,
    kind: "pglite",
    async migrate(afterMigrate) {
      // One embedded database belongs to one process: no lock needed.
      await migratePglite(pgliteDb, { migrationsFolder });
      await afterMigrate?.(db);
    },
    close: () => client.close(),
    dump: () => client.dumpDataDir("none"),
  };
}
