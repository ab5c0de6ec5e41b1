#!/usr/bin/env node
// `npm start`: serves the production build, building it first when it is missing or older than
// the sources (decisions.md, Running). The server migrates and seeds the database on boot.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const buildEntry = path.join(root, "build/server/index.js");
const sources = ["app", "server", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stats.mtimeMs);
}

const builtAt = existsSync(buildEntry) ? statSync(buildEntry).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
if (builtAt < sourcesAt) {
  console.log(builtAt === 0 ? "No production build yet: building…" : "Sources changed since the last build: rebuilding…");
  const build = spawnSync(path.join(root, "node_modules/.bin/react-router"), ["build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = process.env.PORT || "3000";
console.log(`Starting the shop on http://localhost:${port}`);
const server = spawn(path.join(root, "node_modules/.bin/react-router-serve"), [buildEntry], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV || "production", PORT: port },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
