// Issue 10 Quality: the Despacho page for a day with 2 000 deliveries, server time p95 ≤ 300 ms.
//
// A throwaway database (a temporary PGlite folder; with DATABASE_URL, a new database on that
// PostgreSQL server, dropped afterwards), migrated and seeded like a first start, then 2 000
// deliveries bulk-inserted on one day across the served districts, both windows: paid card orders
// and some unpaid cash-code ones (amount to collect), one to three lines each (returnable bidones
// among them), a third already assigned to the demo repartidor. The real production build
// (scripts/serve.mjs) is started on that database, operaciones signs in, and
// GET /admin/despacho?fecha=… is timed from request to last byte, one request at a time
// (after a warm-up), so the numbers are the server's own time per page without queueing.
//
// Run from the repository root:
//   node --import tsx bench/despacho.ts                     # PGlite, 2 000 deliveries, 50 requests
//   scripts/with-throwaway-postgres.sh node --import tsx bench/despacho.ts
// Flags: --count=N (deliveries, default 2000), --requests=N (default 50), --record (write the
// result into bench/RESULTS.md), --no-build (measure build/ as it is).
import { randomUUID } from "node:crypto";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { addDays, limaToday } from "../core/lima-dates";
import { openDatabase, type Database } from "../server/db/client";
import { deliveries, districts, orderItems, orders, payments, productVariants, products, users } from "../server/db/schema";
import { DEMO_OPERACIONES, DEMO_REPARTIDOR } from "../server/db/seed/demo-accounts";
import { seedDemoShop } from "../server/db/seed/seed";
import { machine, startBench } from "./lib/fresh-database";
import { recordRow } from "./lib/results-table";
import { signIn, startShopOn } from "./lib/shop-on-database";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const COUNT = Number(flag("count") ?? 2000);
const REQUESTS = Number(flag("requests") ?? 50);
const WARMUP = 5;
const RECORD = args.includes("--record");
const TARGET_P95_MS = 300;

function chunks<T>(rows: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}

