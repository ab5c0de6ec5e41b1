/**
 * Real Chromium (Debian's, driven by playwright-core) for the browser tests. Every page records
 * console errors and uncaught exceptions, and every browser test fails on them unless it names the
 * ones it expects (`expectPageError`, checked by tests/support/fail-on-page-error.ts).
 */
import { chromium, type Browser, type BrowserContextOptions, type BrowserServer, type Page } from "playwright-core";
import { inject } from "vitest";
import { CHROMIUM_MISSING, findChromium } from "../../scripts/find-chromium.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The e2e project's one Chromium (e2e-global-setup.ts), absent in projects that launch their own. */
    chromiumEndpoint?: string;
  }
}

const launchOptions = () => {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(CHROMIUM_MISSING);
  return {
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  };
};

/** The Chromium process the e2e project's files share (docs/decisions/0056-test-suite-budget.md). */
export function launchSharedChromium(): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions());
}

/**
 * A Chromium for one test file. In the e2e project this is a connection to the run's one Chromium:
 * launching a browser per file cost 1.5–2 s (launch, first renderer, close) of every file. Each
 * test still gets a fresh context, so nothing (cookies, storage, HTTP cache) is shared, and
 * `close()` drops this file's contexts with the connection.
 */
export async function launchBrowser(): Promise<Browser> {
  const endpoint = inject("chromiumEndpoint");
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch(launchOptions());
}

export const MOBILE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

export interface TrackedPage {
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/** Every page this test file opened, with how many of its errors were already checked. */
const openedPages: { errors: string[]; checked: number }[] = [];
let expectedPageErrors: RegExp[] = [];

/**
 * Names an error the current test causes on purpose (a page offline, a 404 it asks for), so the
 * check every browser test gets (tests/support/fail-on-page-error.ts) lets it through. Any other
 * uncaught exception or console error on any page the test opened fails it.
 */
export function expectPageError(pattern: RegExp) {
  expectedPageErrors.push(pattern);
}

/** What Chromium logs for a document answered 404: a test that asks for a missing page names it. */
export const NOT_FOUND_DOCUMENT = /^console: Failed to load resource: the server responded with a status of 404 \(Not Found\) <[^>]+>$/;

/** The errors of every opened page since the last call that no `expectPageError` named; forgets the names. */
export function uncheckedPageErrors(): string[] {
  const unexpected = openedPages.flatMap((opened) => {
    const fresh = opened.errors.slice(opened.checked);
    opened.checked = opened.errors.length;
    return fresh.filter((error) => !expectedPageErrors.some((pattern) => pattern.test(error)));
  });
  expectedPageErrors = [];
  return unexpected;
}

/** A fresh context per test; reduced motion unless a test is about motion. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<TrackedPage> {
  const context = await browser.newContext({ ...DESKTOP, reducedMotion: "reduce", locale: "es-PE", ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  openedPages.push({ errors, checked: 0 });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // A refused form answers 400 by design (its messages are the test's subject); Chromium logs
    // every non-2xx fetch, so that one status is not an error of the page.
    if (message.type() !== "error" || /status of 400 \(Bad Request\)/.test(message.text())) return;
    // Chromium's "Failed to load resource" does not say which: the address follows it, so a failing
    // test names the request.
    const resource = /^Failed to load resource/.test(message.text()) ? message.location().url : "";
    // Checkout's cart save for recovery is limited per address and its answer ignored (spec §7):
    // tests that reuse one address on a shared server meet the limit, which is not a page error.
    if (/status of 429 /.test(message.text()) && resource.endsWith("/api/carrito/abandonado")) return;
    errors.push(`console: ${message.text()}${resource ? ` <${resource}>` : ""}`);
  });
  return { page, errors, close: () => context.close() };
}
