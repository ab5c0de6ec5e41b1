// Lighthouse mobile audits of the shop's public pages.
//
// We use Lighthouse's default configuration on purpose: it is the mobile one (emulated Moto G
// Power, simulated slow-4G and 4x CPU throttling), which is what PageSpeed Insights shows and
// what our targets were set against. Simulated throttling models the network instead of slowing
// real traffic, so loopback numbers stay comparable with a real deployment.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";

// --headless=new is the real browser in headless mode (old headless is a different binary path);
// --no-sandbox because we run as root in a container; the --disable-* flags stop Chromium's own
// background traffic (updates, sync, QUIC probes) from competing with the page under test.
export const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // e.g. LH_EXTRA_CHROME_FLAGS=--force-prefers-reduced-motion: the storefront without its splash (app.css).
  ...(process.env.LH_EXTRA_CHROME_FLAGS ?? "").split(" ").filter(Boolean),
];

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

// Audit modes that can actually fail; "informative", "manual" and "notApplicable" never do.
const SCORED_MODES = new Set(["binary", "numeric", "metricSavings"]);

/** The nodes an audit points at (selectors), which is what someone fixing it needs first. */
function offendingNodes(audit, limit = 8) {
  const items = audit.details?.items ?? [];
  const nodes = [];
  const visit = (value) => {
    if (!value || typeof value !== "object") return;
    if (value.type === "node" && (value.selector || value.snippet)) nodes.push({ selector: value.selector ?? "", snippet: value.snippet ?? "" });
    // Some audits (e.g. table-based ones) nest nodes in sub-items; walk them all.
    for (const child of Object.values(value)) if (typeof child === "object") visit(child);
  };
  for (const item of items) visit(item);
  const unique = [...new Map(nodes.map((node) => [node.selector + node.snippet, node])).values()];
  return { nodes: unique.slice(0, limit), more: Math.max(0, unique.length - limit) };
}

/** Failed audits of a category, with the elements at fault. */
function failedAudits(lhr, categoryId, { threshold = 1, skipMetrics = false } = {}) {
  const category = lhr.categories[categoryId];
  return category.auditRefs
    .filter((ref) => !(skipMetrics && (ref.group === "metrics" || ref.group === "hidden")))
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => SCORED_MODES.has(audit.scoreDisplayMode) && audit.score !== null && audit.score < threshold)
    .map(({ ref, audit }) => ({
      id: audit.id,
      title: audit.title,
      group: ref.group ?? "",
      score: audit.score,
      displayValue: audit.displayValue ?? "",
      metricSavings: audit.metricSavings ?? null,
      ...offendingNodes(audit),
    }));
}

/**
 * Headless Chromium's compositor service sometimes withholds the page's first frame for one or two
 * whole seconds after the page has loaded (viz throttles BeginFrames to a frame sink it deems
 * unresponsive; Lighthouse issue #17148, also seen on PageSpeed Insights). The run's filmstrip is
 * then blank past its load event, and Lighthouse's Speed Index, which leans on the filmstrip, is
 * charged the wait. A run counts as held when its first contentful frame came more than this after
 * the load event: unheld runs paint before or within ~100 ms of it (bench/RESULTS.md, session 26).
 */
const HELD_FIRST_FRAME_MS = 500;

/** The numbers and failures we report from one Lighthouse result. */
function summarize(lhr) {
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id) => lhr.audits[id]?.numericValue ?? null;
  const lcpElement = offendingNodes(lhr.audits["largest-contentful-paint-element"] ?? {}, 1).nodes[0] ?? null;
  const observed = lhr.audits.metrics?.details?.items?.[0] ?? {};
  return {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, score(id)])),
    metrics: {
      fcp: numeric("first-contentful-paint"),
      lcp: numeric("largest-contentful-paint"),
      tbt: numeric("total-blocking-time"),
      cls: numeric("cumulative-layout-shift"),
      si: numeric("speed-index"),
      ttfb: numeric("server-response-time"),
    },
    lcpElement,
    observed: { fcp: observed.observedFirstContentfulPaint ?? null, load: observed.observedLoad ?? null },
    heldFirstFrame: observed.observedFirstContentfulPaint - observed.observedLoad > HELD_FIRST_FRAME_MS,
    finalUrl: lhr.finalDisplayedUrl,
    // Lighthouse lists an audit under Opportunities/Diagnostics once it scores below 0.9.
    performanceFlags: failedAudits(lhr, "performance", { threshold: 0.9, skipMetrics: true }),
    accessibilityFailures: failedAudits(lhr, "accessibility"),
    bestPracticesFailures: failedAudits(lhr, "best-practices"),
    seoFailures: failedAudits(lhr, "seo"),
    runWarnings: lhr.runWarnings ?? [],
    // A page that sends itself elsewhere before loading (the empty cart goes to /tienda) cancels its
    // own preloads (status -1): those are not failures. Any 4xx/5xx still is.
    failedRequests: (lhr.audits["network-requests"]?.details?.items ?? [])
      .filter((item) => item.statusCode >= 400 || (item.statusCode === -1 && lhr.finalDisplayedUrl === lhr.requestedUrl))
      .map((item) => `${item.statusCode} ${item.url}`),
    lighthouseVersion: lhr.lighthouseVersion,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
  };
}