/** 2 000 deliveries on `date`, as checkout and payment leave them, inserted 500 rows a statement. */
export async function insertDay(db: Database, date: string, count: number, now: Date) {
  const served = await db.select({ id: districts.id, name: districts.name }).from(districts).where(eq(districts.served, true));
  const catalogue = await db
    .select({
      productId: products.id,
      variantId: productVariants.id,
      title: products.title,
      variantTitle: productVariants.title,
      sku: productVariants.sku,
      priceCents: productVariants.priceCents,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.active, true));
  const [driver] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
  const orderRows: (typeof orders.$inferInsert)[] = [];
  const itemRows: (typeof orderItems.$inferInsert)[] = [];
  const paymentRows: (typeof payments.$inferInsert)[] = [];
  const deliveryRows: (typeof deliveries.$inferInsert)[] = [];
  let position = 0;
  for (let index = 0; index < count; index += 1) {
    const id = randomUUID();
    const district = served[index % served.length]!;
    const window = index % 2 === 0 ? "manana" : "tarde";
    const cash = index % 10 === 0;
    const lines = Array.from({ length: 1 + (index % 3) }, (_, line) => catalogue[(index * 7 + line * 3) % catalogue.length]!);
    const subtotal = lines.reduce((sum, line) => sum + line.priceCents * 2, 0);
    orderRows.push({
      id,
      status: cash ? "payment_created" : "paid",
      orderType: "one-time",
      customerFirstName: "Cliente",
      customerLastName: `Banco ${index}`,
      customerEmail: `despacho-${index}@bench.pe`,
      customerPhone: "987654321",
      documentType: "dni",
      documentNumber: String(40_000_000 + index),
      districtId: district.id,
      districtName: district.name,
      address: `Av. Prueba ${index}`,
      deliveryDate: date,
      deliveryWindow: window,
      deliveryNotes: index % 4 === 0 ? "Tocar el timbre dos veces" : null,
      subtotalCents: subtotal,
      discountCents: 0,
      totalCents: subtotal,
      paymentProvider: "sandbox",
      paymentMethod: cash ? "cash" : "card",
      paidAt: cash ? null : now,
      createdAt: now,
      updatedAt: now,
    });
    for (const line of lines) {
      itemRows.push({
        orderId: id,
        productId: line.productId,
        variantId: line.variantId,
        title: line.title,
        variantTitle: line.variantTitle,
        sku: line.sku,
        unitPriceCents: line.priceCents,
        quantity: 2,
        lineTotalCents: line.priceCents * 2,
      });
    }
    paymentRows.push({
      orderId: id,
      provider: "sandbox",
      method: cash ? "cash" : "card",
      status: cash ? "pending" : "succeeded",
      amountCents: subtotal,
      paymentCode: cash ? String(10_000_000 + index) : null,
      settledAt: cash ? null : now,
      createdAt: now,
      updatedAt: now,
    });
    const assigned = index % 3 === 0;
    deliveryRows.push({
      orderId: id,
      districtId: district.id,
      districtName: district.name,
      address: `Av. Prueba ${index}`,
      deliveryDate: date,
      deliveryWindow: window,
      status: assigned ? "scheduled" : index % 3 === 1 ? "preparing" : "pending",
      statusHistory: [{ status: "pending", timestamp: now.toISOString(), note: null }],
      assignedDriverId: assigned ? driver!.id : null,
      routePosition: assigned ? (position += 1) : null,
      createdAt: now,
      updatedAt: now,
    });
  }
  for (const batch of chunks(orderRows)) await db.insert(orders).values(batch);
  for (const batch of chunks(itemRows)) await db.insert(orderItems).values(batch);
  for (const batch of chunks(paymentRows)) await db.insert(payments).values(batch);
  for (const batch of chunks(deliveryRows)) await db.insert(deliveries).values(batch);
  // As a long-running database would have them: the planner's statistics are current.
  await db.execute(sql`analyze`);
  return { districts: served.length };
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

const START = "<!-- bench:despacho — rows written by bench/despacho.ts --record -->";
const END = "<!-- /bench:despacho -->";

async function main() {
  const { loadAtStart, fresh } = await startBench("despacho", args);
  const now = new Date();
  const date = addDays(limaToday(now), 3);
  let server: Awaited<ReturnType<typeof startShopOn>> | undefined;
  try {
    console.log(`Database: ${fresh.label}; ${COUNT} deliveries on ${date}; machine: ${machine()}; load ${loadAtStart}`);
    const handle = await openDatabase(fresh.target);
    try {
      await handle.migrate(seedDemoShop);
      const made = await insertDay(handle.db, date, COUNT, now);
      console.log(`  inserted ${COUNT} deliveries across ${made.districts} districts`);
    } finally {
      await handle.close();
    }

    server = await startShopOn(fresh.env);
    const cookie = await signIn(server.origin, DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
    const url = `${server.origin}/admin/despacho?fecha=${date}`;
    // The same page as client-side navigation asks for it (loader data only, no HTML rendering),
    // to tell the database and loader's share from React's.
    const dataUrl = `${server.origin}/admin/despacho.data?fecha=${date}`;
    const times: number[] = [];
    const dataTimes: number[] = [];
    const floorTimes: number[] = [];
    let bytes = 0;
    let rows = 0;
    for (let index = 0; index < WARMUP + REQUESTS; index += 1) {
      let started = performance.now();
      const response = await fetch(url, { headers: { cookie, "accept-encoding": "gzip, br" } });
      const html = await response.text();
      const elapsed = performance.now() - started;
      if (response.status !== 200) throw new Error(`Despacho answered ${response.status}`);
      started = performance.now();
      const dataResponse = await fetch(dataUrl, { headers: { cookie, "accept-encoding": "gzip, br" } });
      await dataResponse.arrayBuffer();
      const dataElapsed = performance.now() - started;
      if (dataResponse.status !== 200) throw new Error(`Despacho's data answered ${dataResponse.status}`);
      // The floor every staff page pays (session, staff guard, layout): the staff home's data.
      started = performance.now();
      await (await fetch(`${server.origin}/admin.data`, { headers: { cookie, "accept-encoding": "gzip, br" } })).arrayBuffer();
      if (index >= WARMUP) floorTimes.push(performance.now() - started);
      if (index >= WARMUP) {
        times.push(elapsed);
        dataTimes.push(dataElapsed);
      }
      bytes = Buffer.byteLength(html);
      rows = html.match(/name="ids"/g)?.length ?? 0;
    }
    if (rows < COUNT) throw new Error(`the page shows ${rows} deliveries, expected at least ${COUNT}`);
    const sorted = [...times].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p95 = percentile(sorted, 95);
    const max = sorted.at(-1)!;
    const dataP95 = percentile(
      [...dataTimes].sort((a, b) => a - b),
      95,
    );
    const floorP95 = percentile(
      [...floorTimes].sort((a, b) => a - b),
      95,
    );
    const ok = p95 <= TARGET_P95_MS;
    console.log(
      `  ${REQUESTS} requests: p50 ${ms(p50)}, p95 ${ms(p95)} ${ok ? "✅" : "❌"} (target ≤ ${TARGET_P95_MS} ms), max ${ms(max)}; loader data alone p95 ${ms(dataP95)}; staff home's data p95 ${ms(floorP95)}; ${rows} rows, ${(bytes / 1024).toFixed(0)} KB of HTML`,
    );
    if (RECORD) {
      const engine = fresh.target.kind === "postgres" ? "PostgreSQL" : "PGlite";
      recordRow(
        { start: START, end: END },
        {
          config: engine,
          cells: [
            String(rows),
            String(REQUESTS),
            ms(p50),
            `${ms(p95)} ${ok ? "✅" : "❌"}`,
            ms(max),
            ms(dataP95),
            ms(floorP95),
            `${(bytes / 1024).toFixed(0)} KB`,
            new Date().toISOString().slice(0, 10),
            `${fresh.label}; ${machine}; load average at start ${loadAtStart}`,
          ],
        },
      );
      console.log("  recorded in bench/RESULTS.md");
    }
    if (!ok) process.exitCode = 1;
  } finally {
    await server?.stop();
    await fresh.drop();
  }
}

// Run as a script; importing the file (to profile the page's parts) runs nothing.
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
