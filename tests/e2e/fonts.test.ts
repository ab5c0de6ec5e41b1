import { describe, expect, it } from "vitest";
import { MOBILE } from "../support/browser";
import { useBrowser } from "../support/e2e";

/**
 * Decision 0103: the shop draws its text in the phone's own font (Roboto on Android, San Francisco
 * on an iPhone) and downloads none, so the first paint is the text's paint and mobile data carries
 * no font file.
 */
describe("the shop's typeface", () => {
  const shop = useBrowser();

  it("draws the text of /, /nosotros and /tienda in the machine's own font and fetches no font file", async () => {
    const { page, expectClean, close } = await shop.open(MOBILE);
    const fontRequests: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "font") fontRequests.push(new URL(request.url()).pathname);
    });
    for (const path of ["/", "/nosotros", "/tienda"]) {
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
        expect(fonts.length, `${path} ${selector}`).toBeGreaterThan(0);
        expect(
          fonts.filter((font) => font.isCustomFont),
          `${path} ${selector}`,
        ).toEqual([]);
      }
      await cdp.detach();
    }
    expect(fontRequests).toEqual([]);
    expect(await page.locator("link[rel=preload][as=font]").count()).toBe(0);
    expectClean();
    await close();
  });
});
