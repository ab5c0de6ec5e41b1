import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DatabaseOrTransaction, Transaction } from "../db/transaction";
import { historyEntries, organizations, productImages, products, users } from "../db/schema";
import { storedNamesOf } from "./images";

/**
 * Every column that may hold a stored upload's path (`/media/<hash>-<width>.webp`). A file no row
 * of these names is unused and may be swept (decision 0065). Organisations and history entries
 * take a typed site path too, so staff can point one at an uploaded picture; `users.image` is
 * better-auth's and the shop never writes it, but it costs one scan to be sure.
 *
 * Deliberately not here: the audit log (`staff_actions` before/after), which records what a row
 * held, not what the shop shows. Carts kept in browsers and e-mails already sent may still show
 * a removed picture; they get the 404 any unknown picture gets (decision 0057 accepted that).
 * tests/integration/media-sweep.test.ts fails when a table gains an image-like column that is
 * missing here.
 */
export const MEDIA_PATH_COLUMNS: readonly { table: PgTable; column: AnyPgColumn }[] = [
  { table: products, column: products.image },
  { table: productImages, column: productImages.image },
  { table: organizations, column: organizations.image },
  { table: historyEntries, column: historyEntries.image },
  { table: users, column: users.image },
];

/**
 * The content hashes some row names, as one set: one statement, a scan of each table listed
 * above, de-duplicated here (cheaper than asking PostgreSQL to sort them). At 10 000 products with
 * 8 pictures each that is at most ~80 000 strings of 24 characters: about 5 MiB of heap for the
 * length of a sweep (bench/media-sweep.ts). A malformed path yields a "hash" no file has.
 */
export async function namedMediaHashes(db: DatabaseOrTransaction): Promise<Set<string>> {
  const selects = MEDIA_PATH_COLUMNS.map(({ table, column }) => sql`select substr(${column}, 8, 24) as hash from ${table} where ${column} like '/media/%'`);
  const result = await db.execute(sql.join(selects, sql` union all `));
  return new Set(rowsOf<{ hash: string }>(result).map((row) => row.hash));
}

/** Which of `hashes` a row names now (both sizes of each); the sweep asks again under its lock. */
export async function namedAmong(tx: Transaction, hashes: readonly string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const paths = hashes.flatMap((hash) => storedNamesOf(hash).map((name) => `/media/${name}`));
  const inPaths = (column: AnyPgColumn): SQL =>
    sql`${column} in (${sql.join(
      paths.map((value) => sql`${value}`),
      sql`, `,
    )})`;
  const selects = MEDIA_PATH_COLUMNS.map(({ table, column }) => sql`select ${column} as image from ${table} where ${inPaths(column)}`);
  const result = await tx.execute(sql.join(selects, sql` union all `));
  return new Set(rowsOf<{ image: string }>(result).map((row) => row.image.slice("/media/".length, "/media/".length + 24)));
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
