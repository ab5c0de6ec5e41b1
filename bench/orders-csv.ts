// Issue 10 Quality: "CSV export of 100 000 orders (time, and server memory growth ≤ 100 MB)", and
// the staff order list's searches on the same 100 000 orders.
//
// A fresh database (embedded PGlite by default; a new database on the PostgreSQL server of
// DATABASE_URL when it is set), migrated and seeded like a first start, then 100 000 orders
// inserted in one statement (a year of them, every status, district, payment method and type) and
// their deliveries in another (see insertDeliveries: the CSV shows each order's current delivery).
// The database is handed to the real production server (scripts/serve.mjs on build/), which signs
// in the demo operaciones account; the bench then times the list page for the common searches
// and downloads /admin/pedidos/exportar while it samples the server's resident memory
// (/proc/<pid>/status, every 20 ms). The download is read as it arrives and never kept: only
// lines are counted, and the count must equal the orders in the database. The export's CPU time
// in the shop's process (and, on PostgreSQL, in the server's backends) is read from /proc.
//
// Run from the repository root:
//   node --import tsx bench/orders-csv.ts [--count=100000] [--exports=N] [--record]
//   scripts/with-throwaway-postgres.sh node --import tsx bench/orders-csv.ts --record
// Before/after on PostgreSQL: another checkout (built there) serves the same database, and the two
// builds' exports alternate; the bench fails unless both send the same bytes:
//   scripts/with-throwaway-postgres.sh node --import tsx bench/orders-csv.ts --before-root=/tmp/before --exports=3
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, sql } from "drizzle-orm";
import { openDatabase } from "../server/db/client";
import { deliveries, districts, orders } from "../server/db/schema";
import { seedDemoShop } from "../server/db/seed/seed";
import { DEMO_OPERACIONES } from "../server/db/seed/demo-accounts";
import { freshDatabase, loadAverage, machine } from "./lib/fresh-database";
import { cpuMs, postgresCpuMs, postmasterPid } from "./lib/process-cpu";
import { ensureBuild } from "./lib/server.mjs";
import { signIn, startShopOn } from "./lib/shop-on-database";

const BENCH_DIR = import.meta.dirname;
const ROOT = path.resolve(BENCH_DIR, "..");
const args = process.argv.slice(2);
const flag = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const COUNT = Number(flag("count") ?? 100_000);
const RECORD = args.includes("--record");
/** Another checkout (its build/ made there beforehand) to serve the same database beside this one, for a before/after comparison. */
const BEFORE_ROOT = flag("before-root") ? path.resolve(flag("before-root")!) : null;
/** Downloads of the CSV per build; the best is reported (and recorded). */
const EXPORTS = Number(flag("exports") ?? 1);
const MB = 1024 * 1024;

/** 100 000 orders in one INSERT … SELECT: fields vary with the row number so every filter has matches. */
async function insertOrders(db: Awaited<ReturnType<typeof openDatabase>>["db"], total: number) {
  const served = await db
    .select({ id: districts.id, name: districts.name })
    .from(districts)
    .where(sql`${districts.served}`)
    .orderBy(districts.id);
  const ids = `array[${served.map((row) => row.id).join(",")}]`;
  const names = `array[${served.map((row) => `'${row.name.replace(/'/g, "''")}'`).join(",")}]`;
  const n = served.length;
  await db.execute(
    sql.raw(`
    insert into orders (status, order_type, subscription_frequency, customer_first_name, customer_last_name, customer_email, customer_phone,
      document_type, document_number, district_id, district_name, address, delivery_date, delivery_window,
      subtotal_cents, discount_cents, shipping_cents, total_cents, payment_provider, payment_method, paid_at, created_at, updated_at)
    select
      (array['pending','payment_created','paid','processing','shipped','delivered','failed','cancelled','refunded'])[1 + i % 9],
      case when i % 4 = 0 then 'subscription' else 'one-time' end,
      case when i % 4 = 0 then 'mensual' end,
      (array['Ana','Bruno','Carla','Diego','Elena','Fabio','Gina','Hugo','Inés','José'])[1 + i % 10] || ' ' || i,
      (array['Quispe','Díaz','Rojas, Vega','Huamán','"Flores"','Mendoza','=Torres','Chávez'])[1 + (i / 10) % 8],
      'cliente' || i || '@bench.example.pe',
      '+51 9' || lpad((i % 100000000)::text, 8, '0'),
      'dni',
      lpad(i::text, 8, '0'),
      (${ids})[1 + i % ${n}],
      (${names})[1 + i % ${n}],
      'Av. Principal ' || i || ', dpto. ' || (i % 30) || E'\\nReferencia: frente al parque',
      (date '2026-01-01' + (i % 365)),
      case when i % 2 = 0 then 'manana' else 'tarde' end,
      1000 + (i % 200) * 50, 0, 0, 1000 + (i % 200) * 50,
      'sandbox',
      (array['card','yape','cash'])[1 + i % 3],
      null,
      timestamptz '2025-11-24 05:00:00+00' + (i * interval '1 second') * (365 * 86400 / ${total}),
      now()
    from generate_series(1, ${total}) as i`),
  );
  await db.execute(sql`analyze orders`);
}

