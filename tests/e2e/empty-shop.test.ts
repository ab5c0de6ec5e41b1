import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openPage } from "../support/browser";
import { startShopServer, type ShopServer } from "../support/shop-server";
import type { Browser } from "playwright-core";

/** A shop started without demo data: every read finds nothing and each page says so as the spec does. */
describe("a shop with no data yet", () => {
  let server: ShopServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startShopServer({ seed: false, templates: inject("databaseTemplates") });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the empty shop, organisations, districts and the built-in history slides", async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(`${server.baseURL}/tienda`);
    expect(await page.getByText("No hay productos disponibles").count()).toBe(1);
    expect(await page.locator("footer").getByText("No hay distritos disponibles").count()).toBe(1);
    await page.goto(`${server.baseURL}/nosotros`);
    expect(await page.getByText("No hay organizaciones para mostrar en este momento.").count()).toBe(1);
    const slide = page.getByTestId("history-current").locator("h3");
    expect(await slide.textContent()).toBe("Marzo 2025");
    expect(await page.getByRole("group", { name: "Diapositivas" }).getByRole("button").count()).toBe(3);
    expect(errors).toEqual([]);
    await close();
  });

  it("says 'No se pudo cargar el contenido' on legal pages it cannot read", async () => {
    const { page, close } = await openPage(browser);
    for (const path of ["/terminos", "/privacidad"]) {
      await page.goto(`${server.baseURL}${path}`);
      expect(await page.getByRole("alert").textContent()).toBe("No se pudo cargar el contenido");
    }
    await close();
  });
});
