/**
 * Real Chromium (Debian's, driven by playwright-core) for the browser tests. Every page records
 * console errors and uncaught exceptions so a test can insist there were none.
 */
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { CHROMIUM_MISSING, findChromium } from "../../scripts/find-chromium.mjs";

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({
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
  });
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
