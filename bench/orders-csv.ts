// Issue 10 Quality: "CSV export of 100 000 orders (time, and server memory growth ≤ 100 MB)", and
// the staff order list's searches on the same 100 000 orders.
//
// A fresh database (embedded PGlite by default; a new database on the PostgreSQL server of
// DATABASE_URL when it is set), migrated and seeded like a first start, then 100 000 orders
// inserted in one statement (a year of them, every status, district, payment method and type).
// The database is handed to the real production server (scripts/serve.mjs on build/), which signs
// in the demo operaciones account; the bench then times the list page for the common searches
// and downloads /admin/pedidos/exportar while it samples the server's resident memory
// (/proc/<pid>/status, every 20 ms). The download is read as it arrives and never kept: only
// lines are counted, and the count must equal the orders in the database.
//
// Run from the repository root:
//   node --import tsx bench/orders-csv.ts [--count=100000] [--record]
//   scripts/with-throwaway-postgres.sh node --import tsx bench/orders-csv.ts --record
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { count, sql } from "drizzle-orm";
import { openDatabase } from "../server/db/client";
import { districts, orders } from "../server/db/schema";
import { seedDemoShop } from "../server/db/seed/seed";
import { DEMO_OPERACIONES } from "../server/db/seed/demo-accounts";
import { freshDatabase, machine } from "./lib/fresh-database";
import { ensureBuild, freePort } from "./lib/server.mjs";

const BENCH_DIR = import.meta.dirname;
const ROOT = path.resolve(BENCH_DIR, "..");
const args = process.argv.slice(2);
const flag = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const COUNT = Number(flag("count") ?? 100_000);
const RECORD = args.includes("--record");
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

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

async function startShop(env: Record<string, string>) {
  const port: number = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/serve.mjs")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: origin,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      SEED_DEMO_DATA: "true",
      ALLOW_SANDBOX_PAYMENTS: "true",
      JOBS_INTERVAL_SECONDS: "0",
      CLIENT_RATE_LIMIT_FACTOR: "100",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The shop exited during start:\n${output}`);
    const ok = await fetch(`${origin}/robots.txt`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await sleep(250);
  }
  return {
    origin,
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000).then(() => child.kill("SIGKILL"))]);
    },
  };
}

/** Signs in through the real /login form (tests/support/accounts.ts does the same for the tests). */
async function signIn(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/login`, {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }),
    redirect: "manual",
  });
  if (response.status !== 302) throw new Error(`Sign-in of ${email} failed with ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
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

async function main() {
  const loadAtStart = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");
  const built = ensureBuild(ROOT);
  const fresh = await freshDatabase("orders_csv");
  let shop: Awaited<ReturnType<typeof startShop>> | undefined;
  try {
    console.log(`Database: ${fresh.label}; ${COUNT} orders; machine: ${machine()}; build ${built.rebuilt ? "rebuilt" : "current"}`);
    let mark = performance.now();
    const handle = await openDatabase(fresh.target);
    let inDatabase = 0;
    let sample: { email: string; name: string; phone: string; document: string; number: string };
    try {
      await handle.migrate(seedDemoShop);
      await insertOrders(handle.db, COUNT);
      const [counted] = await handle.db.select({ n: count() }).from(orders);
      inDatabase = Number(counted!.n);
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
    console.log(`  migrated, seeded and inserted ${COUNT} orders (${inDatabase} in all) in ${((performance.now() - mark) / 1000).toFixed(1)} s`);

    shop = await startShop(fresh.target.kind === "postgres" ? { DATABASE_URL: fresh.target.url } : { PGLITE_DATA_DIR: fresh.target.dataDir });
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

    const before = rssOf(shop.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(shop!.pid));
    }, 20);
    mark = performance.now();
    const response = await fetch(`${shop.origin}/admin/pedidos/exportar`, { headers: { cookie } });
    let bytes = 0;
    let lineEnds = 0;
    let firstByteMs = 0;
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes === 0) firstByteMs = performance.now() - mark;
      bytes += value.byteLength;
      for (const byte of value) if (byte === 0x0d) lineEnds += 1;
    }
    const exportMs = performance.now() - mark;
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(shop.pid));
    // Each order is one CRLF-ended line after the header; the line breaks inside addresses are bare LF.
    const rows = lineEnds - 1;
    const growth = peak - before;
    const checks: [string, boolean][] = [
      ["HTTP 200, text/csv; charset=utf-8", response.status === 200 && response.headers.get("content-type") === "text/csv; charset=utf-8"],
      [`${inDatabase} rows exported (every order, once)`, rows === inDatabase],
      ["server RSS growth ≤ 100 MB", growth <= 100 * MB],
    ];
    console.log(
      `  export: ${(exportMs / 1000).toFixed(1)} s, first byte after ${firstByteMs.toFixed(0)} ms, ${(bytes / MB).toFixed(1)} MB, ${rows} rows; server RSS ${(before / MB).toFixed(0)} MB before, peak +${(growth / MB).toFixed(1)} MB`,
    );
    for (const [label, ok] of checks) console.log(`  ${ok ? "ok  " : "FAIL"} ${label}`);
    const failed = checks.filter(([, ok]) => !ok);
    if (failed.length > 0) throw new Error(`CSV export bench failed: ${failed.map(([label]) => label).join("; ")}`);

    if (RECORD) {
      const engine = fresh.target.kind === "postgres" ? "PostgreSQL" : "PGlite";
      record(
        engine,
        [
          String(inDatabase),
          `${(exportMs / 1000).toFixed(1)} s (first byte ${firstByteMs.toFixed(0)} ms)`,
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
    if (shop) console.error(shop.output().slice(-3000));
    throw error;
  } finally {
    await shop?.stop();
    await fresh.drop();
  }
}

await main();
