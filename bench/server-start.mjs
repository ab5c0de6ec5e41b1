#!/usr/bin/env node
// How long the production server takes to start on a database that is already there, as a deploy's
// restart and every browser/reliability test file's own server do: spawning `node scripts/serve.mjs`
// on a fresh copy of a seeded embedded data folder, until it listens (/healthz answers), until the
// first page answers 200 (/robots.txt, which waits for the database to be opened, migrated and
// seeded) and until /readyz says ready. Runs alternate between the shop roots given (before/after
// builds), each on its own copy of one template; medians per root. start-memory.mjs measures a
// first start's memory (npm start, a new database), not this.
//
//   node bench/server-start.mjs [--runs=5] [--node-flags="--wasm-lazy-compilation"] [shop-root ...]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { spawnShop } from "./lib/server.mjs";

const options = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith("--"))
    .map((arg) => arg.slice(2).split(/=(.*)/s, 2)),
);
const roots = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
if (roots.length === 0) roots.push(path.resolve(import.meta.dirname, ".."));
const templateRoot = /** @type {string} */ (roots[0]);
const runs = Number(options.runs ?? 5);
const nodeFlags = (options["node-flags"] ?? "").split(" ").filter(Boolean);
const work = mkdtempSync(path.join(tmpdir(), "bench-start-"));

/** The server's environment beside spawnShop's (production, demo data, sandbox): a test server's. */
const settings = (dataDir, run) => ({
  PGLITE_DATA_DIR: dataDir,
  SEED_BASE_DATA: "true",
  OUTBOX_DIR: path.join(work, `outbox-${run}`),
  UPLOADS_DIR: path.join(work, `uploads-${run}`),
  JOBS_INTERVAL_SECONDS: "3600",
  LOG_REQUESTS: "false",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
});

async function answers(url) {
  return fetch(url, { signal: AbortSignal.timeout(60_000) })
    .then(async (response) => (await response.arrayBuffer(), response.status === 200))
    .catch(() => false);
}

/** Milliseconds from `since` until `url` answers 200, asked every `everyMs`. */
async function until(url, since, everyMs, shop) {
  for (;;) {
    if (await answers(url)) return Math.round(performance.now() - since);
    if (shop.child.exitCode !== null) throw new Error(`The server exited:\n${shop.logs.join("")}`);
    await sleep(everyMs);
  }
}

async function startOnce(root, dataDir, run) {
  const started = performance.now();
  const shop = await spawnShop({
    root,
    command: process.execPath,
    args: [...nodeFlags, path.join(root, "scripts/serve.mjs")],
    dataDirPrefix: path.join(work, "unused-"),
    env: settings(dataDir, run),
  });
  try {
    const listening = await until(`${shop.origin}/healthz`, started, 10, shop);
    const [firstPage, ready] = await Promise.all([until(`${shop.origin}/robots.txt`, started, 10, shop), until(`${shop.origin}/readyz`, started, 20, shop)]);
    return { listening, firstPage, ready };
  } finally {
    await shop.stop();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
};

// The template: one first start (create, migrate, seed with the demo data), stopped cleanly.
const template = path.join(work, "template");
{
  const shop = await spawnShop({
    root: templateRoot,
    command: process.execPath,
    args: [path.join(templateRoot, "scripts/serve.mjs")],
    dataDirPrefix: path.join(work, "unused-"),
    env: settings(template, "template"),
  });
  await shop.ready({ path: "/robots.txt", timeoutMs: 120_000 });
  await shop.stop();
}

const loadBefore = loadavg();
/** @type {Map<string, { listening: number; firstPage: number; ready: number }[]>} */
const results = new Map(roots.map((root) => [root, []]));
for (let run = 0; run < runs; run++) {
  for (const [index, root] of roots.entries()) {
    const dataDir = path.join(work, `run-${run}-${index}`);
    // The system's cp, as the tests copy their template (tests/support/shop-server.ts).
    execFileSync("cp", ["-R", template, dataDir]);
    const result = await startOnce(root, dataDir, run);
    results.get(root)?.push(result);
    console.error(JSON.stringify({ root, run, ...result }));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const loadAfter = loadavg();
rmSync(work, { recursive: true, force: true });

for (const [root, samples] of results) {
  const of = (key) => samples.map((sample) => sample[key]);
  console.log(
    JSON.stringify({
      root,
      runs: samples.length,
      nodeFlags,
      medianMs: { listening: median(of("listening")), firstPage: median(of("firstPage")), ready: median(of("ready")) },
      firstPageMs: of("firstPage"),
    }),
  );
}
console.log(JSON.stringify({ loadAverage: { before: loadBefore.map((n) => n.toFixed(2)), after: loadAfter.map((n) => n.toFixed(2)) } }));
