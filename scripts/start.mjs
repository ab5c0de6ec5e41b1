#!/usr/bin/env node
// `npm start`: serves the production build, building it first when it is missing or older than
// the sources (decisions.md, Running). The server migrates and seeds the database on boot.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildIfStale, projectRoot } from "./build-if-stale.mjs";

try {
  buildIfStale();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const port = process.env.PORT || "3000";
const env = { ...process.env, PORT: port };
if (!process.env.NODE_ENV) {
  // No NODE_ENV: a newcomer's `npm start`, the local demo (docs/security.md). The production build
  // still runs as production, with the demo's settings spelled out; a real deployment sets
  // NODE_ENV=production itself and must then give SITE_URL and SESSION_SECRET.
  Object.assign(env, {
    NODE_ENV: "production",
    SITE_URL: process.env.SITE_URL || `http://localhost:${port}`,
    SESSION_SECRET: process.env.SESSION_SECRET || localSecret(),
    SEED_DEMO_DATA: process.env.SEED_DEMO_DATA || "true",
    ALLOW_SANDBOX_PAYMENTS: process.env.ALLOW_SANDBOX_PAYMENTS || "true",
    // WhatsApp messages are written beside the e-mails in the outbox (docs/whatsapp.md).
    WHATSAPP_LOCAL_OUTBOX: process.env.WHATSAPP_LOCAL_OUTBOX || "true",
    // Lines for a person at a terminal; a deployment keeps production's JSON for its log shipper.
    LOG_FORMAT: process.env.LOG_FORMAT || "pretty",
  });
  console.log("Local demo (NODE_ENV is not set): demo accounts, sandbox payments, WhatsApp in the outbox. Set NODE_ENV=production for a real shop.");
}
createEmbeddedDatabaseApart(env);
console.log(`Starting the shop on http://localhost:${port}`);
// The server runs in this same process (issue 13: no second Node kept alive only to start another).
Object.assign(process.env, env);
process.chdir(projectRoot);
await import("./serve.mjs");

/**
 * Issue 13: creating, migrating and seeding a new embedded database takes several hundred MB that
 * the process never returns to the system (PGlite's initdb and WebAssembly memory only grow, and
 * the C allocator keeps what was freed), so a first start used to serve ~150 MB heavier than every
 * later one. A short-lived process does that work and exits (`npm run db:migrate`); the server
 * then opens a ready database. Later starts skip this.
 */
function createEmbeddedDatabaseApart(environment) {
  if (environment.DATABASE_URL) return;
  const dataDir = environment.PGLITE_DATA_DIR || ".data/pglite";
  if (dataDir.startsWith("memory://") || existsSync(path.join(path.resolve(projectRoot, dataDir), "PG_VERSION"))) return;
  console.log("Creating the embedded database…");
  const result = spawnSync(process.execPath, [path.join(projectRoot, "build/cli/migrate.mjs")], { cwd: projectRoot, env: environment, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The same per-machine key `npm run dev` uses (server/config/app-secret.ts), so links survive restarts. */
function localSecret() {
  const file = path.join(projectRoot, ".data/app-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
