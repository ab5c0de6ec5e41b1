#!/usr/bin/env node
// Benchmark of the shop's production build: Lighthouse mobile, first-load JavaScript and server
// latency/throughput. Run from bench/ with `npm run bench`, or from the repository root with
// `npm --prefix bench run bench` (after `npm --prefix bench install`).
//
// Flags:
//   --quick     1 Lighthouse run per page and short load runs, for checking the script itself;
//               results go to bench/.tmp/RESULTS.quick.md so RESULTS.md only ever holds full runs.
//   --only=lighthouse,js,load   run a subset (also written to bench/.tmp, never to RESULTS.md).
//   --rebuild   run `npm run build` first even when build/ is current.
//   --no-build  measure build/ as it is, even if stale or a development build (still reported).
//               By default build/ is rebuilt when missing, older than the sources, carrying
//               development React (a build made under NODE_ENV=test, e.g. by the test suite), or
//               when its server half refers to client assets that are not there.
//
// Numbers are only meaningful on an otherwise idle machine: Lighthouse's simulated throttling
// scales with the host CPU and the load test shares the same cores as the server. The load
// average at start is recorded so a disturbed run can be recognised afterwards.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { auditPage } from "./lib/lighthouse.mjs";
import { measureFirstLoadJs } from "./lib/first-load-js.mjs";
import { measureCheckout } from "./lib/checkout.mjs";
import { measureServer } from "./lib/load.mjs";
import { buildFingerprint, ensureBuild, startServer } from "./lib/server.mjs";
import { renderResults, GENERATED_START, DEFAULT_INTRO } from "./lib/report.mjs";

const BENCH_DIR = import.meta.dirname;
const ROOT = path.resolve(BENCH_DIR, "..");
const TMP_DIR = path.join(BENCH_DIR, ".tmp");
const CHROME_PATH = process.env.CHROME_PATH || "/usr/bin/chromium";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const onlyArg = args.find((arg) => arg.startsWith("--only="));
const only = onlyArg ? new Set(onlyArg.slice("--only=".length).split(",")) : null;
const wants = (part) => !only || only.has(part);
const partial = quick || Boolean(only);

const PAGES = [
  { slug: "home", path: "/" },
  { slug: "tienda", path: "/tienda" },
  { slug: "producto", path: "/tienda/producto/agua-alcalina-personal-625ml" },
  // Public and cached like the others, with the organisation votes (decision 0022).
  { slug: "nosotros", path: "/nosotros" },
];
// The load test covers the two pages every visitor funnel goes through; both are rendered on the
// server for every request, so they show the server's real per-request cost.
const LOAD_PATHS = ["/", "/tienda"];

const SETTINGS = quick
  ? { lighthouseRuns: 1, load: { warmupS: 1, lightRate: 10, lightS: 2, fixedRate: 100, fixedS: 3, fixedConnections: 10, maxConnections: 10, maxS: 3 } }
  : { lighthouseRuns: 3, load: { warmupS: 3, lightRate: 10, lightS: 10, fixedRate: 100, fixedS: 20, fixedConnections: 10, maxConnections: 10, maxS: 15 } };

function commandOutput(command, commandArgs, options = {}) {
  try {
    return execFileSync(command, commandArgs, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], ...options }).trim();
  } catch {
    return "unknown";
  }
}

