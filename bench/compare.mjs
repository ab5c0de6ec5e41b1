#!/usr/bin/env node
// Issue 13: the shop beside a bare React Router page (bench/bare-rr), measured in the same run
// and interleaved (shop, bare, shop, bare…), so that on a busy 2-core machine each ratio compares
// two servers that saw the same noise. Both are started the way an operator starts them, with
// `npm start`, and every process that starts (npm, its shell, the starter, the server) is sampled
// for memory. See bench/README.md.
//
//   node bench/compare.mjs                         # everything below except checkout
//   node bench/compare.mjs --only=load,memory      # a subset: load, js, lighthouse
//   scripts/with-throwaway-postgres.sh node bench/compare.mjs --only=checkout
//   node bench/compare.mjs --shop-root=/tmp/before --label=before   # another checkout's build
//   node bench/compare.mjs --record --before=bench/.tmp/compare-before.json   # write RESULTS.md
//   node bench/compare.mjs --only=lighthouse --via-nginx   # both behind production's nginx (TLS, HTTP/2)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { measureCheckout } from "./lib/checkout.mjs";
import { measureFirstLoadJs } from "./lib/first-load-js.mjs";
import { auditPage, CHROME_FLAGS } from "./lib/lighthouse.mjs";
import { autocannonRun, HEADERS } from "./lib/load.mjs";
import { parseFlags } from "./lib/flags.mjs";
import { startNginxFront } from "./lib/nginx-front.mjs";
import { ensureBuild, signInDemoAccount, signInDemoCustomer, spawnShop } from "./lib/server.mjs";
import { renderComparison, replaceComparison } from "./lib/compare-report.mjs";

const benchDir = import.meta.dirname;
const args = parseFlags();
const shopRoot = path.resolve(String(args["shop-root"] ?? path.join(benchDir, "..")));
const bareRoot = path.join(benchDir, "bare-rr");
const label = String(args.label ?? "after");
const only = new Set(String(args.only ?? "load,memory,js,lighthouse").split(","));
const rounds = Number(args.rounds ?? 3);
const seconds = Number(args.seconds ?? 8);
const lighthouseRuns = Number(args["lighthouse-runs"] ?? 3);
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const tmpDir = path.join(benchDir, ".tmp");
mkdirSync(tmpDir, { recursive: true });
const PRODUCT = "/tienda/producto/agua-alcalina-personal-625ml";
const SHOP_PAGES = args.pages ? String(args.pages).split(",") : ["/", "/tienda", PRODUCT, "/nosotros", "/carrito"];
// /carrito is measured with one line in the cart (a demo product, S/ 59.90): an empty cart leaves for
// /tienda before painting (decision 0054), so without a cart it would measure /tienda again. The line
// is the browser tests' own stored cart line (tests/fixtures/box-cart-line.json), so both follow the
// seeded catalogue together.
const CART_PAGE_STORAGE = {
  "va-cart:v1": JSON.stringify([JSON.parse(readFileSync(path.join(benchDir, "../tests/fixtures/box-cart-line.json"), "utf8"))]),
};
// /checkout too: with an empty cart it leaves for /tienda once hydrated (issue 26 measures its first load).
const storageFor = (url) => (["/carrito", "/checkout"].includes(new URL(url).pathname) ? CART_PAGE_STORAGE : null);
// Checkout shows its form only once hydrated ("Cargando tu pedido…" before): measured from then.
const readyFor = (url) => (new URL(url).pathname === "/checkout" ? "#contenido form" : null);
// Pages measured signed in (`--pages=/admin/reparto`: the driver app of issue 26, as the demo repartidor).
const SIGNED_IN_PAGES = { "/admin/reparto": { email: "repartidor@demo.pe", password: "Reparto1234" } };
/** @type {Record<string, string>} */
const sessions = {};
const cookieFor = (url) => sessions[new URL(url).pathname] ?? null;

