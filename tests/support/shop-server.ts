/**
 * Starts the real production server (scripts/serve.mjs on the built app) on a free port, with a
 * database of its own that the server creates, migrates and seeds exactly as on a first start.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { Database } from "@server/db/client";
import type { DatabaseTemplates } from "./database-templates";
import { adminQuery, withDatabase } from "./postgres-admin";

export interface ShopServer {
  baseURL: string;
  /** The local outbox folder this server writes its emails to. */
  outboxDir: string;
  /** Every error the server logs (console.error, uncaught exceptions), one JSON string a line: see server-errors.ts. */
  errorLog: string;
  /** What the server printed, for diagnosing a failed start. */
  output(): string;
  /** SIGTERM, as Ctrl-C or a process manager would; `forced` if it had to be killed after 10 s. */
  stop(): Promise<{ code: number | null; forced: boolean }>;
}

export interface ShopServerOptions {
  seed?: boolean;
  env?: Record<string, string>;
  /**
   * Start on a copy of the run's template database (global-setup.ts: `inject("databaseTemplates")`)
   * instead of one the server creates, migrates and seeds itself: about 5 s less per server. The
   * server still runs its start-up seeding, which finds everything there. Not for a test of a first
   * start (server-lifecycle.test.ts).
   */
  templates?: DatabaseTemplates;
}

/**
 * A copy of a template's data folder for a server's database. The system's `cp` (~0.15 s for its
 * ~1 400 files) rather than Node's `fs.cp`, which took ~0.9 s walking them one promise at a time.
 */
export async function copyDataFolder(template: string, dataDir: string): Promise<void> {
  await promisify(execFile)("cp", ["-R", template, dataDir]);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * A database for a shop server: a copy of the run's seeded (or, with `seed: false`, empty) template,
 * or with no templates an empty one the server creates, migrates and seeds on its first start. For
 * the files that stop and restart a server on the same data, or write to it before it starts.
 */
export async function createShopDatabase({ seed = true, templates }: { seed?: boolean; templates?: DatabaseTemplates } = {}): Promise<{
  env: Record<string, string>;
  drop(): Promise<void>;
}> {
  const adminUrl = process.env.DATABASE_URL;
  const template = templates ? templates[seed ? "seeded" : "empty"] : undefined;
  if (adminUrl) {
    const name = `shop_e2e_${randomBytes(5).toString("hex")}`;
    await adminQuery(adminUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
    return { env: { DATABASE_URL: withDatabase(adminUrl, name) }, drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`) };
  }
  const dir = await mkdtemp(path.join(tmpdir(), "shop-e2e-"));
  const dataDir = path.join(dir, "pglite");
  // A copy of the template's closed data folder; without one the server creates its own.
  if (templates?.kind === "pglite") await copyDataFolder(templates[seed ? "seededDir" : "emptyDir"], dataDir);
  return { env: { PGLITE_DATA_DIR: dataDir }, drop: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Opens a shop database made by createShopDatabase from the test's own process: before its server
 * starts or after it stopped (the embedded database has one owner at a time).
 */
export async function openShopDatabase(env: Record<string, string>) {
  const { openDatabase } = await import("@server/db/client");
  return openDatabase(env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL } : { kind: "pglite", dataDir: env.PGLITE_DATA_DIR! });
}

/** A copy of the seeded template, `prepare`d (migrated, then the test's own rows written), ready for a server. */
export async function preparedShopDatabase(templates: DatabaseTemplates, prepare: (db: Database) => Promise<void>) {
  const database = await createShopDatabase({ templates });
  const handle = await openShopDatabase(database.env);
  try {
    await handle.migrate(prepare);
  } finally {
    await handle.close();
  }
  return database;
}

export async function startShopServer({ seed = true, env = {}, templates }: ShopServerOptions = {}): Promise<ShopServer> {
  const root = process.cwd();
  const port = await freePort();
  const cleanups: (() => Promise<void>)[] = [];

  const outboxParent = await mkdtemp(path.join(tmpdir(), "shop-outbox-"));
  const outboxDir = path.join(outboxParent, "outbox");
  const errorLog = path.join(outboxParent, "errors.jsonl");
  cleanups.push(() => rm(outboxParent, { recursive: true, force: true }));

  // A database the caller made (createShopDatabase) is the caller's to drop.
  let databaseEnv: Record<string, string> = {};
  if (!env.DATABASE_URL && !env.PGLITE_DATA_DIR) {
    const database = await createShopDatabase({ seed, templates });
    databaseEnv = database.env;
    cleanups.push(database.drop);
  }

  const baseURL = `http://127.0.0.1:${port}`;
  const errorTap = pathToFileURL(path.join(root, "tests/support/server-error-tap.mjs")).href;
  const child = spawn(process.execPath, ["--import", errorTap, path.join(root, "scripts/serve.mjs")], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      // Production as deployed (docs/security.md), with the test shop's own origin and key; the
      // sandbox is allowed explicitly, as a staging site would.
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: baseURL,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      ALLOW_SANDBOX_PAYMENTS: "true",
      SEED_DEMO_DATA: seed ? "true" : "false",
      SEED_BASE_DATA: seed ? "true" : "false",
      OUTBOX_DIR: outboxDir,
      UPLOADS_DIR: path.join(outboxParent, "uploads"),
      SHOP_ERROR_LOG: errorLog,
      // An hour, as good as never within a test: what a request queues is sent when its answer is out
      // (server/jobs/scheduler.ts), so a test that waits for an e-mail proves that, not a timer.
      JOBS_INTERVAL_SECONDS: "3600",
      // Every browser test comes from 127.0.0.1: one "client" for the per-client limits.
      CLIENT_RATE_LIMIT_FACTOR: "100",
      // One line per request would bury the errors a failing test prints; tests that read the log turn it on.
      LOG_REQUESTS: "false",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      ...databaseEnv,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));

  try {
    await waitUntilServing(baseURL, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    for (const cleanup of cleanups) await cleanup();
    throw error;
  }

  return {
    baseURL,
    outboxDir,
    errorLog,
    output: () => output,
    async stop() {
      const result = await stopProcess(child);
      for (const cleanup of cleanups) await cleanup();
      return result;
    },
  };
}

/** Readiness is the server answering a real page, polled against a deadline. */
async function waitUntilServing(baseURL: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The shop server exited during start:\n${output()}`);
    try {
      const response = await fetch(`${baseURL}/robots.txt`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The shop server did not start in 90 s:\n${output()}`);
}

async function stopProcess(child: ChildProcess): Promise<{ code: number | null; forced: boolean }> {
  if (child.exitCode !== null) return { code: child.exitCode, forced: false };
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let forced = false;
  child.kill("SIGTERM");
  const timer = setTimeout(() => {
    forced = true;
    child.kill("SIGKILL");
  }, 10_000);
  const code = await exited;
  clearTimeout(timer);
  return { code, forced };
}
