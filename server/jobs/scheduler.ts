import { env } from "../config/env";
import type { Database } from "../db/client";
import { collectQueuedWork, type QueuedWork } from "../db/queued-work";
import type { MailTransport } from "../notifications/index.server";
import { jobNames, runDueJobs, type JobName } from "./run-due-jobs";

export interface JobSchedulerOptions {
  /** Seconds between passes; 0 means no timer (jobs then run only when asked). */
  intervalSeconds: number;
  clock?: () => Date;
  transport?: MailTransport;
}

export interface JobScheduler {
  /** One pass of every job, each skipped-and-rerun if it is already running. */
  tick(): Promise<void>;
  /** Runs one job now, or once more right after its current run if it is running. */
  run(name: JobName): Promise<void>;
  /**
   * `run` on the next turn of the event loop, for a route that just committed its change. What
   * that run queues for another job (a comprobante's e-mail) is run soon too.
   */
  runSoon(name: JobName): void;
  /** Resolves once nothing is running or about to run. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs the jobs in this process (decisions.md: renewals and reminders are created by the shop
 * itself). Each job runs on its own: it never overlaps itself, one job's run never waits for
 * another's, and a job that throws is logged and tried again on the next pass (runDueJobs never
 * throws for a job's error; the catch here is for anything else, so the process never crashes).
 */
export function createJobScheduler(db: Database, options: JobSchedulerOptions): JobScheduler {
  const clock = options.clock ?? (() => new Date());
  // Aborted by stop(): no job starts after it, and the running one stops after its current row.
  const stopping = new AbortController();
  const running = new Map<JobName, Promise<void>>();
  const again = new Set<JobName>();
  const soon = new Set<Promise<void>>();
  let passing = false;

  const runOnce = async (name: JobName) => {
    try {
      await runDueJobs(db, { now: clock(), only: [name], transport: options.transport, signal: stopping.signal });
    } catch (error) {
      console.error(`Job "${name}" could not run:`, error);
    }
  };

  const run = (name: JobName): Promise<void> => {
    const current = running.get(name);
    if (current) {
      // Whatever was queued after this run read its rows is picked up by one more run.
      again.add(name);
      return current;
    }
    const work = (async () => {
      do {
        again.delete(name);
        await runOnce(name);
      } while (again.has(name) && !stopping.signal.aborted);
    })().finally(() => running.delete(name));
    running.set(name, work);
    return work;
  };

  const tick = async () => {
    if (passing) return;
    passing = true;
    try {
      for (const name of jobNames) if (!stopping.signal.aborted) await run(name);
    } finally {
      passing = false;
    }
  };

  const timer = options.intervalSeconds > 0 ? setInterval(() => void tick(), options.intervalSeconds * 1000) : undefined;
  timer?.unref();

  const runSoon = (name: JobName): void => {
    const later = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const { result, queued } = collectQueuedWork(() => run(name));
      await result;
      for (const work of queued) if (work !== name && !stopping.signal.aborted) runSoon(work);
    });
    soon.add(later);
    void later.finally(() => soon.delete(later));
  };

  const idle = async () => {
    while (soon.size > 0 || running.size > 0) await Promise.all([...soon, ...running.values()]);
  };

  return {
    tick,
    run,
    runSoon,
    idle,
    async stop() {
      if (timer) clearInterval(timer);
      stopping.abort();
      await idle();
    },
  };
}

let scheduler: JobScheduler | undefined;

/** Starts the process's scheduler: a pass now, then every JOBS_INTERVAL_SECONDS (0 turns jobs off). */
export function startJobScheduler(db: Database): void {
  const seconds = env().JOBS_INTERVAL_SECONDS;
  if (seconds <= 0 || scheduler) return;
  scheduler = createJobScheduler(db, { intervalSeconds: seconds });
  void scheduler.tick();
}

/**
 * SIGTERM (issue 27): no new pass or job starts; the job running finishes its current row (or
 * batch) and gives back what it claimed. Resolves when nothing runs any more.
 */
export async function stopJobScheduler(): Promise<void> {
  const running = scheduler;
  scheduler = undefined;
  await running?.stop();
}

/**
 * Runs one job now instead of at the next tick: e.g. `runJobSoon("emails")` after queueing an
 * email the customer is waiting for (a reset link), once the transaction that queued it has
 * committed. Only that job runs, not the renewals and the rest of a pass.
 */
export function runJobSoon(name: JobName): void {
  scheduler?.runSoon(name);
}

/**
 * Runs `work` (the handling of one HTTP request: the root middleware wraps every request in it)
 * noting the outbox rows it queues; once it is done, and so its transactions have committed, the
 * jobs that send them run at once rather than at the next pass. This is what sends the order
 * confirmation, a payment's comprobante and e-mail, a reset link or a WhatsApp message without
 * waiting up to JOBS_INTERVAL_SECONDS, whichever route or webhook queued them.
 */
export async function sendWhatWorkQueues<T>(work: () => Promise<T>): Promise<T> {
  const { result, queued } = collectQueuedWork(work);
  try {
    return await result;
  } finally {
    queued.forEach((job: QueuedWork) => runJobSoon(job));
  }
}
