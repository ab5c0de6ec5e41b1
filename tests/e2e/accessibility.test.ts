import { describe, expect, it } from "vitest";
import { DESKTOP, expectPageError, MOBILE, NOT_FOUND_DOCUMENT } from "../support/browser";
import { seriousAxeViolations } from "../support/axe";
import { useBrowser, waitForHydration } from "../support/e2e";

const publicPages = ["/", "/nosotros", "/tienda", "/tienda/producto/agua-alcalina-personal-625ml", "/terminos", "/privacidad", "/no-existe"];

describe("accessibility", () => {
  const shop = useBrowser();

  for (const [label, device] of [
    ["desktop", DESKTOP],
    ["mobile", MOBILE],
  ] as const) {
    it(`has no serious or critical axe violations on any public page (${label})`, async () => {
      const { page, close } = await shop.open(device);
      // The last page is the 404 page, which Chromium logs.
      expectPageError(NOT_FOUND_DOCUMENT);
      const found: string[] = [];
      for (const path of publicPages) {
        await page.goto(`${shop.baseURL()}${path}`);
        await waitForHydration(page);
        found.push(...(await seriousAxeViolations(page, path)));
      }
      expect(found).toEqual([]);
      await close();
    });
  }
});
