import AxeBuilder from "@axe-core/playwright";
import axe, { type Result } from "axe-core";
import type { Page } from "playwright-core";

/** The rule sets the browser tests hold every page to: WCAG 2.1 A/AA and axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/**
 * axe's violations on the page as it is now, for the rules tagged `tags` (axe's default rules
 * without). A page without frames is checked with `axe.run` in the page itself, axe's source sent
 * once per document: AxeBuilder sends its ~550 kB twice per check (and, in its default mode, opens
 * a blank page to merge the frames' results), and returns every passed and inapplicable node too.
 * `resultTypes: ["violations"]` keeps every violation with all its nodes and trims only the other
 * lists (decision 0068). A page with frames keeps AxeBuilder's default, which also reaches frames
 * from other origins.
 */
export async function axeViolations(page: Page, tags?: string[]): Promise<Result[]> {
  const options = { resultTypes: ["violations" as const], ...(tags ? { runOnly: { type: "tag" as const, values: tags } } : {}) };
  if (page.frames().length > 1) return (await new AxeBuilder({ page }).options(options).analyze()).violations;
  type WithAxe = { axe?: typeof axe };
  if (!(await page.evaluate(() => typeof (window as WithAxe).axe?.run === "function"))) await page.evaluate(axe.source);
  return page.evaluate((runOptions) => (window as WithAxe).axe!.run(document, runOptions).then((results) => results.violations), options);
}

/** The serious and critical axe findings (WCAG 2.1 A/AA and best practice) on the page as it is now, one line each. */
export async function seriousAxeViolations(page: Page, label: string): Promise<string[]> {
  // Contrast and scroll regions depend on the text's measures: judge the page in its own font, not a fallback.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return (await axeViolations(page, AXE_TAGS))
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${label}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}
