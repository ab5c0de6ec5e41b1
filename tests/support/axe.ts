import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * axe on the page as it is now. A page without frames is checked with `axe.run` in the page itself
 * (AxeBuilder's legacy mode): its default mode runs each frame apart and then opens a blank page in
 * the same context to merge the frames' results, a page opened and closed per check, for the same
 * rules, the same document and the same findings when there is only one frame. A page with frames
 * keeps the default, which also reaches frames from other origins.
 */
export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1);
}

/** The serious and critical axe findings (WCAG 2.1 A/AA and best practice) on the page as it is now, one line each. */
export async function seriousAxeViolations(page: Page, label: string): Promise<string[]> {
  // Contrast and scroll regions depend on the text's measures: judge the page in its own font, not a fallback.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const results = await axeBuilder(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${label}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}
