import { env } from "../config/env";
import type { Database } from "../db/client";
import { runDueJobs } from "./run-due-jobs";

let timer: NodeJS.Timeout | undefined;
let runNow: (() => Promise<void>) | undefined;

/**
 * Runs the due jobs in this process every JOBS_INTERVAL_SECONDS (decisions.md: renewals and
 * reminders are created by the shop itself). A run never overlaps the previous one.
 */
export function startJobScheduler(db: Database): void {
  const seconds = env().JOBS_INTERVAL_SECONDS;
  if (seconds <= 0 || timer) return;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await runDueJobs(db, { now: new Date() });
    } catch (error) {
      console.error("Scheduled jobs failed", error);
    } finally {
      running = false;
    }
  };
  runNow = tick;
  timer = setInterval(tick, seconds * 1000);
  timer.unref();
  void tick();
}

/**
 * Runs the due jobs now instead of at the next tick: called after queueing an email the customer
 * is waiting for (a reset link), once the transaction that queued it has committed.
 */
export function runJobsSoon(): void {
  if (runNow) setImmediate(() => void runNow?.());
}
