#!/usr/bin/env node
// Issue 13: what one checkout costs, in measures the machine's load changes little — the SQL
// statements the server sends per order, the server process's CPU time per order, and how many
// statements each order sends while it holds the delivery slot's row lock (every bench order is
// for the same date, window and pool, so they take that lock in turn: orders per second can never
// exceed 1 / the time it is held). Starts the production build with bench/lib/count-queries.mjs
// preloaded (fresh embedded database with the demo data, or DATABASE_URL), raises Wednesday
// mañana's places as staff would (bench/lib/checkout.mjs), then posts the real checkout action:
// `--orders` one at a time, then `--orders` over `--connections` connections.
//
//   node bench/checkout-cost.mjs [--orders=300] [--connections=8] [--label=after] [--shop-root=…] [--profile]
//   (--profile: a V8 CPU profile of the concurrent part, bench/.tmp/checkout-cost-<label>.cpuprofile)
//   scripts/with-throwaway-postgres.sh node bench/checkout-cost.mjs
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchWednesday, raiseWednesdayCapacity, submit } from "./lib/checkout.mjs";
import { percentile } from "./lib/load.mjs";
import { ensureBuild, spawnCountingShop } from "./lib/server.mjs";

const benchDir = import.meta.dirname;
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? true];
  }),
);
const shopRoot = path.resolve(String(args["shop-root"] ?? path.join(benchDir, "..")));
const label = String(args.label ?? "after");
const orders = Number(args.orders ?? 300);
const connections = Number(args.connections ?? 8);
mkdirSync(path.join(benchDir, ".tmp"), { recursive: true });

ensureBuild(shopRoot, { skip: args["no-build"] === true });

const shop = await spawnCountingShop({ root: shopRoot, dataDirPrefix: path.join(os.tmpdir(), "checkout-cost-") });
const { origin, ask } = shop;

/**
 * CPU time (ms) of the PostgreSQL server at DATABASE_URL (its postmaster and the backends under it,
 * found in /proc by the port on the postmaster's command line), or null on PGlite or elsewhere.
 */
function databaseCpuMs() {
  const port = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL).port : null;
  if (!port) return null;
  const stats = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      stats.push({ pid: Number(entry), parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), command });
    } catch {
      // Gone between the listing and the read.
    }
  }
  const postmaster = stats.find((info) => info.command[0]?.endsWith("/postgres") && info.command.includes(port));
  if (!postmaster) return null;
  const ticks = stats.filter((info) => info.pid === postmaster.pid || info.parent === postmaster.pid).reduce((sum, info) => sum + info.ticks, 0);
  return ticks * 10; // 100 clock ticks per second on Linux
}

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");
const round = (value, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

/** `count` orders over `width` connections, charged the statements, CPU and slot holds used meanwhile. */
async function measure(name, date, count, width) {
  const before = await ask({ type: "snapshot", reset: true }, "snapshot");
  const databaseBefore = databaseCpuMs();
  let next = 0;
  let placed = 0;
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        next += 1;
        const result = await submit(origin, date);
        latencies.push(result.ms);
        if (result.ok) placed += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await ask({ type: "snapshot" }, "snapshot");
  const databaseAfter = databaseCpuMs();
  const perOrder = (value) => round(value / count);
  const holds = Float64Array.from(after.slot.holdMs).sort();
  const sorted = Float64Array.from(latencies).sort();
  const result = {
    connections: width,
    orders: count,
    placed,
    statementsPerOrder: perOrder(after.statements - before.statements),
    cpuMsPerOrder: perOrder((after.cpuMicros - before.cpuMicros) / 1000),
    databaseCpuMsPerOrder: databaseBefore === null || databaseAfter === null ? null : perOrder(databaseAfter - databaseBefore),
    slotHolds: after.slot.holds,
    statementsHoldingSlot: after.slot.holds ? round(after.slot.statementsHeld / after.slot.holds) : null,
    slotHoldMs: holds.length
      ? { mean: round(holds.reduce((sum, value) => sum + value, 0) / holds.length), p50: round(percentile(holds, 50)), p95: round(percentile(holds, 95)) }
      : null,
    ordersPerSecond: round(placed / seconds, 1),
    p50: round(percentile(sorted, 50), 1),
    p95: round(percentile(sorted, 95), 1),
    statements: Object.entries(after.byText)
      .map(([text, times]) => ({ perOrder: perOrder(times), text }))
      .sort((a, b) => b.perOrder - a.perOrder),
  };
  console.log(
    `${name}: ${placed}/${count} placed, ${result.statementsPerOrder} statements/order (${result.statementsHoldingSlot} holding the slot), ` +
      `CPU ${result.cpuMsPerOrder} ms/order (database ${result.databaseCpuMsPerOrder}), slot held ${result.slotHoldMs?.mean} ms (p95 ${result.slotHoldMs?.p95}), ${result.ordersPerSecond} orders/s, p95 ${result.p95} ms`,
  );
  for (const statement of result.statements.slice(0, 30)) console.log(`    ${statement.perOrder}× ${statement.text}`);
  return result;
}

const results = { label, database: process.env.DATABASE_URL ? "PostgreSQL" : "PGlite", startedAt: new Date().toISOString(), loadAverageAtStart: loadAverage() };
try {
  await shop.ready({ timeoutMs: 180_000 });
  await raiseWednesdayCapacity(origin);
  const date = await benchWednesday(origin);
  for (let i = 0; i < 30; i++) await submit(origin, date); // warm-up (V8, pools, caches)
  results.oneAtATime = await measure("one at a time", date, orders, 1);
  if (args.profile) await ask({ type: "profile-start" }, "profile-started");
  results.concurrent = await measure(`${connections} connections`, date, orders, connections);
  if (args.profile) await ask({ type: "profile-stop", file: path.join(benchDir, ".tmp", `checkout-cost-${label}.cpuprofile`) }, "profile-stopped");
} finally {
  await shop.stop();
}
results.loadAverageAtEnd = loadAverage();
const file = path.join(benchDir, ".tmp", `checkout-cost-${label}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`Load average at start ${results.loadAverageAtStart}, at end ${results.loadAverageAtEnd}; wrote ${file}`);
