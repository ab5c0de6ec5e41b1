#!/usr/bin/env node
// Issue 42: /admin/reparto opened again on a driver's phone, through its service worker (decision
// 0079). Lighthouse (compare.mjs) audits a first visit in a fresh profile; a driver opens the app
// many times a day with the worker installed, so this measures that visit. Each shop root given
// (a before/after pair) is started on a fresh demo database (bench/lib/server.mjs); the demo
// repartidor's phone (360 px Chromium) opens the page once so the worker installs, takes control
// and fills its caches; then every run opens the page again under Lighthouse's mobile conditions
// (slow 4G: 150 ms round trip, 1.6 Mbps down, 750 kbps up; CPU 4× slower), on the page and on the
// worker alike (the worker's own fetches go through its own DevTools target), runs alternating
// between the roots. Per run: FCP, LCP, DOMContentLoaded and load (the page's own timeline), and
// the bytes that came over the network (the page's requests the worker did not answer, and the
// worker's own fetches) against what the worker answered from its caches. Last, per root, the
// page is reloaded offline (page and worker): does the route sheet still show?
//
//   node bench/repeat-visit.mjs [--runs=9] [--no-build] [shop-root ...]   # default: this checkout
//   node bench/repeat-visit.mjs --runs=9 --no-build /tmp/before .          # before, after
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { parseFlags } from "./lib/flags.mjs";
import { CHROME_FLAGS } from "./lib/lighthouse.mjs";
import { percentile } from "./lib/load.mjs";
import { ensureBuild, signInDemoAccount, startServer } from "./lib/server.mjs";

const argv = process.argv.slice(2);
const args = parseFlags(argv.filter((arg) => arg.startsWith("--")));
const roots = argv.filter((arg) => !arg.startsWith("--")).map((root) => path.resolve(root));
if (roots.length === 0) roots.push(path.resolve(import.meta.dirname, ".."));
const runs = Number(args.runs ?? 9);
const PAGE = "/admin/reparto";
const REPARTIDOR = { email: "repartidor@demo.pe", password: "Reparto1234" };
// Lighthouse's mobile preset (constants.throttling.mobileSlow4G), applied for real here.
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const NO_THROTTLING = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
const CPU_SLOWDOWN = 4;

/** The page's paints as they happen: LCP has no entry to read afterwards, only an observer. */
function observePaints() {
  /** @type {{ lcp: number | null, lcpElement: string | null }} */
  const paints = { lcp: null, lcpElement: null };
  // Read back by the bench after the visit.
  Object.assign(window, { __repeatVisit: paints });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      paints.lcp = entry.startTime;
      const element = /** @type {PerformanceEntry & { element?: HTMLElement | null }} */ (entry).element;
      paints.lcpElement = element ? `${element.tagName.toLowerCase()}${element.dataset?.testid ? `[data-testid=${element.dataset.testid}]` : ""}` : null;
    }
  }).observe({ type: "largest-contentful-paint", buffered: true });
}

/**
 * The browser's DevTools endpoint for targets Playwright gives no session to (the service worker):
 * attached through the browser's session, messages wrapped in Target.sendMessageToTarget.
 */
async function workerSessions(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const pending = new Map();
  let nextId = 1;
  cdp.on("Target.receivedMessageFromTarget", ({ message }) => {
    const answer = JSON.parse(message);
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    if (answer.error) waiting.reject(new Error(answer.error.message));
    else waiting.resolve(answer.result);
  });
  const attached = new Map();
  return {
    /** Sends `method` to every service worker of `origin`. */
    async sendToWorkers(origin, method, params) {
      const { targetInfos } = await cdp.send("Target.getTargets");
      const workers = targetInfos.filter((target) => target.type === "service_worker" && target.url.startsWith(origin));
      for (const worker of workers) {
        if (!attached.has(worker.targetId)) {
          const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: worker.targetId, flatten: false });
          attached.set(worker.targetId, sessionId);
        }
        const id = nextId++;
        const answer = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
        await cdp.send("Target.sendMessageToTarget", { sessionId: attached.get(worker.targetId), message: JSON.stringify({ id, method, params }) });
        await answer;
      }
      return workers.length;
    },
  };
}

