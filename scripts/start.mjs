#!/usr/bin/env node
// `npm start`: serves the production build, building it first when it is missing or older than
// the sources (decisions.md, Running). The server migrates and seeds the database on boot.
import { spawn } from "node:child_process";
import path from "node:path";
import { buildIfStale, projectRoot } from "./build-if-stale.mjs";

try {
  buildIfStale();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const port = process.env.PORT || "3000";
console.log(`Starting the shop on http://localhost:${port}`);
const server = spawn(process.execPath, [path.join(projectRoot, "scripts/serve.mjs")], {
  cwd: projectRoot,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV || "production", PORT: port },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
