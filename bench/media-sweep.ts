// Decision 0065: what one media sweep costs with 10 000 products of 8 pictures each.
//
// A throwaway database (PGlite in a temporary folder; with DATABASE_URL, a new database on that
// PostgreSQL server), migrated, then filled in two INSERT … SELECT statements: N products, each
// with a gallery of 8 pictures (products.image = the first). A temporary uploads folder gets both
// files (-400, -800) of every picture, plus the files of --unused=M pictures no row names, two days
// old. Then, timed in this process:
//   1. the set of named hashes alone (one statement), with the heap it holds;
//   2. a sweep that deletes the unused files (2·M deletions);
//   3. a second sweep that finds nothing to delete (the steady state of an hourly job).
//
// Run from the repository root:
//   node --expose-gc --import tsx bench/media-sweep.ts                                   # PGlite
//   scripts/with-throwaway-postgres.sh node --expose-gc --import tsx bench/media-sweep.ts
// Flags: --products=N (default 10000), --unused=M (default 500).
import { mkdtempSync, rmSync } from "node:fs";
import { utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "../server/db/client";
import { namedMediaHashes } from "../server/media/media-references";
import { sweepUnusedMedia } from "../server/media/sweep";
import { freshDatabase, machine } from "./lib/fresh-database";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const PRODUCTS = Number(flag("products") ?? 10_000);
const UNUSED = Number(flag("unused") ?? 500);
const PICTURES = 8;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

async function main() {
  const fresh = await freshDatabase("media");
  const uploads = mkdtempSync(path.join(os.tmpdir(), "bench-media-uploads-"));
  const handle = await openDatabase(fresh.target);
  try {
    await handle.migrate();
    const db = handle.db;
    await db.execute(
      sql.raw(`insert into products (slug, title, description, image, active)
        select 'producto-' || i, 'Producto ' || i, '', '/media/' || left(md5('p' || i || '-1'), 24) || '-400.webp', true
        from generate_series(1, ${PRODUCTS}) as i`),
    );
    await db.execute(
      sql.raw(`insert into product_images (product_id, image, position)
        select p.id, '/media/' || left(md5('p' || substring(p.slug from 10) || '-' || j), 24) || '-400.webp', j
        from products p cross join generate_series(1, ${PICTURES}) as j where p.slug like 'producto-%'`),
    );
    const named = await namedMediaHashes(db);
    const started = Date.now();
    for (const hash of named) for (const width of [400, 800]) await writeFile(path.join(uploads, `${hash}-${width}.webp`), "");
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    for (let unused = 0; unused < UNUSED; unused += 1) {
      const hash = unused.toString(16).padStart(24, "0");
      for (const width of [400, 800]) {
        const file = path.join(uploads, `${hash}-${width}.webp`);
        await writeFile(file, "");
        await utimes(file, twoDaysAgo, twoDaysAgo);
      }
    }
    console.log(
      `filled: ${PRODUCTS} products × ${PICTURES} pictures, ${named.size} named hashes, ${2 * named.size + 2 * UNUSED} files (${Date.now() - started} ms to write them)`,
    );

    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    let cpu = process.cpuUsage();
    let t = performance.now();
    const set = await namedMediaHashes(db);
    const namedMs = performance.now() - t;
    const namedCpu = process.cpuUsage(cpu);
    gc();
    const heapHeld = process.memoryUsage().heapUsed - heapBefore;
    console.log(
      `named set: ${set.size} hashes in ${namedMs.toFixed(0)} ms (this process's CPU ${((namedCpu.user + namedCpu.system) / 1000).toFixed(0)} ms), heap held ${(heapHeld / 2 ** 20).toFixed(1)} MiB`,
    );

    cpu = process.cpuUsage();
    t = performance.now();
    const first = await sweepUnusedMedia(db, { dir: uploads });
    const firstCpu = process.cpuUsage(cpu);
    console.log(
      `sweep deleting ${2 * UNUSED} files: ${(performance.now() - t).toFixed(0)} ms (CPU ${((firstCpu.user + firstCpu.system) / 1000).toFixed(0)} ms)`,
      first,
    );
    cpu = process.cpuUsage();
    t = performance.now();
    const second = await sweepUnusedMedia(db, { dir: uploads });
    const secondCpu = process.cpuUsage(cpu);
    console.log(
      `sweep with nothing to delete: ${(performance.now() - t).toFixed(0)} ms (CPU ${((secondCpu.user + secondCpu.system) / 1000).toFixed(0)} ms)`,
      second,
    );
    console.log(`${fresh.label}; ${machine()}`);
  } finally {
    await handle.close();
    await fresh.drop();
    rmSync(uploads, { recursive: true, force: true });
  }
}

await main();
