/**
 * Issue 24, defect 10: what a busy person types right after clicking a link must end up in the
 * page they meant. This helper clicks, and types into the named fields at once — not waiting for
 * the new page to settle, as a person who sees the field does — while the server's answer to the
 * navigation is held back as a slow server would (until the typing is done, at most
 * `slowServerMs`). A field that is not yet on screen is waited for (Playwright waits for a field
 * that is disabled to be enabled); one the page being left also has (the same label) gets the
 * keystrokes if that page still takes input, which is what lost them before the fix. Then it
 * waits for the new page and returns: the caller saves and checks what was stored.
 */
import type { Locator, Page } from "playwright-core";

export interface TypedField {
  /** A locator that names the field as a person reads it (its label), valid on the new page. */
  field: Locator;
  value: string;
}

export async function typeRightAfterNavigation(
  page: Page,
  { click, to, fields, slowServerMs = 1_500 }: { click: Locator; to: RegExp; fields: TypedField[]; slowServerMs?: number },
): Promise<void> {
  let typed!: () => void;
  const typingDone = new Promise<void>((resolve) => (typed = resolve));
  // The navigation's data request (React Router's `<path>.data`) is answered once the typing is
  // over, or after `slowServerMs` at most: the page being left stays on screen meanwhile.
  const isNavigationData = (url: URL) => url.pathname.endsWith(".data") && to.test(url.pathname.replace(/\.data$/, ""));
  const hold = new Promise<void>((resolve) => setTimeout(resolve, slowServerMs));
  await page.route(isNavigationData, async (route) => {
    await Promise.race([typingDone, hold]);
    await route.continue();
  });
  try {
    await click.click();
    try {
      for (const { field, value } of fields) await field.fill(value);
    } finally {
      typed();
    }
    await page.waitForURL((url) => to.test(url.pathname));
    // The new page is drawn once nothing marks the page as changing any more.
    await page.getByTestId("page-changing").waitFor({ state: "detached" });
  } finally {
    await page.unroute(isNavigationData);
  }
}
