import type { Database } from "./client";

/** A transaction handle as Drizzle passes it to `db.transaction`'s callback. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Functions that work alone or inside a caller's transaction take this. */
export type DatabaseOrTransaction = Database | Transaction;

/**
 * SQLSTATEs PostgreSQL uses to abort a transaction that did nothing wrong and may simply be run
 * again: a deadlock (40P01) or a serialization failure (40001). Decision 0025.
 */
const RETRYABLE_SQLSTATES = new Set(["40P01", "40001"]);

export const MAX_TRANSACTION_ATTEMPTS = 5;

export interface TransactionOptions {
  /** Names the transaction in the one log line a retry writes. */
  label?: string;
  /** Tests shorten the pause between attempts; production keeps the jittered default. */
  backoffMs?: (attempt: number) => number;
}

/**
 * Runs `work` in one transaction and runs it again, whole, when PostgreSQL aborts it as a deadlock
 * or serialization failure — a bounded number of times, after a jittered pause so the two
 * transactions that collided do not collide again. Any other error, or the last retryable one,
 * reaches the caller unchanged.
 *
 * Given a caller's transaction, `work` runs in a savepoint of it (Drizzle's nested transaction):
 * the caller's transaction owns the commit and the retries.
 *
 * `work` must only touch the database: it may run more than once, and nothing it did survives an
 * aborted attempt. Provider calls (charges, refunds, SMTP) happen before or after, never inside.
 */
export async function inTransaction<T>(db: DatabaseOrTransaction, work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const backoff = options.backoffMs ?? jitteredBackoff;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const state = retryableState(error);
      if (!state || attempt >= MAX_TRANSACTION_ATTEMPTS) throw error;
      // Logged once per call: rare by design (decision 0025's lock order), so worth seeing, not worth a flood.
      if (attempt === 1)
        console.warn(
          `Transaction ${options.label ?? callerOf(new Error())} aborted by PostgreSQL (${state}); retrying up to ${MAX_TRANSACTION_ATTEMPTS - 1} times`,
        );
      await pause(backoff(attempt));
    }
  }
}

/** The SQLSTATE that makes `error` worth retrying, looked for along its cause chain (Drizzle wraps driver errors). */
export function retryableState(error: unknown): string | null {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && RETRYABLE_SQLSTATES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function jitteredBackoff(attempt: number): number {
  const ceiling = 20 * 2 ** attempt;
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Where the transaction was started, for the log line of an unlabelled retry. */
function callerOf(marker: Error): string {
  const frames = (marker.stack ?? "")
    .split("\n")
    .slice(1)
    .map((line) => line.trim());
  return frames.find((frame) => !frame.includes("transaction.ts") && !frame.includes("node:internal")) ?? "(unknown caller)";
}

/** A refusal decided inside a transaction: thrown, so nothing the attempt wrote commits. */
class TransactionRefusal<T> extends Error {
  override name = "TransactionRefusal";
  constructor(readonly answer: T) {
    super("Refused inside a transaction");
  }
}

/**
 * `inTransaction` for an action that may refuse (decision 0071: authorise and lock first, write
 * after; a refusal rolls back). `work` calls `refuse(answer)` to throw its answer: the transaction
 * rolls back whatever it wrote, and the caller gets `answer` as the result. A refusal is final: it
 * is never retried.
 */
export async function inRefusableTransaction<T>(
  db: DatabaseOrTransaction,
  work: (tx: Transaction, refuse: (answer: T) => never) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const refuse = (answer: T): never => {
    throw new TransactionRefusal(answer);
  };
  try {
    return await inTransaction(db, (tx) => work(tx, refuse), options);
  } catch (error) {
    if (error instanceof TransactionRefusal) return error.answer as T;
    throw error;
  }
}
