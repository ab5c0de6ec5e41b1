import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openPage } from "../support/browser";
import { bookableDates } from "../support/lima-clock";
import { startShopServer, type ShopServer } from "../support/shop-server";

/**
 * Delivery dates are Lima dates whatever the clocks around them say: a server running in UTC+14
 * and a browser in Tokyo still offer the next two Wednesdays counted from tomorrow in Lima (the day
 * after once it is 18:00 there, issue 10).
 */
describe("delivery dates in Lima time", () => {
  let server: ShopServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startShopServer({ templates: inject("databaseTemplates"), env: { TZ: "Pacific/Kiritimati" } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("offers the dates of Lima's calendar with the server and the browser in other zones", async () => {
    const { page, close } = await openPage(browser, { timezoneId: "Asia/Tokyo" });
    await page.goto(`${server.baseURL}/tienda`);
    await page.evaluate(() =>
      window.localStorage.setItem(
        "va-cart:v1",
        JSON.stringify([
          {
            key: "6",
            productId: 6,
            variantId: null,
            slug: "caja-20l-con-dispensador",
            title: "Caja",
            image: null,
            price: 5990,
            variantTitle: null,
            quantity: 1,
          },
        ]),
      ),
    );
    await page.goto(`${server.baseURL}/checkout`);
    await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
    // Between them these two districts are served Monday to Saturday, so whichever day it is in
    // Lima, one of the checks lands on "tomorrow", where a clock in the wrong zone would differ.
    const cases = [
      [
        "Miraflores",
        [
          [1, "Lunes"],
          [3, "Miércoles"],
          [5, "Viernes"],
        ],
      ],
      [
        "Santiago de Surco",
        [
          [2, "Martes"],
          [4, "Jueves"],
          [6, "Sábado"],
        ],
      ],
    ] as const;
    for (const [district, days] of cases) {
      await page.getByLabel("Distrito").fill(district);
      for (const [dayNumber, label] of days) {
        await page.getByLabel("Día de entrega").selectOption({ label });
        const offered = await page.locator('input[name="fecha"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
        expect(offered, `${district}, ${label}`).toEqual(bookableDates(dayNumber));
      }
    }
    await close();
  });
});
