// Issue 5 Quality: the time to process 10 000 due renewals on one machine.
//
// A fresh database (embedded PGlite by default; a new database on the PostgreSQL server of
// DATABASE_URL when it is set), migrated and seeded like a first start, then 10 000 active
// mensual subscriptions due today with saved sandbox cards, bulk-inserted as checkout and
// activation would have left them (user, card, first order paid, subscription, items, period 1
// paid and its sandbox charge). Then the real `renewDueSubscriptions` is timed, by one worker or
// by several at once (each with its own connection pool, as separate server processes would
// have), and the result is checked: every period 2 paid exactly once, one order, one invoice and
// one charge each. `scheduleSubscriptionDeliveries` is timed after it.
//
// Run from the repository root (the main package's tsx resolves the app's `~/` paths):
//   node --import tsx bench/renewals.ts                      # PGlite, 10 000 renewals, 1 worker
//   scripts/with-throwaway-postgres.sh node --import tsx bench/renewals.ts --workers=2
// Flags: --count=N (default 10000), --workers=N (default 1), --batch=N (renewals' claim batch,
// default theirs), --record (write the result into bench/RESULTS.md), --skip-schedule (time the
// renewals only: no deliveries scheduled nor checked; for quick before/after pairs on a busy machine),
// --count-statements (PostgreSQL, 1 worker: every statement node-postgres sends during the renewals
// and during the scheduling, BEGIN/COMMIT and savepoints included, divided by the count; the
// measure of issue 13 that the machine's load does not change). To profile, Node's own:
//   node --cpu-prof --cpu-prof-dir=bench/.tmp --import tsx bench/renewals.ts
import { once } from "node:events";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { and, count, countDistinct, eq } from "drizzle-orm";
import pg from "pg";
import { limaToday } from "../core/lima-dates";
import { openDatabase, type Database, type DatabaseHandle } from "../server/db/client";
import { freshDatabase, loadAverage, machine } from "./lib/fresh-database";
import { recordRow } from "./lib/results-table";
import { deliveries, deliveryCapacityDefaults, subscriptions } from "../server/db/schema";
import { seedDemoShop } from "../server/db/seed/seed";
import { benchSubscriptions, insertDueSubscriptions, verifyRenewals } from "../tests/support/due-renewals";
import { sandboxCardProvider } from "../server/payments/cards";
import { renewDueSubscriptions, scheduleSubscriptionDeliveries, type RenewalReport } from "../server/subscriptions/index.server";

const SITE_URL = "http://localhost:3000";
const BENCH_CAPACITY_PER_WINDOW = 500;

const args = process.argv.slice(2);
const flag = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const COUNT = Number(flag("count") ?? 10_000);
const WORKERS = Number(flag("workers") ?? 1);
const CLAIM_BATCH = flag("batch") ? Number(flag("batch")) : undefined;
const RECORD = args.includes("--record");
const SKIP_SCHEDULE = args.includes("--skip-schedule");
const COUNT_STATEMENTS = args.includes("--count-statements");

/** Statements sent through node-postgres since the bench started (only with --count-statements). */
let statementsSent = 0;
if (COUNT_STATEMENTS) {
  const send = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statementsSent += 1;
    return send.apply(this, args);
  } as typeof pg.Client.prototype.query;
}