/** One shop root: its server, the repartidor's phone with the worker installed. */
async function installedPhone(root, browser, workers) {
  const server = await startServer({ root, tmpDir: os.tmpdir() });
  const cookie = await signInDemoAccount(server.origin, REPARTIDOR);
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, locale: "es-PE" });
  await context.addCookies(
    cookie.split("; ").map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), url: server.origin })),
  );
  await context.addInitScript(observePaints);
  const page = await context.newPage();
  await page.goto(server.origin + PAGE);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
  // The worker installs its files and a copy of the page before it takes control; wait for both.
  await page.waitForFunction(
    async () => {
      const names = await caches.keys();
      const files = names.find((name) => name.startsWith("reparto-files-"));
      return Boolean(files && (await (await caches.open(files)).keys()).length > 0 && (await caches.match("/admin/reparto", { cacheName: "reparto-pages" })));
    },
    null,
    { timeout: 60_000, polling: 250 },
  );
  const precached = await page.evaluate(async () => {
    const files = (await caches.keys()).find((name) => name.startsWith("reparto-files-"));
    return files ? (await (await caches.open(files)).keys()).length : 0;
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const throttle = async (network, cpuRate) => {
    await cdp.send("Network.emulateNetworkConditions", network);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuRate });
    return workers.sendToWorkers(server.origin, "Network.emulateNetworkConditions", network);
  };
  return { root, server, context, page, throttle, precached, visits: [] };
}

/** Opens the page again under slow 4G and a 4× slower CPU; what it took and where its bytes came from. */
async function repeatVisit(phone) {
  const { page, context, server } = phone;
  const requests = [];
  const onFinished = (request) => requests.push(request);
  context.on("requestfinished", onFinished);
  const throttledWorkers = await phone.throttle(SLOW_4G, CPU_SLOWDOWN);
  try {
    await page.goto(server.origin + PAGE, { waitUntil: "load", timeout: 60_000 });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", null, { timeout: 60_000 });
    // Bounded: hydration may still ask for a route's module after `load`.
    await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
  } finally {
    await phone.throttle(NO_THROTTLING, 1);
    context.off("requestfinished", onFinished);
  }
  const timeline = await page.evaluate(() => {
    const [navigation] = /** @type {PerformanceNavigationTiming[]} */ (performance.getEntriesByType("navigation"));
    const paints = /** @type {{ __repeatVisit: { lcp: number | null, lcpElement: string | null } }} */ (/** @type {unknown} */ (window)).__repeatVisit;
    return {
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
      lcp: paints.lcp,
      lcpElement: paints.lcpElement,
      domContentLoaded: navigation?.domContentLoadedEventEnd ?? null,
      load: navigation?.loadEventEnd ?? null,
      documentThroughWorker: (navigation?.workerStart ?? 0) > 0,
      stops: document.querySelectorAll('[data-testid="driver-stop"]').length,
    };
  });
  // Three kinds of answer: the network's to the page (the worker let the request through), the
  // network's to the worker (its network-first page and data), and the worker's to the page. The
  // last are "from the worker's caches" unless the worker fetched the same URL in this visit.
  const bytes = { network: 0, networkRequests: 0, fromCaches: 0, fromCachesResponses: 0 };
  const fetchedByWorker = new Set();
  let documentFetchMs = null;
  for (const request of requests) {
    const response = await request.response();
    if (!response || response.fromServiceWorker()) continue;
    const sizes = await request.sizes();
    bytes.network += sizes.responseBodySize + sizes.responseHeadersSize;
    bytes.networkRequests++;
    if (request.serviceWorker()) {
      fetchedByWorker.add(request.url());
      if (new URL(request.url()).pathname === PAGE) documentFetchMs = Math.round(request.timing().responseEnd);
    }
  }
  for (const request of requests) {
    const response = await request.response();
    if (!response?.fromServiceWorker() || fetchedByWorker.has(request.url())) continue;
    // Decoded size: the worker's cache holds the body as the server sent it, compressed or not.
    bytes.fromCaches += (await response.body().catch(() => Buffer.alloc(0))).length;
    bytes.fromCachesResponses++;
  }
  const visit = { ...timeline, bytes, documentFetchMs, throttledWorkers };
  phone.visits.push(visit);
  return visit;
}

