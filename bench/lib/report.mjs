// Renders bench/RESULTS.md. Everything below GENERATED_START is rewritten on each full run;
// the intro above it is kept, so explanations written by hand survive re-runs.

export const GENERATED_START = "<!-- bench:generated — everything below this line is rewritten by bench/run.mjs -->";

export const TARGETS = {
  performance: 95,
  accessibility: 100,
  seo: 100,
  // KB here means 1000 bytes, as in Vite's build report (1 KB = 1000 B; 120 KB ≈ 117.2 KiB).
  firstLoadJsGzipBytes: 120_000,
  tiendaP95Ms: 50,
};

export const DEFAULT_INTRO = `# Benchmark results

Produced by \`bench/run.mjs\` against the production build (\`node scripts/serve.mjs\` on \`build/\`)
on a fresh embedded database, over loopback. Run it on an idle machine:

\`\`\`sh
npm --prefix bench install      # once; lighthouse and autocannon live only in bench/
npm --prefix bench run bench    # or: cd bench && npm run bench
\`\`\`

Targets: Lighthouse mobile performance ≥ ${TARGETS.performance}, accessibility ${TARGETS.accessibility} and SEO ${TARGETS.seo} on every page;
first-load JavaScript ≤ ${TARGETS.firstLoadJsGzipBytes / 1000} KB gzip per page; p95 latency of \`/tienda\` ≤ ${TARGETS.tiendaP95Ms} ms at 100 requests/second.
Lighthouse runs over plain http://127.0.0.1, so HTTPS-related best-practice audits may fail here; they say nothing about production.`;

const mark = (ok) => (ok ? "✅" : "❌");
const ms = (value) => (value === null || value === undefined ? "–" : `${Math.round(value)} ms`);
const msPrecise = (value) => (value === null || value === undefined ? "–" : `${value.toFixed(1)} ms`);
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const code = (text) => `\`${String(text).replaceAll("`", "'").replaceAll("|", "\\|")}\``;

function auditList(audits) {
  if (!audits.length) return ["none"];
  return audits.map((audit) => {
    const savings = audit.metricSavings
      ? Object.entries(audit.metricSavings)
          .filter(([, value]) => value > 0)
          .map(([metric, value]) => `${metric} −${metric === "CLS" ? value.toFixed(3) : Math.round(value) + " ms"}`)
      : [];
    const extra = [audit.displayValue, savings.length ? `savings: ${savings.join(", ")}` : "", `score ${audit.score}`].filter(Boolean).join("; ");
    const nodes = audit.nodes.map((node) => code(node.selector || node.snippet)).join(", ");
    return `${code(audit.id)} — ${audit.title} (${extra})${nodes ? `: ${nodes}` : ""}${audit.more ? ` and ${audit.more} more` : ""}`;
  });
}

