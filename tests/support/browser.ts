/**
 * Real Chromium (Debian's, driven by playwright-core) for the browser tests. Every page records
 * console errors and uncaught exceptions so a test can insist there were none.
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

/** A fresh context per test; reduced motion unless a test is about motion. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<TrackedPage> {
  const context = await browser.newContext({ ...DESKTOP, reducedMotion: "reduce", locale: "es-PE", ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // A refused form answers 400 by design (its messages are the test's subject); Chromium logs
    // every non-2xx fetch, so that one status is not an error of the page.
    if (message.type() === "error" && !/status of 400 \(Bad Request\)/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  return { page, errors, close: () => context.close() };
}