/** Offline on the page and the worker (Chromium's offline emulation), the page reloaded: the route sheet? */
async function offlineReload(phone) {
  const { page, context } = phone;
  await context.setOffline(true);
  try {
    await page.reload({ waitUntil: "load", timeout: 30_000 });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", null, { timeout: 30_000 });
    const stops = await page.getByTestId("driver-stop").count();
    const heading = await page.getByRole("heading", { level: 1 }).first().textContent({ timeout: 5_000 });
    return { works: stops > 0, stops, heading: heading?.trim() ?? null };
  } catch (error) {
    return { works: false, error: String(error).split("\n")[0] };
  } finally {
    await context.setOffline(false);
  }
}

const median = (values) => {
  const present = values.filter((value) => typeof value === "number").sort((a, b) => a - b);
  return present.length ? Math.round(/** @type {number} */ (percentile(present, 50))) : null;
};

function summary(phone) {
  const of = (pick) => median(phone.visits.map(pick));
  return {
    root: phone.root,
    precachedFiles: phone.precached,
    runs: phone.visits.length,
    fcp: of((visit) => visit.fcp),
    lcp: of((visit) => visit.lcp),
    domContentLoaded: of((visit) => visit.domContentLoaded),
    load: of((visit) => visit.load),
    networkBytes: of((visit) => visit.bytes.network),
    networkRequests: of((visit) => visit.bytes.networkRequests),
    fromCachesBytes: of((visit) => visit.bytes.fromCaches),
    fromCachesResponses: of((visit) => visit.bytes.fromCachesResponses),
    documentFetchMs: of((visit) => visit.documentFetchMs),
    lcpElements: [...new Set(phone.visits.map((visit) => visit.lcpElement))],
    documentThroughWorker: phone.visits.every((visit) => visit.documentThroughWorker),
    workerThrottled: phone.visits.every((visit) => visit.throttledWorkers > 0),
    offline: phone.offline,
  };
}

for (const root of roots) ensureBuild(root, { skip: args["no-build"] === true });
const startedAt = new Date().toISOString();
const loadAtStart = os
  .loadavg()
  .map((value) => value.toFixed(2))
  .join(" / ");
console.log(`load average at start: ${loadAtStart}`);
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: CHROME_FLAGS.filter((flag) => !flag.startsWith("--headless")),
});
const phones = [];
try {
  const workers = await workerSessions(browser);
  for (const root of roots) phones.push(await installedPhone(root, browser, workers));
  // One visit each not counted: the first opening after the install also compiles and caches the
  // worker's and the page's scripts (V8's code cache), which a driver's phone did long ago.
  for (const phone of phones) {
    await repeatVisit(phone);
    phone.visits.length = 0;
  }
  for (let run = 1; run <= runs; run++) {
    for (const phone of phones) {
      const visit = await repeatVisit(phone);
      console.log(
        `run ${run} ${phone.root}: FCP ${Math.round(visit.fcp)} LCP ${Math.round(visit.lcp)} DCL ${Math.round(visit.domContentLoaded)} load ${Math.round(visit.load)} ms; ` +
          `network ${visit.bytes.network} B in ${visit.bytes.networkRequests} (the page through the worker in ${visit.documentFetchMs} ms), from the worker's caches ${visit.bytes.fromCaches} B in ${visit.bytes.fromCachesResponses}; ${visit.stops} stops`,
      );
    }
  }
  for (const phone of phones) phone.offline = await offlineReload(phone);
} finally {
  await browser.close();
  for (const phone of phones) await phone.server.stop();
}
const loadAtEnd = os
  .loadavg()
  .map((value) => value.toFixed(2))
  .join(" / ");
const report = {
  startedAt,
  loadAtStart,
  loadAtEnd,
  throttling: { ...SLOW_4G, cpuSlowdown: CPU_SLOWDOWN },
  roots: phones.map(summary),
  visits: Object.fromEntries(phones.map((phone) => [phone.root, phone.visits])),
};
const outFile = path.join(import.meta.dirname, ".tmp", "repeat-visit.json");
mkdirSync(path.dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify(report, null, 2));
console.log(JSON.stringify({ ...report, visits: undefined }, null, 2));
console.log(`Wrote ${outFile}`);
