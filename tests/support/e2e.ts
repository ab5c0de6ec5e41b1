/** Shared wiring for browser tests: one Chromium per file, the shared shop server's URL. */
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { launchBrowser, openPage, type TrackedPage } from "./browser";

export function useBrowser() {
  const state: { browser?: Browser; pages: TrackedPage[] } = { pages: [] };
  beforeAll(async () => {
    state.browser = await launchBrowser();
  });
  afterAll(async () => {
    await state.browser?.close();
  });

  return {
    baseURL: () => inject("shopBaseURL"),
    /** Opens a page in a fresh context; `expectClean` asserts no console error or crash happened on it. */
    async open(options: BrowserContextOptions = {}): Promise<TrackedPage & { expectClean(): void }> {
      const tracked = await openPage(state.browser!, options);
      return { ...tracked, expectClean: () => expect(tracked.errors).toEqual([]) };
    },
  };
}

/** Reads every JSON-LD block of the current page. */
export async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((block) => JSON.parse(block) as Record<string, unknown>);
}

export async function metaContent(page: Page, selector: string): Promise<string | null> {
  return page.locator(selector).first().getAttribute("content");
}

/** Waits for React to take over the server-rendered page (root.tsx marks it). */
export async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
}
