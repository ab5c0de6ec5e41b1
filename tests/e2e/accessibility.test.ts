import AxeBuilder from "@axe-core/playwright";
import { describe, expect, it } from "vitest";
import { DESKTOP, MOBILE } from "../support/browser";
import { useBrowser, waitForHydration } from "../support/e2e";

const publicPages = ["/", "/nosotros", "/tienda", "/tienda/producto/agua-alcalina-personal-625ml", "/terminos", "/privacidad", "/no-existe"];

describe("accessibility", () => {
  const shop = useBrowser();

  for (const [label, device] of [["desktop", DESKTOP], ["mobile", MOBILE]] as const) {
    it(`has no serious or critical axe violations on any public page (${label})`, async () => {
      const { page, close } = await shop.open(device);
      const found: string[] = [];
      for (const path of publicPages) {
        await page.goto(`${shop.baseURL()}${path}`);
        await waitForHydration(page);
        const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
        for (const violation of results.violations) {
          if (violation.impact === "serious" || violation.impact === "critical") {
            found.push(`${path}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
          }
        }
      }
      expect(found).toEqual([]);
      await close();
    });
  }
});