/**
 * Stores `entries` in the page origin's local storage of the browser Lighthouse is about to drive,
 * as an earlier visit would have (the cart lives there, so /carrito with a cart needs it). The
 * origin is opened at /robots.txt so that no page of the shop is cached or run beforehand.
 */
async function seedLocalStorage(port, url, entries) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(new URL("/robots.txt", url).href);
    await page.evaluate((values) => {
      for (const [key, value] of Object.entries(values)) window.localStorage.setItem(key, value);
    }, entries);
    await page.close();
  } finally {
    // Disconnects only: the browser belongs to chrome-launcher.
    await browser.close();
  }
}

/**
 * Audits one URL `runs` times and keeps the median run by performance score. Lighthouse scores
 * vary from run to run (CPU noise feeds the simulation), and the median is what Lighthouse's
 * own docs recommend reporting. Each run gets a freshly launched browser with an empty profile,
 * so no run benefits from a cache warmed by the previous one.
 *
 * @param {string} url
 * @param {{ runs: number, chromePath: string, saveDir: string, slug: string, localStorage?: Record<string, string> | null, cookie?: string | null }} options
 */
export async function auditPage(url, { runs, chromePath, saveDir, slug, localStorage = null, cookie = null }) {
  mkdirSync(saveDir, { recursive: true });
  const summaries = [];
  for (let run = 1; run <= runs; run++) {
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
    try {
      if (localStorage) await seedLocalStorage(chrome.port, url, localStorage);
      const result = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: CATEGORIES,
        // A signed-in page (the driver app): the session cookie on every request of the run.
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
        // Keep what seedLocalStorage stored (the profile is new, so the HTTP cache is still empty).
        disableStorageReset: Boolean(localStorage),
      });
      if (!result?.lhr) throw new Error(`Lighthouse returned no result for ${url}`);
      if (result.lhr.runtimeError) throw new Error(`Lighthouse runtime error for ${url}: ${result.lhr.runtimeError.message}`);
      // Full reports stay in bench/.tmp for digging deeper (open them in the Lighthouse viewer).
      writeFileSync(path.join(saveDir, `${slug}-run${run}.json`), result.report);
      if (process.env.LH_SAVE_TRACE) writeFileSync(path.join(saveDir, `${slug}-run${run}.trace.json`), JSON.stringify(result.artifacts.Trace));
      const summary = summarize(result.lhr);
      // A page whose scripts 404 (e.g. build/ replaced mid-run) scores *better*, so never report it.
      if (summary.failedRequests.length) throw new Error(`Lighthouse saw failed requests on ${url}: ${summary.failedRequests.join(", ")}`);
      summary.run = run;
      summaries.push(summary);
      const held = summary.heldFirstFrame ? ` (first frame held until ${summary.observed.fcp} ms, load at ${summary.observed.load} ms)` : "";
      console.log(`  ${url} run ${run}/${runs}: performance ${summary.scores.performance}, LCP ${Math.round(summary.metrics.lcp)} ms${held}`);
    } finally {
      await chrome.kill();
    }
  }
  // Ties in score are common; breaking them on LCP (worse first) keeps the choice deterministic.
  const ordered = [...summaries].sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0) || b.metrics.lcp - a.metrics.lcp);
  const median = ordered[Math.floor((ordered.length - 1) / 2)];
  const unheld = ordered.filter((summary) => !summary.heldFirstFrame);
  return {
    ...median,
    allPerformanceScores: summaries.map((summary) => summary.scores.performance),
    heldRuns: summaries.length - unheld.length,
    // The median of the runs whose first frame was not withheld, null when every run's was.
    unheldPerformance: unheld[Math.floor((unheld.length - 1) / 2)]?.scores.performance ?? null,
  };
}
