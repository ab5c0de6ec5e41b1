/**
 * The real production server (scripts/serve.mjs on the built app) as a process the reliability
 * tests may kill, restart on the same database, or run twice on one PostgreSQL. Unlike
 * `startShopServer`, the database is made by the test, outlives the process, and can be read by
 * the test (a PostgreSQL database at any time; an embedded one only while no server holds it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "@server/db/client";
import { checkoutInput } from "./checkout-fixture";
import { startCulqiMock, type CulqiMock } from "./culqi-mock";
import { copyDataFolder, freePort } from "./shop-server";
import { adminQuery, withDatabase } from "./test-database";

export interface ShopDatabase {
  kind: "postgres" | "pglite";
  /** What a server process needs to use this database. */
  env: Record<string, string>;
  /** Opens the database in the test process (embedded: only while no server has it open). */
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

/** A copy of the seeded template, on the engine of this run, that a server process can open. */
export async function createShopDatabase(): Promise<ShopDatabase> {
  const templates = inject("databaseTemplates");
  if (templates.kind === "postgres") {
    const name = `shop_rel_${randomBytes(5).toString("hex")}`;
    await adminQuery(templates.adminUrl, `create database ${name} template ${templates.seeded}`);
    const url = withDatabase(templates.adminUrl, name);
    return {
      kind: "postgres",
      env: { DATABASE_URL: url },
      open: () => openDatabase({ kind: "postgres", url }),
      drop: () => adminQuery(templates.adminUrl, `drop database if exists ${name} with (force)`),
    };
  }
  const dir = await mkdtemp(path.join(tmpdir(), "shop-rel-"));
  const dataDir = path.join(dir, "pglite");
  // A copy of the seeded template's closed data folder (database-templates.ts).
  await copyDataFolder(templates.seededDir, dataDir);
  return {
    kind: "pglite",
    env: { PGLITE_DATA_DIR: dataDir },
    open: () => openDatabase({ kind: "pglite", dataDir }),
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface ShopProcess {
  baseURL: string;
  outboxDir: string;
  output(): string;
  /** Whether the process is still alive (it never exited or crashed). */
  running(): boolean;
  /** SIGKILL: no shutdown handler runs, open requests and transactions die with the process. */
  kill(): Promise<void>;
  /** SIGTERM, as a process manager stops it. */
  stop(): Promise<number | null>;
}

export interface ShopProcessOptions {
  database: ShopDatabase;
  env?: Record<string, string>;
  /** Several processes of one shop share an outbox folder, as they would share a mail server. */
  outboxDir?: string;
}

/** One key for every shop process of the test run, as the processes of one deployment share it. */
const SHARED_SESSION_SECRET = randomBytes(32).toString("hex");

export async function startShopProcess({ database, env = {}, outboxDir }: ShopProcessOptions): Promise<ShopProcess> {
  const root = process.cwd();
  const port = await freePort();
  const outbox = outboxDir ?? path.join(await mkdtemp(path.join(tmpdir(), "shop-rel-outbox-")), "outbox");
  const child = spawn(process.execPath, [path.join(root, "scripts/serve.mjs")], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      // Production as deployed (docs/security.md): the shop's origin, one key every process of the
      // shop shares (sessions work across them), and the sandbox allowed as on a staging site.
      SITE_URL: `http://127.0.0.1:${port}`,
      SESSION_SECRET: SHARED_SESSION_SECRET,
      ALLOW_SANDBOX_PAYMENTS: "true",
      SEED_DEMO_DATA: "false",
      OUTBOX_DIR: outbox,
      UPLOADS_DIR: path.join(path.dirname(outbox), "uploads"),
      // The tests run the jobs themselves, when the scenario says so.
      JOBS_INTERVAL_SECONDS: "0",
      CLIENT_RATE_LIMIT_FACTOR: "100",
      // One line per request would bury the errors a failing test prints; tests that read the log turn it on.
      LOG_REQUESTS: "false",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      // Pages are read straight after writes: no reuse of a page rendered before.
      PAGE_CACHE_SECONDS: "0",
      ...database.env,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(baseURL, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    baseURL,
    outboxDir: outbox,
    output: () => output,
    running: () => child.exitCode === null && child.signalCode === null,
    kill: () => endProcess(child, "SIGKILL"),
    stop: async () => {
      await endProcess(child, "SIGTERM");
      return child.exitCode;
    },
  };
}

async function waitUntilServing(baseURL: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The shop server exited during start:\n${output()}`);
    try {
      if ((await fetch(`${baseURL}/robots.txt`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`The shop server did not start in 90 s:\n${output()}`);
}

async function endProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = signal === "SIGKILL" ? undefined : setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * One `npm run jobs:run` against the database, as a scheduler would run it: the bundled command of
 * the production build (build/cli, plain Node, no dev tools), built by the global setup. Its JSON report.
 */
export async function runJobsOnce(database: ShopDatabase, env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const root = process.cwd();
  const child = spawn(process.execPath, [path.join(root, "build/cli/jobs.mjs")], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      SITE_URL: "http://shop.test",
      SESSION_SECRET: SHARED_SESSION_SECRET,
      ALLOW_SANDBOX_PAYMENTS: "true",
      SEED_DEMO_DATA: "false",
      ...database.env,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => (stdout += chunk));
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`jobs:run exited with ${code}:\n${stdout}\n${stderr}`);
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
}

/** A valid guest checkout for the first Wednesday offered in Miraflores, as the checkout form posts it. */
export function checkoutBody(overrides: Record<string, unknown> = {}) {
  return { ...checkoutInput(new Date(), overrides), checkoutKey: (overrides.checkoutKey as string | undefined) ?? randomUUID() };
}

/** Posts the checkout as the browser does; the answer is the redirect to the payment page. */
export async function postCheckout(baseURL: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${baseURL}/checkout`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseURL },
    body: JSON.stringify(body),
    redirect: "manual",
  });
}