/**
 * The bench orders' deliveries, so that the CSV's current-delivery lookup (decision 0062) has work
 * to do: none for the unpaid ones (their own date shows), one for the rest in the status that
 * matches the order's, two in three of them moved a few days, one in a hundred an annual plan's
 * twelve with a varying number already delivered (and a failed or cancelled one among them), and
 * one in a thousand two open ones on the same day.
 */
async function insertDeliveries(db: Awaited<ReturnType<typeof openDatabase>>["db"]) {
  await db.execute(
    sql.raw(`
    with bench as (
      select o.*, o.document_number::int as i from orders o where o.customer_email like '%@bench.example.pe'
    ), planned as (
      select bench.*, 0 as k from bench where status not in ('pending', 'payment_created')
      union all
      select bench.*, k from bench cross join generate_series(1, 11) as k where status not in ('pending', 'payment_created') and i % 100 = 0
      union all
      select bench.*, 12 as k from bench where status not in ('pending', 'payment_created') and i % 1000 = 500
    )
    insert into deliveries (order_id, district_id, district_name, address, delivery_date, delivery_window, status, created_at, updated_at)
    select id, district_id, district_name, address,
      case when k = 12 then delivery_date + (i % 3) * 2 else delivery_date + (i % 3) * 2 + k * 30 end,
      case when k = 12 or i % 5 = 0 then (case when delivery_window = 'manana' then 'tarde' else 'manana' end) else delivery_window end,
      case
        when k = 0 or k = 12 then (case status when 'paid' then 'pending' when 'processing' then 'scheduled' when 'shipped' then 'in_transit'
          when 'delivered' then 'delivered' when 'failed' then 'failed' else 'cancelled' end)
        when k <= (i / 100) % 13 then (case when k % 5 = 0 then 'cancelled' else 'delivered' end)
        when k = (i / 100) % 13 + 1 and i % 200 = 0 then 'failed'
        else 'scheduled'
      end,
      created_at, created_at
    from planned
    order by i, k`),
  );
  await db.execute(sql`analyze deliveries`);
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** Median of `runs` requests of one URL, measured from the client over loopback (the page fully received). */
async function timePage(origin: string, cookie: string, url: string, runs = 5) {
  const times: number[] = [];
  let status = 0;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const response = await fetch(`${origin}${url}`, { headers: { cookie } });
    await response.arrayBuffer();
    status = response.status;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { url, status, medianMs: times[Math.floor(times.length / 2)]!, maxMs: times.at(-1)! };
}

const ORDERS_START = "<!-- bench:orders-csv — rows written by bench/orders-csv.ts --record -->";
const ORDERS_END = "<!-- /bench:orders-csv -->";

function record(config: string, cells: string[], searches: string) {
  const file = path.join(BENCH_DIR, "RESULTS.md");
  const text = readFileSync(file, "utf8");
  const start = text.indexOf(ORDERS_START);
  const end = text.indexOf(ORDERS_END);
  if (start < 0 || end < start) throw new Error(`bench/RESULTS.md has no ${ORDERS_START} … ${ORDERS_END} block`);
  // The table of runs, then one block of list timings per configuration.
  const [tablePart = "", ...blockParts] = text.slice(start + ORDERS_START.length, end).split(/\n(?=<!-- searches: )/);
  const lines = tablePart.split("\n").filter((line) => line.startsWith("| "));
  const [header, rule, ...rows] =
    lines.length >= 2
      ? lines
      : [
          "| Configuration | Orders | CSV time | CSV size | Rows/s | Server RSS before | Peak RSS growth | Checks | Date | Database; machine |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ];
  const line = `| ${config} | ${cells.join(" | ")} |`;
  const index = rows.findIndex((existing) => existing.startsWith(`| ${config} |`));
  if (index >= 0) rows[index] = line;
  else rows.push(line);
  const blocks = blockParts.map((block) => block.trim()).filter((block) => !block.startsWith(`<!-- searches: ${config} -->`));
  const newBlocks = [...blocks, `<!-- searches: ${config} -->\n${searches}`].join("\n\n");
  writeFileSync(file, `${text.slice(0, start + ORDERS_START.length)}\n${[header, rule, ...rows].join("\n")}\n\n${newBlocks}\n${text.slice(end)}`);
}

/** One download of every order's CSV, timed, counted and hashed as it arrives, with the CPU time it cost the shop and PostgreSQL. */
async function exportOnce(shop: Awaited<ReturnType<typeof startShopOn>>, cookie: string, postmaster: number | null) {
  const rssBefore = rssOf(shop.pid);
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(shop.pid));
  }, 20);
  const cpuBefore = cpuMs(shop.pid);
  const dbCpuBefore = postgresCpuMs(postmaster);
  const mark = performance.now();
  const response = await fetch(`${shop.origin}/admin/pedidos/exportar`, { headers: { cookie } });
  const hash = createHash("sha256");
  let bytes = 0;
  let lineEnds = 0;
  let firstByteMs = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) firstByteMs = performance.now() - mark;
    bytes += value.byteLength;
    hash.update(value);
    for (const byte of value) if (byte === 0x0d) lineEnds += 1;
  }
  const exportMs = performance.now() - mark;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(shop.pid));
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    exportMs,
    firstByteMs,
    bytes,
    // Each order is one CRLF-ended line after the header; the line breaks inside addresses are bare LF.
    rows: lineEnds - 1,
    digest: hash.digest("hex"),
    // CPU time the export cost the shop's process and the PostgreSQL server: the load hardly changes it.
    cpuMs: cpuMs(shop.pid) - cpuBefore,
    dbCpuMs: postgresCpuMs(postmaster) - dbCpuBefore,
    rssBefore,
    growth: peak - rssBefore,
  };
}