function machineInfo() {
  const cpus = os.cpus();
  let commit = commandOutput("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT });
  if (commit !== "unknown" && commandOutput("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT })) commit += " (with uncommitted changes)";
  return {
    cpuModel: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    // Debian's /usr/bin/chromium is a wrapper script that prints a harmless shell warning on
    // stderr; only stdout carries the version.
    chromium: commandOutput(CHROME_PATH, ["--version"]),
    loadAverageAtStart: os.loadavg().map((value) => Math.round(value * 100) / 100),
    commit,
  };
}

/**
 * Before measuring: every page answers 200 and every script or stylesheet it references loads.
 * Catches a server and client from different builds, which would otherwise produce flattering
 * numbers (no JavaScript to run) rather than an error.
 */
async function preflight(origin) {
  for (const page of PAGES) {
    const response = await fetch(origin + page.path, { signal: AbortSignal.timeout(10_000) });
    const html = await response.text();
    if (response.status !== 200) throw new Error(`Preflight: ${page.path} answered ${response.status}`);
    const assets = new Set(html.match(/\/assets\/[\w.-]+\.(?:js|css)/g) ?? []);
    if (assets.size === 0) throw new Error(`Preflight: ${page.path} references no /assets/ files`);
    for (const asset of assets) {
      const assetResponse = await fetch(origin + asset, { signal: AbortSignal.timeout(10_000) });
      await assetResponse.arrayBuffer();
      if (assetResponse.status !== 200) throw new Error(`Preflight: ${asset} (from ${page.path}) answered ${assetResponse.status}; is build/ inconsistent?`);
    }
  }
}

async function main() {
  mkdirSync(TMP_DIR, { recursive: true });
  const startedAt = new Date();
  const machine = machineInfo();
  console.log(`Machine: ${machine.cpuModel}, ${machine.cores} cores, load average ${machine.loadAverageAtStart.join(" ")}`);

  const build = ensureBuild(ROOT, { force: args.includes("--rebuild"), skip: args.includes("--no-build") });
  if (build.stale) console.warn("Warning: measuring a build/ older than the sources (--no-build).");
  if (build.development) console.warn("Warning: measuring a build/ with development React (--no-build).");

  const fingerprint = buildFingerprint(ROOT);
  const server = await startServer({ root: ROOT, tmpDir: TMP_DIR });
  console.log(`Server ready at ${server.origin} (pid ${server.pid})`);
  // Ctrl-C must not leave a server holding a port and a temp database behind; it exits even if stopping fails.
  const interrupt = () => void server.stop().finally(() => process.exit(130));
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);

  const results = {
    startedAt: startedAt.toISOString(),
    machine,
    build: { builtAt: build.builtAt.toISOString(), stale: build.stale, development: build.development, rebuilt: build.rebuilt },
    settings: SETTINGS,
    quick,
  };
  try {
    await preflight(server.origin);
    if (wants("lighthouse")) {
      console.log(`Lighthouse (mobile, ${SETTINGS.lighthouseRuns} run(s) per page)…`);
      results.lighthouse = [];
      for (const page of PAGES) {
        const summary = await auditPage(server.origin + page.path, {
          runs: SETTINGS.lighthouseRuns,
          chromePath: CHROME_PATH,
          saveDir: path.join(TMP_DIR, "lighthouse"),
          slug: page.slug,
        });
        results.lighthouse.push({ path: page.path, ...summary });
      }
    }
    if (wants("js")) {
      console.log("First-load JavaScript…");
      const measured = await measureFirstLoadJs(
        PAGES.map((page) => server.origin + page.path),
        { chromePath: CHROME_PATH },
      );
      results.firstLoadJs = measured.map((entry, index) => ({ ...entry, path: PAGES[index]?.path }));
    }
    if (wants("load")) {
      console.log("Server latency and throughput…");
      results.server = await measureServer(server.origin, LOAD_PATHS, SETTINGS.load);
    }
    // Last: it writes hundreds of orders into this run's throwaway database.
    if (wants("checkout")) {
      console.log("Checkout submission…");
      results.checkout = await measureCheckout(server.origin, quick ? { sequential: 5, concurrentS: 2 } : {});
      console.log(
        `  sequential p50 ${results.checkout.sequential.p50} ms, p95 ${results.checkout.sequential.p95} ms; ${results.checkout.concurrent.ordersPerSecond} orders/s with ${results.checkout.concurrent.connections} connections`,
      );
    }
  } finally {
    await server.stop();
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
  results.finishedAt = new Date().toISOString();
  // The server loaded its code at start, but it serves client assets from disk all along: if
  // build/ was replaced meanwhile, part of what we measured was another build. Don't report it.
  if (buildFingerprint(ROOT) !== fingerprint) {
    writeFileSync(path.join(TMP_DIR, "results.discarded.json"), JSON.stringify(results, null, 2));
    throw new Error(
      "build/ changed during the run (rebuilt by someone else?); results discarded to bench/.tmp/results.discarded.json. Re-run on a quiet machine.",
    );
  }

  writeFileSync(path.join(TMP_DIR, partial ? "results.partial.json" : "results.json"), JSON.stringify(results, null, 2));
  // A full run replaces the generated part of RESULTS.md and keeps whatever intro precedes it.
  const target = partial ? path.join(TMP_DIR, "RESULTS.quick.md") : path.join(BENCH_DIR, "RESULTS.md");
  const existing = existsSync(path.join(BENCH_DIR, "RESULTS.md")) ? readFileSync(path.join(BENCH_DIR, "RESULTS.md"), "utf8") : "";
  const intro = existing.includes(GENERATED_START) ? existing.slice(0, existing.indexOf(GENERATED_START)).trimEnd() : DEFAULT_INTRO;
  writeFileSync(target, `${intro}\n\n${renderResults(results)}`);
  console.log(`Wrote ${path.relative(ROOT, target)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
