import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { signInCookies, type SessionCookie } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP, launchBrowser, MOBILE, openPage } from "../support/browser";
import { openCheckoutWithCart } from "../support/checkout-page";
import { startShopServer, type ShopServer } from "../support/shop-server";

/**
 * Issue 11 in the browser: operaciones keep the districts at /admin/distritos; a district made
 * unserved leaves the footer and the checkout's list at once. A server of its own, since the
 * footer's served districts are what other browser tests count.
 */
describe("districts staff keep at /admin/distritos", () => {
  let server: ShopServer;
  let browser: Browser;
  let cookies: SessionCookie[];
  beforeAll(async () => {
    server = await startShopServer({ templates: inject("databaseTemplates") });
    browser = await launchBrowser();
    cookies = await signInCookies(server.baseURL, DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openAsStaff(options: BrowserContextOptions) {
    const tracked = await openPage(browser, options);
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }
  /** Chromium keeps public pages a minute: a new query string asks the server. */
  const fresh = (path: string) => `${server.baseURL}${path}?v=${Math.random().toString(36).slice(2)}`;
  const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  const inFooter = async (page: Page, name: string) => {
    await page.goto(fresh("/"));
    return page.locator("footer").getByText(name, { exact: true }).count();
  };
  /** The checkout (private, never cached) shows its form only with something in the cart. */
  const inCheckoutList = async (page: Page, name: string) => {
    await openCheckoutWithCart(page, server.baseURL);
    return page.locator(`#served-districts option[value="${name}"]`).count();
  };

  it("keeps what was typed with the Spanish message at 360 px, and a district made unserved leaves the footer and the checkout", async () => {
    const visitor = await openPage(browser, MOBILE);
    expect(await inFooter(visitor.page, "Surquillo")).toBe(1);
    expect(await inCheckoutList(visitor.page, "Surquillo")).toBe(1);

    // At phone width: served without a weekday is refused, the notes stay as typed.
    const phone = await openAsStaff({ ...MOBILE, viewport: { width: 360, height: 780 } });
    await phone.page.goto(`${server.baseURL}/admin/distritos`);
    await phone.page.getByRole("link", { name: "Surquillo" }).click();
    await phone.page.getByRole("heading", { name: "Surquillo", level: 1 }).waitFor();
    for (const day of ["Martes", "Viernes"]) await phone.page.getByLabel(day, { exact: true }).uncheck();
    await phone.page.getByLabel("Notas para repartidores y equipo").fill("Portería de la cuadra 5 cierra a las 17:00.");
    await phone.page.getByRole("button", { name: "Guardar distrito" }).click();
    await phone.page.getByText("Un distrito atendido necesita al menos un día de reparto").waitFor();
    expect(await phone.page.getByLabel("Notas para repartidores y equipo").inputValue()).toBe("Portería de la cuadra 5 cierra a las 17:00.");
    expect(await phone.page.getByLabel("Martes", { exact: true }).isChecked()).toBe(false);
    expect(await seriousAxeViolations(phone.page, "/admin/distritos/:id at 360 px")).toEqual([]);
    expect(await noSideScroll(phone.page)).toBe(true);
    await phone.page.goto(`${server.baseURL}/admin/distritos`);
    expect(await seriousAxeViolations(phone.page, "/admin/distritos at 360 px")).toEqual([]);
    expect(await noSideScroll(phone.page)).toBe(true);

    // At desktop width: Surquillo stops being served.
    const desktop = await openAsStaff(DESKTOP);
    await desktop.page.goto(`${server.baseURL}/admin/distritos`);
    await desktop.page.getByRole("link", { name: "Surquillo" }).click();
    await desktop.page.getByLabel("Repartimos en este distrito").uncheck();
    await desktop.page.getByRole("button", { name: "Guardar distrito" }).click();
    await desktop.page.getByRole("status").filter({ hasText: "Distrito guardado" }).waitFor();
    expect(await seriousAxeViolations(desktop.page, "/admin/distritos/:id")).toEqual([]);
    await desktop.page.getByRole("link", { name: "Todos los distritos" }).click();
    await desktop.page
      .getByRole("region", { name: /^Sin reparto/ })
      .getByRole("link", { name: "Surquillo" })
      .waitFor();
    expect(await seriousAxeViolations(desktop.page, "/admin/distritos")).toEqual([]);

    expect(await inFooter(visitor.page, "Surquillo")).toBe(0);
    expect(await inCheckoutList(visitor.page, "Surquillo")).toBe(0);
    expect(await inCheckoutList(visitor.page, "Miraflores")).toBe(1);

    expect([...visitor.errors, ...phone.errors, ...desktop.errors]).toEqual([]);
    await Promise.all([visitor.close(), phone.close(), desktop.close()]);
  });
});