async function main() {
  const loadAtStart = loadAverage();
  const built = ensureBuild(ROOT);
  // PGlite's data directory belongs to one process: a second server cannot open it.
  if (BEFORE_ROOT && !process.env.DATABASE_URL) throw new Error("--before-root needs PostgreSQL (DATABASE_URL)");
  const fresh = await freshDatabase("orders_csv");
  let shop: Awaited<ReturnType<typeof startShopOn>> | undefined;
  let beforeShop: Awaited<ReturnType<typeof startShopOn>> | undefined;
  try {
    console.log(`Database: ${fresh.label}; ${COUNT} orders; machine: ${machine()}; build ${built.rebuilt ? "rebuilt" : "current"}`);
    const mark = performance.now();
    const handle = await openDatabase(fresh.target);
    let inDatabase = 0;
    let deliveriesInDatabase = 0;
    let postmaster: number | null = null;
    let sample: { email: string; name: string; phone: string; document: string; number: string };
    try {
      await handle.migrate(seedDemoShop);
      await insertOrders(handle.db, COUNT);
      await insertDeliveries(handle.db);
      const [counted] = await handle.db.select({ n: count() }).from(orders);
      inDatabase = Number(counted!.n);
      const [deliveryCount] = await handle.db.select({ n: count() }).from(deliveries);
      deliveriesInDatabase = Number(deliveryCount!.n);
      if (fresh.target.kind === "postgres") postmaster = await postmasterPid(handle.db);
      const [middle] = await handle.db
        .execute<{ email: string; first: string; last: string; phone: string; document: string; number: string }>(
          sql`select customer_email as email, customer_first_name as first, customer_last_name as last, customer_phone as phone, document_number as document, order_number as number from orders where customer_email = ${`cliente${Math.floor(COUNT / 2)}@bench.example.pe`}`,
        )
        .then(
          (result) => (result as unknown as { rows: { email: string; first: string; last: string; phone: string; document: string; number: string }[] }).rows,
        );
      sample = {
        email: middle!.email,
        name: `${middle!.first} ${middle!.last}`.split(" ").slice(0, 2).join(" "),
        phone: middle!.phone,
        document: middle!.document,
        number: middle!.number,
      };
    } finally {
      await handle.close();
    }
    console.log(
      `  migrated, seeded and inserted ${COUNT} orders (${inDatabase} in all, ${deliveriesInDatabase} deliveries) in ${((performance.now() - mark) / 1000).toFixed(1)} s`,
    );

    shop = await startShopOn({ ...fresh.env, JOBS_INTERVAL_SECONDS: "0", CLIENT_RATE_LIMIT_FACTOR: "100" });
    const cookie = await signIn(shop.origin, DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);

    // Warm-up: the first request loads the route modules and fills the database's caches.
    for (const url of ["/admin/pedidos", "/admin/pedidos/exportar?estado=refunded&desde=2026-11-01"])
      await (await fetch(`${shop.origin}${url}`, { headers: { cookie } })).arrayBuffer();

    const searches = [
      "/admin/pedidos",
      `/admin/pedidos?page=${Math.floor(COUNT / 25 / 2)}`,
      `/admin/pedidos?q=${encodeURIComponent(sample.number)}`,
      `/admin/pedidos?q=${encodeURIComponent(sample.email)}`,
      `/admin/pedidos?q=${encodeURIComponent("cliente5000")}`,
      `/admin/pedidos?q=${encodeURIComponent(sample.name)}`,
      `/admin/pedidos?q=${encodeURIComponent(sample.phone)}`,
      `/admin/pedidos?q=${encodeURIComponent(sample.document)}`,
      "/admin/pedidos?estado=delivered&pago=yape&tipo=subscription",
      "/admin/pedidos?desde=2026-03-01&hasta=2026-03-31&distrito=22",
    ];
    const timings = [];
    for (const url of searches) {
      const timing = await timePage(shop.origin, cookie, url);
      if (timing.status !== 200) throw new Error(`${url} answered ${timing.status}`);
      timings.push(timing);
      console.log(`  ${url}: median ${timing.medianMs.toFixed(0)} ms, max ${timing.maxMs.toFixed(0)} ms`);
    }

    const shops = [{ label: "this build", shop, cookie }];
    if (BEFORE_ROOT) {
      // Another checkout's build on the same database, its exports alternated with this one's: on
      // the busy machine both see the same noise, and the two bodies must be the same bytes.
      beforeShop = await startShopOn({ ...fresh.env, JOBS_INTERVAL_SECONDS: "0", CLIENT_RATE_LIMIT_FACTOR: "100" }, BEFORE_ROOT);
      shops.unshift({
        label: `before (${path.relative(ROOT, BEFORE_ROOT) || BEFORE_ROOT})`,
        shop: beforeShop,
        cookie: await signIn(beforeShop.origin, DEMO_OPERACIONES.email, DEMO_OPERACIONES.password),
      });
      await (
        await fetch(`${beforeShop.origin}/admin/pedidos/exportar?estado=refunded&desde=2026-11-01`, { headers: { cookie: shops[0]!.cookie } })
      ).arrayBuffer();
    }
    const runs = new Map<string, Awaited<ReturnType<typeof exportOnce>>[]>(shops.map((each) => [each.label, []]));
    for (let round = 1; round <= EXPORTS; round += 1) {
      for (const each of shops) {
        const run = await exportOnce(each.shop, each.cookie, postmaster);
        runs.get(each.label)!.push(run);
        console.log(
          `  export ${round}/${EXPORTS}, ${each.label}: ${(run.exportMs / 1000).toFixed(1)} s, first byte after ${run.firstByteMs.toFixed(0)} ms, ${(run.bytes / MB).toFixed(1)} MB, ${run.rows} rows, sha256 ${run.digest.slice(0, 16)}; CPU: shop ${(run.cpuMs / 1000).toFixed(2)} s${postmaster === null ? "" : `, PostgreSQL ${(run.dbCpuMs / 1000).toFixed(2)} s`}; server RSS ${(run.rssBefore / MB).toFixed(0)} MB before, peak +${(run.growth / MB).toFixed(1)} MB; load ${os.loadavg()[0]!.toFixed(1)}`,
        );
      }
    }
    const best = (label: string) => runs.get(label)!.reduce((fastest, run) => (run.exportMs < fastest.exportMs ? run : fastest));
    for (const each of shops) {
      const fastest = best(each.label);
      console.log(
        `  best of ${EXPORTS}, ${each.label}: ${(fastest.exportMs / 1000).toFixed(2)} s; least CPU: shop ${(Math.min(...runs.get(each.label)!.map((run) => run.cpuMs)) / 1000).toFixed(2)} s${postmaster === null ? "" : `, PostgreSQL ${(Math.min(...runs.get(each.label)!.map((run) => run.dbCpuMs)) / 1000).toFixed(2)} s`}`,
      );
    }
    const all = [...runs.values()].flat();
    const { exportMs, firstByteMs, bytes, rows, cpuMs: exportCpuMs, dbCpuMs: exportDbCpuMs, rssBefore: before, growth } = best("this build");
    const checks: [string, boolean][] = [
      ["HTTP 200, text/csv; charset=utf-8", all.every((run) => run.status === 200 && run.contentType === "text/csv; charset=utf-8")],
      [`${inDatabase} rows exported (every order, once)`, all.every((run) => run.rows === inDatabase)],
      ["server RSS growth ≤ 100 MB", all.every((run) => run.growth <= 100 * MB)],
      ...(BEFORE_ROOT ? [["the same bytes from both builds", new Set(all.map((run) => run.digest)).size === 1] as [string, boolean]] : []),
    ];
    for (const [label, ok] of checks) console.log(`  ${ok ? "ok  " : "FAIL"} ${label}`);
    const failed = checks.filter(([, ok]) => !ok);
    if (failed.length > 0) throw new Error(`CSV export bench failed: ${failed.map(([label]) => label).join("; ")}`);

    if (RECORD) {
      const engine = fresh.target.kind === "postgres" ? "PostgreSQL" : "PGlite";
      record(
        engine,
        [
          String(inDatabase),
          `${(exportMs / 1000).toFixed(1)} s (first byte ${firstByteMs.toFixed(0)} ms; CPU shop ${(exportCpuMs / 1000).toFixed(2)} s${postmaster === null ? "" : ` + PostgreSQL ${(exportDbCpuMs / 1000).toFixed(2)} s`})`,
          `${(bytes / MB).toFixed(1)} MB`,
          (rows / (exportMs / 1000)).toFixed(0),
          `${(before / MB).toFixed(0)} MB`,
          `+${(growth / MB).toFixed(1)} MB`,
          "✅ all checks",
          new Date().toISOString().slice(0, 10),
          `${fresh.label}; ${machine()}; load average at start ${loadAtStart}`,
        ],
        [
          `List page on ${engine} with ${inDatabase} orders (median of 5 / max, full page over loopback):`,
          "",
          "| Request | Median | Max |",
          "| --- | --- | --- |",
          ...timings.map((timing) => `| \`${timing.url.replace(/\|/g, "\\|")}\` | ${timing.medianMs.toFixed(0)} ms | ${timing.maxMs.toFixed(0)} ms |`),
        ].join("\n"),
      );
      console.log("  recorded in bench/RESULTS.md");
    }
  } catch (error) {
    if (shop) console.error(shop.logs.join("").slice(-3000));
    if (beforeShop) console.error(beforeShop.logs.join("").slice(-3000));
    throw error;
  } finally {
    await shop?.stop();
    await beforeShop?.stop();
    await fresh.drop();
  }
}

await main();
