#!/usr/bin/env node
// `npm start`: serves the production build, building it first when it is missing or older than
// the sources (decisions.md, Running). The server migrates and seeds the database on boot.
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
  });
  console.log("Local demo (NODE_ENV is not set): demo accounts, sandbox payments. Set NODE_ENV=production for a real shop.");
}
console.log(`Starting the shop on http://localhost:${port}`);
// The server runs in this same process (issue 13: no second Node kept alive only to start another).
Object.assign(process.env, env);
process.chdir(projectRoot);
await import("./serve.mjs");

/** The same per-machine key `npm run dev` uses (server/config/app-secret.ts), so links survive restarts. */
function localSecret() {
  const file = path.join(projectRoot, ".data/app-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
