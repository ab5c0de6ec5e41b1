// Server latency and throughput with autocannon, loopback only.
//
// Why we record latencies ourselves instead of reading autocannon's result.latency:
//  - autocannon reports p90 and p97.5 but no p95, and our target is on p95;
//  - its histogram has whole-millisecond resolution;
//  - in fixed-rate mode it "corrects" for coordinated omission with an expected interval of
//    ceil(1 / per-connection rate) = 1 ms, which adds synthetic samples to every request slower
//    than 1 ms and inflates its percentiles far beyond what requests actually took.
// The 'response' event gives each request's measured duration (write to last byte, float ms),
// so we keep those and compute exact nearest-rank percentiles.
import autocannon from "autocannon";

// A browser-like document request: visitors send Accept-Encoding, so the server's compression
// cost is part of what they wait for and must be part of what we measure.
const HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "user-agent": "agua-alcalina-bench (autocannon)",
};

/** Nearest-rank percentile: the smallest sample with at least p% of samples at or below it. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** One bounded autocannon run; duration is in seconds and always set, so it always ends. */
function run(options) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const instance = autocannon({ timeout: 10, headers: HEADERS, ...options }, (error, result) => {
      if (error) reject(error);
      else resolve({ result, latencies });
    });
    instance.on("response", (_client, _statusCode, _bytes, responseTime) => latencies.push(responseTime));
  });
}

function summarize({ result, latencies }, { targetRate = null } = {}) {
  const sorted = Float64Array.from(latencies).sort();
  const round = (value) => (value === null ? null : Math.round(value * 100) / 100);
  return {
    targetRate,
    durationS: result.duration,
    responses: latencies.length,
    achievedRate: round(latencies.length / result.duration),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1] : null),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    // autocannon's own per-second average, kept as a cross-check of achievedRate.
    autocannonRequestsPerSecond: result.requests.average,
  };
}

/**
 * For each path: warm-up, a fixed-rate run, then a closed-loop max-throughput run.
 * The warm-up lets V8 optimise the render path and fills PGlite's caches, so the fixed-rate run
 * measures steady state rather than the first few cold requests.
 */
export async function measureServer(origin, paths, { warmupS, fixedRate, fixedS, fixedConnections, maxConnections, maxS }) {
  const results = [];
  for (const pathname of paths) {
    const url = origin + pathname;
    await run({ url, connections: fixedConnections, overallRate: fixedRate, duration: warmupS });
    // Fixed rate: open-loop-ish load at a realistic level; with fixedConnections connections each
    // sends fixedRate / fixedConnections requests per second, so a slow response only delays its
    // own connection and the achieved rate shows whether the server kept up.
    const fixed = summarize(await run({ url, connections: fixedConnections, overallRate: fixedRate, duration: fixedS }), { targetRate: fixedRate });
    console.log(`  ${pathname} @ ${fixedRate} req/s: p50 ${fixed.p50} ms, p95 ${fixed.p95} ms, p99 ${fixed.p99} ms`);
    // Max throughput: each connection sends its next request as soon as the previous answer
    // arrives, so requests per second is the server's capacity on this machine (shared with
    // autocannon itself: 2 cores run both).
    const max = summarize(await run({ url, connections: maxConnections, duration: maxS }));
    console.log(`  ${pathname} max (${maxConnections} connections): ${max.achievedRate} req/s, p95 ${max.p95} ms`);
    results.push({ path: pathname, fixed, max, maxConnections });
  }
  return results;
}
