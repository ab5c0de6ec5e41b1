import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/** The serious and critical axe findings (WCAG 2.1 A/AA and best practice) on the page as it is now, one line each. */
export async function seriousAxeViolations(page: Page, label: string): Promise<string[]> {
  // Contrast and scroll regions depend on the text's measures: judge the page in its own font, not a fallback.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${label}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}
