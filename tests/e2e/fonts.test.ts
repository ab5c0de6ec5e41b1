import { describe, expect, it } from "vitest";
import { MOBILE } from "../support/browser";
import { useBrowser } from "../support/e2e";

/**
 * Decision 0030: the shop's text is drawn in the Roboto it ships, never in whatever sans-serif the
 * machine has, so every browser and every test machine measures the same page.
 */
describe("the shop's own typeface", () => {
  const shop = useBrowser();

  for (const path of ["/", "/nosotros", "/tienda"]) {
    it(`draws the text of ${path} in the shipped Roboto, fetched once`, async () => {
      const { page, expectClean, close } = await shop.open(MOBILE);
      const fontRequests: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "font") fontRequests.push(new URL(request.url()).pathname);
      });
      await page.goto(`${shop.baseURL()}${path}`);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));

      // What Chromium actually drew with (not what the CSS asked for): the heading and body text.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("DOM.enable");
      await cdp.send("CSS.enable");
      const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
      for (const selector of ["main h1", "main p"]) {
        const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
        expect(nodeId, selector).toBeGreaterThan(0);
        const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
        expect(
          fonts.map((font) => ({ family: font.familyName, custom: font.isCustomFont })),
          `${path} ${selector}`,
        ).toEqual([{ family: "Roboto", custom: true }]);
      }

      expect(fontRequests).toEqual([expect.stringMatching(/^\/assets\/roboto-latin-wght-normal-[\w-]+\.woff2$/)]);
      const preload = await page.locator("link[rel=preload][as=font]").getAttribute("href");
      expect(preload).toBe(fontRequests[0]);
      expectClean();
      await close();
    });
  }
});
