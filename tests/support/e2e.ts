/** Shared wiring for browser tests: one Chromium per file, the URL of this worker's shared shop server. */
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { launchBrowser, openPage, type TrackedPage } from "./browser";
import { sharedShop } from "./shared-shop";

export function useBrowser() {
  const state: { browser?: Browser; pages: TrackedPage[] } = { pages: [] };
  beforeAll(async () => {
    state.browser = await launchBrowser();
  });
  afterAll(async () => {
    await state.browser?.close();
  });

  return {
    baseURL: () => sharedShop().baseURL,
    outboxDir: () => sharedShop().outboxDir,
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

/** Waits (polling the folder against a deadline) for an email in a server's local outbox. */
export async function waitForEmail(
  outboxDir: string,
  match: (email: { to: string; subject: string; text: string; kind: string }) => boolean,
  timeoutMs = 15_000,
) {
  const { readdir, readFile } = await import("node:fs/promises");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const names = await readdir(outboxDir).catch(() => [] as string[]);
    for (const name of names.filter((file) => file.endsWith(".json"))) {
      const email = JSON.parse(await readFile(`${outboxDir}/${name}`, "utf8")) as { to: string; subject: string; text: string; kind: string };
      if (match(email)) return email;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No matching email arrived in ${outboxDir} within ${timeoutMs} ms`);
}