function sum(reports: RenewalReport[]): RenewalReport {
  return reports.reduce((total, report) => ({
    charged: total.charged + report.charged,
    declined: total.declined + report.declined,
    pastDue: total.pastDue + report.pastDue,
    reconciled: total.reconciled + report.reconciled,
    unknown: total.unknown + report.unknown,
    failed: total.failed + report.failed,
  }));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const RENEWALS_START = "<!-- bench:renewals — rows written by bench/renewals.ts --record -->";
const RENEWALS_END = "<!-- /bench:renewals -->";

const record = (row: { config: string; cells: string[] }) => recordRow({ start: RENEWALS_START, end: RENEWALS_END }, row);

const renewalOptions = (db: Database, now: Date) => ({
  now,
  siteUrl: SITE_URL,
  cardsFor: () => sandboxCardProvider(db),
  ...(CLAIM_BATCH ? { batchSize: CLAIM_BATCH } : {}),
});

/** All workers in this process (PGlite has one connection, so several workers there only interleave). */
async function renewHere(db: Database, now: Date) {
  const startedAt = performance.now();
  const reports = await Promise.all(Array.from({ length: WORKERS }, () => renewDueSubscriptions(db, renewalOptions(db, now))));
  return { startedAt, reports };
}

/**
 * PostgreSQL with several workers: one thread each, with its own event loop and connection pool,
 * as separate server processes would run. The clock starts when every worker has connected.
 */
async function renewInThreads(url: string, now: Date) {
  // Node 20 does not run `--import tsx` in worker threads: each registers tsx, then loads this file.
  const boot = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); });`;
  const workers = Array.from({ length: WORKERS }, () => new Worker(boot, { eval: true, workerData: { url, now: now.toISOString() } }));
  // events.once rejects when the worker emits "error" (an exception in it) instead of a message.
  const exited = workers.map((worker) => once(worker, "exit"));
  await Promise.all(workers.map((worker) => once(worker, "message"))); // each has connected
  const startedAt = performance.now();
  const finished = workers.map((worker) => once(worker, "message"));
  for (const worker of workers) worker.postMessage("go");
  const reports = (await Promise.all(finished)).map(([report]) => report as RenewalReport);
  await Promise.all(exited); // their pools closed before the database is dropped
  return { startedAt, reports };
}

async function workerMain() {
  const { url, now } = workerData as { url: string; now: string };
  const handle = await openDatabase({ kind: "postgres", url });
  try {
    parentPort!.postMessage("ready");
    await new Promise((resolve) => parentPort!.once("message", resolve));
    parentPort!.postMessage(await renewDueSubscriptions(handle.db, renewalOptions(handle.db, new Date(now))));
  } finally {
    await handle.close();
  }
}

async function main() {
  const loadAtStart = loadAverage();
  const fresh = await freshDatabase("renewals");
  const handles: DatabaseHandle[] = [];
  try {
    console.log(`Database: ${fresh.label}; ${COUNT} due renewals; ${WORKERS} worker(s); machine: ${machine()}`);
    let mark = performance.now();
    const handle = await openDatabase(fresh.target);
    handles.push(handle);
    await handle.migrate(seedDemoShop);
    console.log(`  migrated and seeded in ${seconds(performance.now() - mark)}`);

    // Noon in Lima today: the daily job's moment; the demo customer's own renewal is weeks away.
    const now = new Date(`${limaToday(new Date())}T17:00:00.000Z`);
    mark = performance.now();
    const { amountCents, today } = await insertDueSubscriptions(handle.db, now, COUNT);
    // The seed's 120 places per window suit the demo shop. A shop with 10 000 mensual subscribers
    // makes about 10 000 deliveries a month, some 400 per delivery day, and would give each window
    // about 500 places. The fixture's subscriptions all want the same morning (they all renew
    // today), so they still fill several of Miraflores' mornings and the scheduler's search for the
    // next day with room is measured too (bench/RESULTS.md).
    await handle.db.update(deliveryCapacityDefaults).set({ capacity: BENCH_CAPACITY_PER_WINDOW });
    console.log(`  inserted ${COUNT} due subscriptions (S/ ${(amountCents / 100).toFixed(2)} each, due ${today}) in ${seconds(performance.now() - mark)}`);

    if (COUNT_STATEMENTS && (fresh.target.kind !== "postgres" || WORKERS > 1))
      throw new Error("--count-statements needs PostgreSQL (DATABASE_URL) and one worker");
    let statementsAtStart = statementsSent;
    const reports = fresh.target.kind === "postgres" && WORKERS > 1 ? await renewInThreads(fresh.target.url, now) : await renewHere(handle.db, now);
    mark = reports.startedAt;
    const renewalMs = performance.now() - mark;
    const report = sum(reports.reports);
    console.log(
      `  renewDueSubscriptions: ${seconds(renewalMs)}, ${(COUNT / (renewalMs / 1000)).toFixed(1)} renewals/s; ${JSON.stringify(report)}${WORKERS > 1 ? ` (per worker: ${reports.reports.map((each) => each.charged).join(" + ")})` : ""}`,
    );

    if (COUNT_STATEMENTS)
      console.log(`  statements per renewal: ${((statementsSent - statementsAtStart) / COUNT).toFixed(2)} (${statementsSent - statementsAtStart} in all)`);
    let scheduled = 0;
    let scheduleMs = 0;
    let made = { n: 0, subscriptions: 0 };
    if (!SKIP_SCHEDULE) {
      mark = performance.now();
      statementsAtStart = statementsSent;
      scheduled = await scheduleSubscriptionDeliveries(handle.db, now);
      scheduleMs = performance.now() - mark;
      if (COUNT_STATEMENTS) console.log(`  statements per scheduled delivery: ${((statementsSent - statementsAtStart) / Math.max(1, scheduled)).toFixed(2)}`);
      [made] = (await handle.db
        .select({ n: count(), subscriptions: countDistinct(deliveries.subscriptionId) })
        .from(deliveries)
        .innerJoin(subscriptions, eq(subscriptions.id, deliveries.subscriptionId))
        .where(and(eq(deliveries.subscriptionSequence, 2), benchSubscriptions))) as [typeof made];
      console.log(`  scheduleSubscriptionDeliveries: ${scheduled} deliveries in ${seconds(scheduleMs)}`);
    }

    const { expectations } = await verifyRenewals(handle.db, now, COUNT);
    if (!SKIP_SCHEDULE)
      expectations.push([`${COUNT} deliveries for period 2, one per subscription`, Number(made.n) === COUNT && Number(made.subscriptions) === COUNT]);
    expectations.push([`report counts ${COUNT} charged`, report.charged === COUNT], ["no row failed (job_row_failures)", report.failed === 0]);
    for (const [label, ok] of expectations) console.log(`  ${ok ? "ok  " : "FAIL"} ${label}`);
    const failed = expectations.filter(([, ok]) => !ok);
    if (failed.length > 0) throw new Error(`Renewals were not exactly once: ${failed.map(([label]) => label).join("; ")}`);

    if (RECORD && !SKIP_SCHEDULE) {
      const engine = fresh.target.kind === "postgres" ? "PostgreSQL" : "PGlite";
      record({
        config: `${engine}, ${WORKERS} worker${WORKERS > 1 ? "s" : ""}`,
        cells: [
          String(COUNT),
          seconds(renewalMs),
          (COUNT / (renewalMs / 1000)).toFixed(0),
          `${(renewalMs / COUNT).toFixed(2)} ms`,
          `${scheduled} in ${seconds(scheduleMs)}`,
          "✅ all checks",
          new Date().toISOString().slice(0, 10),
          `${fresh.label}; ${machine()}; load average at start ${loadAtStart}`,
        ],
      });
      console.log("  recorded in bench/RESULTS.md");
    }
  } finally {
    for (const each of handles) await each.close();
    await fresh.drop();
  }
}

if (isMainThread) await main();
else await workerMain();
