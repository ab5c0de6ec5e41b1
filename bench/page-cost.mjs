#!/usr/bin/env node
// Issue 13: what one page request costs the server, in measures the machine's load does not
// change much — the server process's own CPU time (process.cpuUsage) and the SQL statements it
// sends — around a fixed number of requests. Starts the production build the way `npm start` does
// (same V8 flags, fresh embedded database with the demo data, or DATABASE_URL), signs in as the demo
// customer, and per page: warms it, then sends `--requests` requests over `--connections`
// connections and charges them the CPU and statements used meanwhile. `--profile` also writes a V8
// CPU profile of each page's window to bench/.tmp/page-cost-<label>/ (open in Chrome DevTools).
//
//   node bench/page-cost.mjs [--requests=400] [--connections=10] [--profile] [--label=after] [--shop-root=…]
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent } from "undici";
import { HEADERS, percentile } from "./lib/load.mjs";
import { parseFlags } from "./lib/flags.mjs";
import { ensureBuild, signInDemoCustomer, spawnCountingShop } from "./lib/server.mjs";

const benchDir = import.meta.dirname;
const args = parseFlags();
const shopRoot = path.resolve(String(args["shop-root"] ?? path.join(benchDir, "..")));
const label = String(args.label ?? "after");
const requests = Number(args.requests ?? 400);
const connections = Number(args.connections ?? 10);
const outDir = path.join(benchDir, ".tmp", `page-cost-${label}`);
mkdirSync(outDir, { recursive: true });
const PRODUCT = "/tienda/producto/agua-alcalina-personal-625ml";

ensureBuild(shopRoot, { skip: args["no-build"] === true });

const shop = await spawnCountingShop({ root: shopRoot, dataDirPrefix: path.join(os.tmpdir(), "page-cost-") });
const { origin, ask } = shop;

const dispatcher = new Agent({ connections });
async function get(pathname, cookie) {
  const response = await fetch(origin + pathname, {
    headers: { ...HEADERS, ...(cookie ? { cookie } : {}) },
    redirect: "manual",
    // @ts-expect-error undici's dispatcher option is not in the DOM fetch types.
    dispatcher,
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${pathname}: HTTP ${response.status}`);
}

/** `count` requests, `connections` at a time; latencies in ms. */
async function send(pathname, cookie, count) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        next += 1;
        const t0 = performance.now();
        await get(pathname, cookie);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
}

const results = {
  label,
  startedAt: new Date().toISOString(),
  loadAverageAtStart: os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(" / "),
  requests,
  connections,
  pages: {},
};
try {
  await shop.ready({ timeoutMs: 180_000 });
  const session = await signInDemoCustomer(origin);

  /** @type {[string, string, string | null][]} */
  const pages = [
    ["cookieless /tienda", "/tienda", null],
    ["/tienda, signed in", "/tienda", session],
    ["product, signed in", PRODUCT, session],
    ["/dashboard, signed in", "/dashboard", session],
    ["/carrito, signed in", "/carrito", session],
  ];
  for (const [name, pathname, cookie] of pages) {
    await send(pathname, cookie, 60);
    const slug = name.replace(/\W+/g, "-").replace(/^-|-$/g, "");
    if (args.profile) await ask({ type: "profile-start" }, "profile-started");
    const before = await ask({ type: "snapshot", reset: true }, "snapshot");
    const run = await send(pathname, cookie, requests);
    const after = await ask({ type: "snapshot" }, "snapshot");
    if (args.profile) await ask({ type: "profile-stop", file: path.join(outDir, `${slug}.cpuprofile`) }, "profile-stopped");
    const perRequest = (value) => Math.round((value / requests) * 100) / 100;
    const statements = Object.entries(after.byText)
      .map(([text, count]) => ({ perRequest: perRequest(count), text }))
      .sort((a, b) => b.perRequest - a.perRequest);
    results.pages[name] = {
      path: pathname,
      cpuMsPerRequest: perRequest((after.cpuMicros - before.cpuMicros) / 1000),
      statementsPerRequest: perRequest(after.statements - before.statements),
      reqPerS: Math.round(requests / run.seconds),
      p50: Math.round(percentile(run.latencies, 50) * 10) / 10,
      p95: Math.round(percentile(run.latencies, 95) * 10) / 10,
      statements,
    };
    const page = results.pages[name];
    console.log(`${name}: CPU ${page.cpuMsPerRequest} ms/request, ${page.statementsPerRequest} statements/request, ${page.reqPerS} req/s, p95 ${page.p95} ms`);
    for (const statement of statements.slice(0, 12)) console.log(`    ${statement.perRequest}× ${statement.text}`);
  }
} finally {
  await shop.stop();
  await dispatcher.close();
}
results.loadAverageAtEnd = os
  .loadavg()
  .map((v) => v.toFixed(2))
  .join(" / ");
writeFileSync(path.join(benchDir, ".tmp", `page-cost-${label}.json`), JSON.stringify(results, null, 2));
console.log(`Load average at start ${results.loadAverageAtStart}, at end ${results.loadAverageAtEnd}; wrote bench/.tmp/page-cost-${label}.json`);
