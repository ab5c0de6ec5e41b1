import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "./client";
import { jobRowFailures } from "./schema";
import { retryableState, type Transaction } from "./transaction";

type DatabaseOrTransaction = Database | Transaction;

/**
 * Records that `job` could not handle one row and logs it once, so the pass can go on with the
 * others (decision 0025: a job never dies on one row). The row is tried again on the next pass.
 */
export async function recordRowFailure(db: DatabaseOrTransaction, job: string, rowId: string, error: unknown, now: Date): Promise<void> {
  const message = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 2000);
  console.error(`Job ${job} could not handle ${rowId}; the pass goes on and the next one retries it: ${message}`);
  await db
    .insert(jobRowFailures)
    .values({ job, rowId, message, firstFailedAt: now, lastFailedAt: now })
    .onConflictDoUpdate({
      target: [jobRowFailures.job, jobRowFailures.rowId],
      set: { message, lastFailedAt: now, failures: sql`${jobRowFailures.failures} + 1` },
    });
}

/**
 * Rows that went through on this pass: a failure line any of them left on an earlier pass goes,
 * and with it the staff home's alarm. One statement for the pass's rows, not one per row: the
 * table is almost always empty and the passes are large (renewals).
 */
export async function clearRowFailures(db: DatabaseOrTransaction, job: string, rowIds: readonly string[]): Promise<void> {
  if (rowIds.length === 0) return;
  await db.delete(jobRowFailures).where(and(eq(jobRowFailures.job, job), inArray(jobRowFailures.rowId, [...rowIds])));
}

export async function rowFailures(db: DatabaseOrTransaction, job?: string) {
  return db
    .select()
    .from(jobRowFailures)
    .where(job ? eq(jobRowFailures.job, job) : undefined)
    .orderBy(jobRowFailures.lastFailedAt);
}

/**
 * Runs `work` for one row of a batch claimed in `tx`, inside a savepoint: a row that throws is
 * rolled back alone, recorded, and the batch's other rows (and their claims) still commit.
 * Returns false when the row failed; the caller clears the failures of the rows that went through
 * (`clearRowFailures`, once for the batch). A deadlock or serialization failure is not the row's fault: it
 * aborts the whole transaction, for `inTransaction` to run again.
 */
export async function inRowSavepoint(tx: Transaction, job: string, rowId: string, now: Date, work: (row: Transaction) => Promise<void>): Promise<boolean> {
  try {
    await tx.transaction(work);
    return true;
  } catch (error) {
    if (retryableState(error)) throw error;
    await recordRowFailure(tx, job, rowId, error, now);
    return false;
  }
}

/**
 * Runs `work` for each row on its own (each usually its own transaction): a row that throws is
 * recorded and the loop goes on (decision 0025); the failures of the rows that went through are
 * cleared. Returns how many rows failed.
 */
export async function forEachRowOnItsOwn<T>(
  db: Database,
  job: string,
  rows: readonly T[],
  rowId: (row: T) => string,
  now: Date,
  work: (row: T) => Promise<void>,
): Promise<number> {
  let failed = 0;
  const succeeded: string[] = [];
  for (const row of rows) {
    try {
      await work(row);
      succeeded.push(rowId(row));
    } catch (error) {
      failed += 1;
      await recordRowFailure(db, job, rowId(row), error, now);
    }
  }
  await clearRowFailures(db, job, succeeded);
  return failed;
}
