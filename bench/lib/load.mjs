// Server latency and throughput, loopback only, every loop bounded by a request count or duration.
//
// "p95 at 100 requests/second" is measured with our own evenly paced, open-loop generator
// (undici), not with autocannon's overallRate. autocannon's rate limit is a per-connection,
// per-second budget: each connection fires its share back-to-back at the start of every second
// and then idles (lib/httpClient.js, reqsMadeThisSecond). At 100 req/s that is a burst of 100
// requests each second, so its latencies measure how long the server takes to drain a burst,
// not how it behaves under a steady 100 req/s. We still run it, labelled as such, because it is
// the conventional number and the gap between the two is informative.
//
// Why latencies are recorded per request instead of read from autocannon's result.latency:
//  - autocannon reports p90 and p97.5 but no p95, and our target is on p95;
//  - its histogram has whole-millisecond resolution;
//  - in rate mode it "corrects" for coordinated omission with an expected interval of
//    ceil(1 / per-connection rate) = 1 ms, adding synthetic samples to every request slower
//    than 1 ms, which inflates its percentiles beyond what requests actually took.
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { Pool } from "undici";

// A browser-like document request: visitors send Accept-Encoding, so the server's compression
// cost is part of what they wait for and must be part of what we measure.
export const HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "user-agent": "agua-alcalina-bench",
};

/** Nearest-rank percentile: the smallest sample with at least p% of samples at or below it. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

function summarize({ latencies, durationS, errors, timeouts, non2xx, targetRate = null }) {
  const sorted = Float64Array.from(latencies).sort();
  const round = (value) => (value === null ? null : Math.round(value * 100) / 100);
  return {
    targetRate,
    durationS: round(durationS),
    responses: latencies.length,
    achievedRate: round(latencies.length / durationS),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1] : null),
    errors,
    timeouts,
    non2xx,
  };
}

/**
 * Open-loop load: request i is due at start + i / rate, whether or not earlier ones have been
 * answered, and its latency counts from that due time. A stalled server or a late client loop
 * therefore shows up in the numbers (no coordinated omission). The pool's connection cap keeps
 * an overwhelmed server from making us open unbounded sockets; requests beyond it queue in the
 * client and that wait is counted too.
 */
export async function paced(origin, pathname, { rate, durationS, maxConnections = 64, timeoutMs = 10_000 }) {
  const pool = new Pool(origin, { connections: maxConnections, pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const total = Math.round(rate * durationS);
  const intervalMs = 1000 / rate;
  const latencies = [];
  let errors = 0;
  let timeouts = 0;
  let non2xx = 0;
  const inFlight = [];
  const start = performance.now() + 20;
  try {
    for (let i = 0; i < total; i++) {
      const due = start + i * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      inFlight.push(
        pool
          .request({ path: pathname, method: "GET", headers: HEADERS })
          .then(async ({ statusCode, body }) => {
            // The visitor waits for the whole document, so the clock stops at the last byte.
            await body.arrayBuffer();
            latencies.push(performance.now() - due);
            if (statusCode < 200 || statusCode >= 300) non2xx++;
          })
          .catch((error) => {
            if (/Timeout/i.test(error?.code ?? error?.name ?? "")) timeouts++;
            else errors++;
          }),
      );
    }
    await Promise.all(inFlight);
  } finally {
    await pool.close();
  }
  return summarize({ latencies, durationS: (performance.now() - start) / 1000, errors, timeouts, non2xx, targetRate: rate });
}

/** One bounded autocannon run (duration always set), keeping every response's own duration. */
export function autocannonRun(options, { targetRate = null } = {}) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const instance = autocannon({ timeout: 10, headers: HEADERS, ...options }, (error, result) => {
      if (error) reject(error);
      else resolve(summarize({ latencies, durationS: result.duration, errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx, targetRate }));
    });
    instance.on("response", (_client, _statusCode, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/**
 * For each path: warm-up, a light paced run, the paced fixed-rate run (the one the target applies to), autocannon at
 * the same overallRate for reference, then autocannon closed-loop for maximum throughput.
 * The warm-up lets V8 optimise the render path and fills PGlite's caches, so the measured runs
 * see steady state rather than the first cold requests.
 */
export async function measureServer(origin, paths, { warmupS, lightRate, lightS, fixedRate, fixedS, fixedConnections, maxConnections, maxS }) {
  const results = [];
  for (const pathname of paths) {
    const url = origin + pathname;
    await paced(origin, pathname, { rate: fixedRate, durationS: warmupS });
    // A light load first gives the per-request cost with no queueing, which tells apart "each
    // render is slow" from "the server cannot keep up with the rate" when the target is missed.
    const light = await paced(origin, pathname, { rate: lightRate, durationS: lightS });
    console.log(`  ${pathname} paced ${lightRate} req/s: p50 ${light.p50} ms, p95 ${light.p95} ms`);
    const fixed = await paced(origin, pathname, { rate: fixedRate, durationS: fixedS });
    console.log(`  ${pathname} paced ${fixedRate} req/s: p50 ${fixed.p50} ms, p95 ${fixed.p95} ms, p99 ${fixed.p99} ms`);
    const bursty = await autocannonRun({ url, connections: fixedConnections, overallRate: fixedRate, duration: fixedS }, { targetRate: fixedRate });
    console.log(`  ${pathname} autocannon overallRate ${fixedRate}: p50 ${bursty.p50} ms, p95 ${bursty.p95} ms, ${bursty.achievedRate} req/s`);
    // Max throughput: each connection sends its next request as soon as the previous answer
    // arrives, so requests per second is the server's capacity on this machine (shared with
    // the load generator itself: 2 cores run both).
    const max = await autocannonRun({ url, connections: maxConnections, duration: maxS });
    console.log(`  ${pathname} max (${maxConnections} connections): ${max.achievedRate} req/s, p95 ${max.p95} ms`);
    results.push({ path: pathname, light, fixed, autocannonFixed: bursty, max, maxConnections });
  }
  return results;
}
