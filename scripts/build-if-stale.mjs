// Builds the production bundle when it is missing or older than the sources; shared by
// `npm start` and the browser tests so neither ever serves stale code.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const projectRoot = path.resolve(import.meta.dirname, "..");
export const buildEntry = path.join(projectRoot, "build/server/index.js");
const sources = [
  "app",
  "server",
  "core",
  "public",
  "scripts/driver-app",
  "scripts/build-driver-app.mjs",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stats.mtimeMs);
}

/** When build/ was made (0 if never) and whether any source is newer. */
export function buildState() {
  // The operator commands (build/cli, scripts/build-cli.mjs) and the driver app's service worker
  // (scripts/build-driver-app.mjs) are part of the build: missing ones make it stale.
  const outputs = [
    buildEntry,
    ...["migrate", "jobs", "media-migrate"].map((name) => path.join(projectRoot, "build/cli", `${name}.mjs`)),
    path.join(projectRoot, "build/client/reparto-sw.js"),
  ];
  const builtAt = outputs.every((output) => existsSync(output)) ? Math.min(...outputs.map((output) => statSync(output).mtimeMs)) : 0;
  const sourcesAt = Math.max(...sources.map((source) => newestMtime(path.join(projectRoot, source))));
  return { builtAt, stale: sourcesAt > builtAt };
}

export function buildIfStale({ quiet = false } = {}) {
  const { builtAt, stale } = buildState();
  if (!stale) return;
  if (!quiet) console.log(builtAt === 0 ? "No production build yet: building…" : "Sources changed since the last build: rebuilding…");
  const build = spawnSync(path.join(projectRoot, "node_modules/.bin/react-router"), ["build"], {
    cwd: projectRoot,
    stdio: quiet ? "pipe" : "inherit",
    // Vitest runs with NODE_ENV=test, which would make Vite bundle development React.
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (build.status !== 0) {
    if (quiet) process.stderr.write(Buffer.concat([build.stdout, build.stderr]));
    throw new Error("The production build failed");
  }
  const cli = spawnSync(process.execPath, [path.join(projectRoot, "scripts/build-cli.mjs")], { cwd: projectRoot, stdio: quiet ? "pipe" : "inherit" });
  if (cli.status !== 0) {
    if (quiet) process.stderr.write(Buffer.concat([cli.stdout, cli.stderr]));
    throw new Error("The build of the operator commands failed");
  }
  // After React Router has written the whole client build (decision 0079).
  const driverApp = spawnSync(process.execPath, [path.join(projectRoot, "scripts/build-driver-app.mjs")], {
    cwd: projectRoot,
    stdio: quiet ? "pipe" : "inherit",
  });
  if (driverApp.status !== 0) {
    if (quiet) process.stderr.write(Buffer.concat([driverApp.stdout, driverApp.stderr]));
    throw new Error("The build of the driver app's service worker failed");
  }
}