if (args.record) {
  const after = JSON.parse(readFileSync(path.join(tmpDir, "compare-after.json"), "utf8"));
  const before = args.before ? JSON.parse(readFileSync(String(args.before), "utf8")) : null;
  const file = path.join(benchDir, "RESULTS.md");
  writeFileSync(file, replaceComparison(readFileSync(file, "utf8"), renderComparison(after, before)));
  console.log(`Wrote the comparison into ${file}`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Processes and their memory

/** Every process below `pid` (npm → sh → node …), read from /proc. */
function processTree(pid) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  const all = [];
  const visit = (id) => {
    all.push(id);
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return all;
}

function processInfo(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    // utime + stime, in clock ticks (100 per second on Linux).
    return { pid, rssKb: kb("VmRSS"), hwmKb: kb("VmHWM"), cpuTicks: Number(fields[11]) + Number(fields[12]), command };
  } catch {
    return null;
  }
}

/** Samples the RSS of a process tree every 100 ms; `peak()` since the last `reset()`. */
function memorySampler(rootPid) {
  let peakTotal = 0;
  const peaks = new Map();
  const sample = () => {
    let total = 0;
    for (const info of processTree(rootPid).map(processInfo)) {
      if (!info) continue;
      total += info.rssKb;
      const name = describe(info.command);
      peaks.set(name, Math.max(peaks.get(name) ?? 0, info.rssKb));
    }
    peakTotal = Math.max(peakTotal, total);
  };
  const timer = setInterval(sample, 100);
  return {
    sample,
    reset() {
      peakTotal = 0;
      peaks.clear();
    },
    peak: () => ({ totalMb: Math.round(peakTotal / 1024), processes: Object.fromEntries([...peaks].map(([name, kb]) => [name, Math.round(kb / 1024)])) }),
    stop: () => clearInterval(timer),
  };
}

function describe(command) {
  if (/npm-cli\.js|\bnpm\b/.test(command) && !/scripts\/|serve\.mjs/.test(command)) return "npm (the `npm start` wrapper)";
  if (/^(\/bin\/)?sh -c/.test(command)) return "sh -c (npm's script shell)";
  if (/scripts\/start\.mjs/.test(command)) return "node scripts/start.mjs (starter + server)";
  if (/scripts\/serve\.mjs|serve\.mjs/.test(command)) return "node serve.mjs (server)";
  // The first start's migration process: named by its path in the checkout, never by this machine's.
  if (/build\/cli\/migrate\.mjs/.test(command)) return "node build/cli/migrate.mjs (migrations)";
  return command.slice(0, 60);
}

function cpuTicks(rootPid) {
  return processTree(rootPid)
    .map(processInfo)
    .reduce((sum, info) => sum + (info?.cpuTicks ?? 0), 0);
}

/** `npm start` in `root`, in its own process group, on a fresh embedded database (or DATABASE_URL). */
async function npmStart(root, name, extraEnv = {}) {
  const server = await spawnShop({
    root,
    command: "npm",
    args: ["start", "--silent"],
    name,
    dataDirPrefix: path.join(os.tmpdir(), `compare-${name}-`),
    env: extraEnv,
    detached: true,
  });
  const memory = memorySampler(server.child.pid);
  try {
    await server.ready({ timeoutMs: 120_000 });
  } catch (error) {
    memory.stop();
    throw error;
  }
  const bootPeak = memory.peak();
  memory.reset();
  return {
    name,
    origin: server.origin,
    pid: server.child.pid,
    bootPeak,
    memory,
    logs: server.logs,
    async stop() {
      memory.stop();
      await server.stop();
    },
  };
}

/** 10 connections flat out for `seconds`, with the server's CPU time per request. */
async function flatOut(server, pathname, headers) {
  const before = cpuTicks(server.pid);
  const result = await autocannonRun({ url: server.origin + pathname, connections: 10, duration: seconds, headers: { ...HEADERS, ...headers } });
  const ticks = cpuTicks(server.pid) - before;
  const cpuMsPerRequest = result.responses ? Math.round(((ticks * 10) / result.responses) * 100) / 100 : null;
  return { ...result, cpuMsPerRequest };
}

const median = (values) => {
  const sorted = values.filter((value) => value !== null && value !== undefined).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null;
};

function ensureBareBuild() {
  if (existsSync(path.join(bareRoot, "build/server/index.js"))) return;
  console.log("Building bench/bare-rr…");
  const result = spawnSync("npx", ["react-router", "build"], { cwd: bareRoot, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  if (result.status !== 0) throw new Error("bare-rr build failed");
}

// ---------------------------------------------------------------------------------------------

const loadAverage = os.loadavg().map((value) => value.toFixed(2));
const cpu = os.cpus();
const results = {
  label,
  startedAt: new Date().toISOString(),
  commit: spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: shopRoot, encoding: "utf8" }).stdout.trim() || "(not a git checkout)",
  machine: `${cpu[0]?.model.replace(/\s+/g, " ").trim()}, ${cpu.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM; Node ${process.version}`,
  loadAverageAtStart: loadAverage.join(" / "),
  rounds,
  seconds,
};
const outFile = path.join(tmpDir, `compare-${label}.json`);
// Runs of a subset (--only=…) add to what an earlier run of the same label measured.
const earlier = existsSync(outFile) ? JSON.parse(readFileSync(outFile, "utf8")) : {};
// A checkout-only run keeps the earlier run's details and adds its own beside the checkout figures.
const save = () =>
  writeFileSync(
    outFile,
    JSON.stringify(
      only.has("checkout") && earlier.startedAt
        ? { ...earlier, checkout: { ...results.checkout, startedAt: results.startedAt, loadAverageAtStart: results.loadAverageAtStart } }
        : { ...earlier, ...results },
      null,
      2,
    ),
  );

ensureBuild(shopRoot, { skip: args["no-build"] === true });
ensureBareBuild();

if (only.has("checkout")) {
  if (!process.env.DATABASE_URL) console.log("No DATABASE_URL: checkout measured on the embedded database.");
  const shop = await npmStart(shopRoot, "shop");
  try {
    results.checkout = { database: process.env.DATABASE_URL ? "PostgreSQL" : "PGlite", ...(await measureCheckout(shop.origin, { connections: 8 })) };
    const { concurrent } = results.checkout;
    console.log(
      `checkout: ${concurrent.ordersPerSecond} orders/s, p95 ${concurrent.p95} ms, ${concurrent.failures} refused or failed (load average ${os.loadavg()[0]?.toFixed(2)})`,
    );
  } finally {
    await shop.stop();
  }
  save();
  process.exit(0);
}

const shop = await npmStart(shopRoot, "shop");
const bare = await npmStart(bareRoot, "bare");
for (const page of SHOP_PAGES) if (SIGNED_IN_PAGES[page]) sessions[page] = await signInDemoAccount(shop.origin, SIGNED_IN_PAGES[page]);
results.bootPeakMb = { shop: shop.bootPeak, bare: bare.bootPeak };
try {
  if (only.has("load") || only.has("memory")) {
    const session = await signInDemoCustomer(shop.origin);
    const anyCookie = "_ga=GA1.1.123456789.1700000000";
    // [name, shop path, headers]; the bare page gets the same headers on its one route.
    /** @type {[string, string, Record<string, string>][]} */
    const scenarios = [
      ["cookieless /tienda", "/tienda", {}],
      ["/tienda, signed in", "/tienda", { cookie: session }],
      ["product, signed in", PRODUCT, { cookie: session }],
      ["/tienda, any cookie", "/tienda", { cookie: anyCookie }],
      ["/dashboard, signed in", "/dashboard", { cookie: session }],
      // The cart is the browser's (localStorage): the server renders the page's frame for anyone.
      ["cookieless /carrito", "/carrito", {}],
    ];
    // Warm both (V8, PGlite's caches) before anything counts.
    for (const [, pathname, headers] of scenarios) {
      await autocannonRun({ url: shop.origin + pathname, connections: 4, duration: 2, headers: { ...HEADERS, ...headers } });
    }
    await autocannonRun({ url: bare.origin + "/", connections: 4, duration: 2, headers: HEADERS });
    shop.memory.reset();
    bare.memory.reset();
    /** @type {Record<string, { shop: any[], bare: any[] }>} */
    const runs = Object.fromEntries(scenarios.map(([name]) => [String(name), { shop: [], bare: [] }]));
    for (let round = 1; round <= rounds; round++) {
      for (const [name, pathname, headers] of scenarios) {
        const ours = await flatOut(shop, pathname, headers);
        const theirs = await flatOut(bare, "/", headers);
        runs[name]?.shop.push(ours);
        runs[name]?.bare.push(theirs);
        console.log(
          `round ${round} ${name}: shop ${ours.achievedRate} req/s p95 ${ours.p95} ms cpu ${ours.cpuMsPerRequest} ms/req | bare ${theirs.achievedRate} req/s p95 ${theirs.p95} ms cpu ${theirs.cpuMsPerRequest} ms/req`,
        );
        if (ours.non2xx || ours.errors) throw new Error(`${name}: ${ours.non2xx} non-2xx, ${ours.errors} errors`);
      }
    }
    const summarize = (list) => ({
      reqPerS: median(list.map((run) => run.achievedRate)),
      p50: median(list.map((run) => run.p50)),
      p95: median(list.map((run) => run.p95)),
      cpuMsPerRequest: median(list.map((run) => run.cpuMsPerRequest)),
      each: list.map((run) => run.achievedRate),
    });
    results.load = Object.fromEntries(
      Object.entries(runs).map(([name, { shop: ours, bare: theirs }]) => [name, { shop: summarize(ours), bare: summarize(theirs) }]),
    );
    results.loadPeakMb = { shop: shop.memory.peak(), bare: bare.memory.peak() };
    console.log("peak memory under load:", JSON.stringify(results.loadPeakMb));
    save();
  }
  if (only.has("js")) {
    const pages = await measureFirstLoadJs([...SHOP_PAGES.map((page) => shop.origin + page), bare.origin + "/"], {
      chromePath,
      localStorageFor: storageFor,
      cookieFor,
      readyFor,
    });
    results.firstLoadJs = Object.fromEntries(
      pages.map((page) => [new URL(page.url).origin === bare.origin ? "bare" : new URL(page.url).pathname, { gzip: page.gzip, count: page.count }]),
    );
    save();
  }
  if (only.has("lighthouse")) {
    results.lighthouse = {};
    const saveDir = path.join(tmpDir, `lighthouse-${label}`);
    // --via-nginx: both audited behind production's nginx (TLS, HTTP/2; bench/lib/nginx-front.mjs).
    const fronts = args["via-nginx"] ? [await startNginxFront(shopRoot, shop.origin), await startNginxFront(shopRoot, bare.origin)] : [];
    if (fronts.length) CHROME_FLAGS.push("--ignore-certificate-errors");
    results.servedVia = fronts.length ? "nginx (TLS, HTTP/2)" : "Node (HTTP/1.1)";
    const [shopOrigin, bareOrigin] = fronts.length ? fronts.map((front) => front.origin) : [shop.origin, bare.origin];
    try {
      // Interleaved too: the bare page between the shop's pages.
      for (const page of SHOP_PAGES) {
        const ours = await auditPage(shopOrigin + page, {
          runs: lighthouseRuns,
          chromePath,
          saveDir,
          slug: page.replace(/\W+/g, "_") || "home",
          localStorage: storageFor(shop.origin + page),
          cookie: cookieFor(shop.origin + page),
        });
        results.lighthouse[page] = {
          performance: ours.scores?.performance,
          all: ours.allPerformanceScores,
          heldRuns: ours.heldRuns,
          unheldPerformance: ours.unheldPerformance,
          metrics: ours.metrics,
          lcpElement: ours.lcpElement ?? null,
        };
        if (!results.lighthouse.bare || page === "/tienda") {
          const theirs = await auditPage(bareOrigin + "/", { runs: lighthouseRuns, chromePath, saveDir, slug: `bare-${page.replace(/\W+/g, "_")}` });
          const previous = results.lighthouse.bare?.all ?? [];
          results.lighthouse.bare = {
            performance: theirs.scores?.performance,
            all: [...previous, ...theirs.allPerformanceScores],
            heldRuns: (results.lighthouse.bare?.heldRuns ?? 0) + theirs.heldRuns,
            metrics: theirs.metrics,
          };
        }
      }
    } finally {
      for (const front of fronts) await front.stop();
    }
  }
  results.peakMb = { shop: shop.memory.peak(), bare: bare.memory.peak() };
} finally {
  await shop.stop();
  await bare.stop();
}
results.finishedAt = new Date().toISOString();
save();
console.log(`Wrote ${outFile}`);
