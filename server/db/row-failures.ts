import { and, eq, sql } from "drizzle-orm";
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

/** A row that failed before went through: its failure line goes. */
export async function clearRowFailure(db: DatabaseOrTransaction, job: string, rowId: string): Promise<void> {
  await db.delete(jobRowFailures).where(and(eq(jobRowFailures.job, job), eq(jobRowFailures.rowId, rowId)));
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
 * Returns false when the row failed. A deadlock or serialization failure is not the row's fault: it
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
 * recorded and the loop goes on (decision 0025). Returns how many rows failed.
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
  for (const row of rows) {
    try {
      await work(row);
    } catch (error) {
      failed += 1;
      await recordRowFailure(db, job, rowId(row), error, now);
    }
  }
  return failed;
}