function lighthouseSection(pages, runs) {
  const lines = [
    `### Lighthouse mobile (default config: emulated Moto G Power, simulated throttling; median of ${runs} run${runs > 1 ? "s" : ""} by performance score)`,
    "",
    `| Page | Performance (≥ ${TARGETS.performance}) | Accessibility (${TARGETS.accessibility}) | Best practices | SEO (${TARGETS.seo}) | FCP | LCP | TBT | CLS | TTFB | Performance of each run |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const page of pages) {
    const { scores, metrics } = page;
    lines.push(
      `| ${code(page.path)} | ${scores.performance} ${mark(scores.performance >= TARGETS.performance)} | ${scores.accessibility} ${mark(scores.accessibility >= TARGETS.accessibility)} | ${scores["best-practices"]} | ${scores.seo} ${mark(scores.seo >= TARGETS.seo)} | ${ms(metrics.fcp)} | ${ms(metrics.lcp)} | ${ms(metrics.tbt)} | ${metrics.cls?.toFixed(3) ?? "–"} | ${ms(metrics.ttfb)} | ${page.allPerformanceScores.join(", ")} |`,
    );
  }
  lines.push("", "Flagged audits of the reported (median) run:", "");
  for (const page of pages) {
    lines.push(`- ${code(page.path)}${page.lcpElement ? ` — LCP element ${code(page.lcpElement.selector || page.lcpElement.snippet)}` : ""}`);
    const groups = [
      ["Performance (opportunities and diagnostics scoring < 0.9)", page.performanceFlags],
      ["Accessibility failures", page.accessibilityFailures],
      ["SEO failures", page.seoFailures],
      ["Best-practices failures", page.bestPracticesFailures],
    ];
    for (const [title, audits] of groups) {
      const items = auditList(audits);
      if (items.length === 1) lines.push(`  - ${title}: ${items[0]}`);
      else lines.push(`  - ${title}:`, ...items.map((item) => `    - ${item}`));
    }
    if (page.runWarnings.length) lines.push(`  - Lighthouse warnings: ${page.runWarnings.join(" ")}`);
  }
  return lines;
}

function firstLoadJsSection(pages) {
  const lines = [
    "### First-load JavaScript (Chromium via playwright-core; every JS response until network idle, gzip computed with zlib default level)",
    "",
    `| Page | JS files | gzip (≤ ${TARGETS.firstLoadJsGzipBytes / 1000} KB) | uncompressed | Largest files (gzip) |`,
    "| --- | --- | --- | --- | --- |",
  ];
  for (const page of pages) {
    const largest = page.files
      .slice(0, 4)
      .map((file) => `${code(file.path.replace(/^\/assets\//, ""))} ${kb(file.gzip)}`)
      .join(", ");
    lines.push(`| ${code(page.path)} | ${page.count} | ${kb(page.gzip)} ${mark(page.gzip <= TARGETS.firstLoadJsGzipBytes)} | ${kb(page.raw)} | ${largest} |`);
  }
  const failed = pages.flatMap((page) =>
    page.files
      .filter((file) => file.error || file.status >= 400)
      .map((file) => `${page.path}: ${file.path} (${file.status}${file.error ? `, ${file.error}` : ""})`),
  );
  if (failed.length) lines.push("", `JS responses with errors: ${failed.join("; ")}`);
  return lines;
}

function serverSection(results, settings) {
  const { warmupS, lightRate, lightS, fixedRate, fixedS, fixedConnections, maxConnections, maxS } = settings.load;
  const row = (path, run, target = "") =>
    `| ${code(path)} | ${msPrecise(run.p50)} | ${msPrecise(run.p95)}${target} | ${msPrecise(run.p99)} | ${msPrecise(run.max)} | ${run.achievedRate} req/s | ${run.responses} | ${run.errors} | ${run.timeouts} | ${run.non2xx} |`;
  const header = [
    "| Path | p50 | p95 | p99 | max | Achieved rate | Responses | Errors | Timeouts | Non-2xx |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  const lines = [
    "### Server (loopback; browser-like headers incl. `Accept-Encoding: gzip, deflate, br`; load generator and server share the machine's cores)",
    "",
    `**Fixed rate, evenly paced** (the target applies here): one request every ${1000 / fixedRate} ms for ${fixedS} s after a ${warmupS} s warm-up, sent whether or not earlier ones were answered (open loop, undici pool); each latency counts from the request's due time to its last byte. Exact nearest-rank percentiles. When the server's capacity is below the rate, the backlog grows for the whole run and so do these latencies.`,
    "",
    ...header,
  ];
  for (const { path, fixed } of results) {
    const target =
      path === "/tienda"
        ? ` ${mark(fixed.p95 !== null && fixed.p95 <= TARGETS.tiendaP95Ms && fixed.errors === 0 && fixed.timeouts === 0 && fixed.non2xx === 0)} (≤ ${TARGETS.tiendaP95Ms} ms)`
        : "";
    lines.push(row(path, fixed, target));
  }
  lines.push(
    "",
    `**Light load, evenly paced**: ${lightRate} req/s for ${lightS} s, the same way; the cost of one request without queueing.`,
    "",
    ...header,
    ...results.map(({ path, light }) => row(path, light)),
    "",
    `**autocannon \`overallRate: ${fixedRate}\`, ${fixedConnections} connections, ${fixedS} s** (for reference): autocannon spends each connection's per-second budget back-to-back at the start of every second, so this is a burst of ${fixedRate} requests per second rather than a steady rate; latencies show how long a burst takes to drain. Percentiles from each response's own duration.`,
    "",
    ...header,
    ...results.map(({ path, autocannonFixed }) => row(path, autocannonFixed)),
    "",
    `**Maximum throughput** (autocannon): ${maxConnections} connections, each sending its next request as soon as the previous one is answered, for ${maxS} s.`,
    "",
    "| Path | Requests/second | p50 | p95 | p99 | Errors | Non-2xx |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const { path, max } of results) {
    lines.push(
      `| ${code(path)} | ${max.achievedRate} | ${msPrecise(max.p50)} | ${msPrecise(max.p95)} | ${msPrecise(max.p99)} | ${max.errors} | ${max.non2xx} |`,
    );
  }
  return lines;
}

/** A one-glance list of every target with its verdict. */
function checkoutSection({ sequential, concurrent }) {
  return [
    "### Checkout submission (the checkout action on the embedded database: validation, repricing, one transaction)",
    "",
    "| Mode | Orders | Orders/s | p50 | p95 | Failures |",
    "| --- | --- | --- | --- | --- | --- |",
    `| one at a time | ${sequential.count} | — | ${sequential.p50} ms | ${sequential.p95} ms | ${sequential.failures} |`,
    `| ${concurrent.connections} concurrent for ${concurrent.seconds} s | ${concurrent.orders} | ${concurrent.ordersPerSecond} | ${concurrent.p50} ms | ${concurrent.p95} ms | ${concurrent.failures} |`,
  ];
}

function targetsSection(results) {
  const rows = [];
  for (const page of results.lighthouse ?? []) {
    rows.push([
      `Lighthouse performance ${code(page.path)}`,
      `≥ ${TARGETS.performance}`,
      page.scores.performance,
      page.scores.performance >= TARGETS.performance,
    ]);
    rows.push([
      `Lighthouse accessibility ${code(page.path)}`,
      `${TARGETS.accessibility}`,
      page.scores.accessibility,
      page.scores.accessibility >= TARGETS.accessibility,
    ]);
    rows.push([`Lighthouse SEO ${code(page.path)}`, `${TARGETS.seo}`, page.scores.seo, page.scores.seo >= TARGETS.seo]);
  }
  for (const page of results.firstLoadJs ?? []) {
    rows.push([
      `First-load JS ${code(page.path)}`,
      `≤ ${TARGETS.firstLoadJsGzipBytes / 1000} KB gzip`,
      kb(page.gzip),
      page.gzip <= TARGETS.firstLoadJsGzipBytes,
    ]);
  }
  const tienda = results.server?.find((entry) => entry.path === "/tienda");
  if (tienda)
    rows.push([
      `p95 ${code("/tienda")} at ${tienda.fixed.targetRate} req/s (evenly paced)`,
      `≤ ${TARGETS.tiendaP95Ms} ms`,
      msPrecise(tienda.fixed.p95),
      tienda.fixed.p95 !== null &&
        tienda.fixed.p95 <= TARGETS.tiendaP95Ms &&
        tienda.fixed.errors === 0 &&
        tienda.fixed.timeouts === 0 &&
        tienda.fixed.non2xx === 0,
    ]);
  const met = rows.filter((row) => row[3]).length;
  return [
    `### Targets: ${met} of ${rows.length} met`,
    "",
    "| Target | Goal | Measured | |",
    "| --- | --- | --- | --- |",
    ...rows.map(([name, goal, value, ok]) => `| ${name} | ${goal} | ${value} | ${mark(ok)} |`),
  ];
}

export function renderResults(results) {
  const { machine } = results;
  const lighthouse = results.lighthouse?.[0];
  const lines = [
    GENERATED_START,
    "",
    `## Run of ${results.startedAt}${results.quick ? " (quick mode: not representative)" : ""}`,
    "",
    `- Commit: ${machine.commit}; production build from ${results.build.builtAt}${results.build.rebuilt ? " (built by this run)" : ""}${results.build.stale ? " (**older than the sources**)" : ""}${results.build.development ? " (**contains development React: numbers not representative**)" : ""}`,
    `- Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.totalMemoryGiB} GiB RAM; Node ${machine.node}; ${machine.chromium}`,
    lighthouse ? `- Lighthouse ${lighthouse.lighthouseVersion}, host CPU benchmark index ${Math.round(lighthouse.benchmarkIndex)}` : null,
    `- Load average at start (1/5/15 min): ${machine.loadAverageAtStart.join(" / ")}; finished ${results.finishedAt}`,
    "",
    ...targetsSection(results),
    "",
  ].filter((line) => line !== null);
  if (results.lighthouse) lines.push(...lighthouseSection(results.lighthouse, results.settings.lighthouseRuns), "");
  if (results.firstLoadJs) lines.push(...firstLoadJsSection(results.firstLoadJs), "");
  if (results.server) lines.push(...serverSection(results.server, results.settings), "");
  if (results.checkout) lines.push(...checkoutSection(results.checkout), "");
  return lines.join("\n");
}
