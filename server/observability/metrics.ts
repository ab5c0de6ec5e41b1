import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus metrics (issue 27, decision 0081), scraped at /metrics with
 * `Authorization: Bearer $METRICS_TOKEN`. Counters and histograms count what this process did;
 * the gauges read from the database (outbox backlog and dead letters) describe the whole shop,
 * so every process reports the same value: take `max` across instances, never `sum`.
 */
export const metricsRegistry = new Registry();

let processMetrics = false;

/**
 * prom-client's process metrics (CPU, memory, event-loop lag, GC, handles), for the server
 * process only: the jobs command and the tests have no scraper.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/**
 * Labelled by the route's pattern (`/tienda/producto/:slug`), never the raw path (ids would make a
 * series per order and put references in the metrics), and by status class (2xx, 4xx, 5xx).
 */
const httpDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method, route pattern and status class",
  labelNames: ["method", "route", "status_class"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

const jobRuns = new Counter({
  name: "shop_job_runs_total",
  help: "Job runs in this process, by job",
  labelNames: ["job"] as const,
  registers: [metricsRegistry],
});
const jobFailures = new Counter({
  name: "shop_job_failures_total",
  help: "Job runs that threw, by job (each is logged and run again on the next pass)",
  labelNames: ["job"] as const,
  registers: [metricsRegistry],
});
const renewals = new Counter({
  name: "shop_renewals_total",
  help: "Subscription renewals handled by this process's jobs, by outcome (charged, declined, pastDue, reconciled, unknown, failed)",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});
const payments = new Counter({
  name: "shop_payments_total",
  help: "One-time payments settled in this process, by outcome (succeeded, failed)",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

/** Method names kept as labels; anything else is "other" (a label per invented method would grow forever). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpDuration.observe({ method: METHODS.has(method) ? method : "other", route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
}

export function observeJobRun(job: string, failed: boolean, result?: unknown): void {
  jobRuns.inc({ job });
  if (failed) jobFailures.inc({ job });
  if (job === "renewals" && result && typeof result === "object") {
    for (const [outcome, count] of Object.entries(result as Record<string, unknown>)) {
      if (typeof count === "number" && count > 0) renewals.inc({ outcome }, count);
    }
  }
}

export function observePayment(outcome: "succeeded" | "failed"): void {
  payments.inc({ outcome });
}

/** One queue of messages the jobs deliver (e-mail and WhatsApp). */
export interface OutboxSource {
  name: string;
  counts(): Promise<{ backlog: number; dead: number }>;
}

/** What the pool of database connections is doing now (PostgreSQL; the embedded database has none). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

interface DatabaseSources {
  outboxes: readonly OutboxSource[];
  pool?: () => PoolStats | undefined;
}

let sources: DatabaseSources = { outboxes: [] };

/** Given once the database is open (app/entry.server.tsx): what the database-backed gauges read. */
export function setMetricsSources(next: DatabaseSources): void {
  sources = next;
}

/** A scrape never waits longer than this on the database; a slow one leaves the gauges out. */
const COLLECT_TIMEOUT_MS = 2_000;

new Gauge({
  name: "shop_outbox_backlog",
  help: "Messages waiting to be delivered (pending or being sent), by outbox; the same in every process",
  labelNames: ["outbox"] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const [outbox, counts] of await outboxCounts()) this.set({ outbox }, counts.backlog);
  },
});

new Gauge({
  name: "shop_outbox_dead_letters",
  help: "Messages given up on, waiting for staff, by outbox; the same in every process",
  labelNames: ["outbox"] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const [outbox, counts] of await outboxCounts()) this.set({ outbox }, counts.dead);
  },
});

new Gauge({
  name: "shop_db_pool_connections",
  help: "This process's PostgreSQL connections: in_use, idle, and requests waiting for one",
  labelNames: ["state"] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    const stats = sources.pool?.();
    if (!stats) return;
    this.set({ state: "in_use" }, stats.total - stats.idle);
    this.set({ state: "idle" }, stats.idle);
    this.set({ state: "waiting" }, stats.waiting);
  },
});

type OutboxCounts = Map<string, { backlog: number; dead: number }>;

/** The counts of the scrape under way: both outbox gauges read them from one query per outbox. */
let scrapeCounts: Promise<OutboxCounts> | undefined;

const outboxCounts = () => scrapeCounts ?? readOutboxCounts();

/**
 * Each outbox's counts, leaving out one the database did not answer in time or at all: the scrape
 * still answers (a gauge left out is what Prometheus alerts on as absent), and the reason is
 * logged as a warning, so a failing query is seen in the logs and not only as a gap in a graph.
 */
async function readOutboxCounts(): Promise<OutboxCounts> {
  const counts: OutboxCounts = new Map();
  for (const outbox of sources.outboxes) {
    const read = await withinTimeout(outbox.counts());
    if ("value" in read) counts.set(outbox.name, read.value);
    else console.warn(`Metrics: the ${outbox.name} outbox's counts are left out of this scrape: ${read.failure}`);
  }
  return counts;
}

async function withinTimeout<T>(work: Promise<T>): Promise<{ value: T } | { failure: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ failure: string }>(
    (resolve) => (timer = setTimeout(() => resolve({ failure: `no answer within ${COLLECT_TIMEOUT_MS} ms` }), COLLECT_TIMEOUT_MS)),
  );
  try {
    return await Promise.race([
      work.then(
        (value) => ({ value }),
        (error: unknown) => ({ failure: String(error) }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The text a Prometheus server scrapes. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const counts = readOutboxCounts();
  scrapeCounts = counts;
  try {
    return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
  } finally {
    if (scrapeCounts === counts) scrapeCounts = undefined;
  }
}