/** Presses a button of the sandbox payment page ("Simular pago exitoso" is approve_card). */
export async function postSandboxAction(
  baseURL: string,
  paymentPath: string,
  intent: "approve_card" | "decline_card" | "issue_code" | "pay_code",
): Promise<Response> {
  return fetch(`${baseURL}${paymentPath}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseURL },
    body: new URLSearchParams({ intent }).toString(),
    redirect: "manual",
  });
}

/**
 * Reads the shop's books from the test while a server runs on them: directly on PostgreSQL; the
 * embedded database belongs to one process, so there the server is stopped around the read and a
 * new one started on the same database afterwards (the holder then points at the new one).
 */
export async function readBooks<T>(
  holder: { server: ShopProcess | undefined; restart: () => Promise<ShopProcess> },
  database: ShopDatabase,
  read: (db: DatabaseHandle["db"]) => Promise<T>,
): Promise<T> {
  if (database.kind === "pglite") {
    await holder.server?.stop();
    holder.server = undefined;
  }
  const handle = await database.open();
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
    if (database.kind === "pglite") holder.server = await holder.restart();
  }
}

/**
 * A shop process paying through the local Culqi, for one test file: Culqi, the database and the
 * server start before its tests and stop after them. `restart` starts a new server on the same
 * database and Culqi (after a kill, say).
 */
export function culqiShopForFile(webhookAuth: string) {
  const shop = {
    culqi: undefined as unknown as CulqiMock,
    database: undefined as unknown as ShopDatabase,
    server: undefined as ShopProcess | undefined,
    restart: () =>
      startShopProcess({
        database: shop.database,
        env: {
          CULQI_PUBLIC_KEY: shop.culqi.publicKey,
          CULQI_SECRET_KEY: shop.culqi.secretKey,
          CULQI_API_BASE: shop.culqi.apiBase,
          CULQI_WEBHOOK_AUTH: webhookAuth,
        },
      }),
    baseURL: () => shop.server!.baseURL,
  };
  beforeAll(async () => {
    shop.culqi = await startCulqiMock();
    shop.database = await createShopDatabase();
    shop.server = await shop.restart();
  });
  afterAll(async () => {
    await shop.server?.kill();
    await shop.database?.drop();
    await shop.culqi?.close();
  });
  return shop;
}
