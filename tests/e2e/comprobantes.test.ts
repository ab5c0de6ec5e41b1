import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_CUSTOMER, DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { cookieHeader, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { launchBrowser, openPage, type TrackedPage } from "../support/browser";
import { startNubefactMock, type NubefactMock } from "../support/nubefact-mock";
import { checkoutBody, postSandboxAction } from "../support/shop-process";
import { startShopServer, type ShopServer } from "../support/shop-server";

/**
 * Decision 0045 in the browser: a paid order's boleta waits while Nubefact is down; staff see it
 * at /admin/comprobantes with its deadline and press "Reintentar" once it is back; the customer
 * then finds the XML and SUNAT's CDR beside the PDF. A server of its own, pointed at the local
 * Nubefact.
 */
describe("electronic comprobantes in the browser", () => {
  let server: ShopServer;
  let browser: Browser;
  let nubefact: NubefactMock;
  beforeAll(async () => {
    nubefact = await startNubefactMock("down");
    server = await startShopServer({ templates: inject("databaseTemplates"), env: { NUBEFACT_URL: nubefact.url, NUBEFACT_TOKEN: nubefact.token } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await nubefact?.close();
  });

  async function signedIn(email: string, password: string, options: Parameters<typeof openPage>[1] = {}): Promise<TrackedPage> {
    const tracked = await openPage(browser, options);
    await tracked.page.context().addCookies((await signInCookies(server.baseURL, email, password)).map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }

  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it("staff retry a boleta held by an outage; the customer then gets its XML and CDR links", async () => {
    // Bought signed in: a guest checkout with the same e-mail stays out of the account (issue 39).
    const customerCookies = await signInCookies(server.baseURL, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const placed = await fetch(`${server.baseURL}/checkout`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.baseURL, cookie: cookieHeader(customerCookies) },
      body: JSON.stringify(checkoutBody({ correo: DEMO_CUSTOMER.email })),
      redirect: "manual",
    });
    expect(placed.status).toBe(302);
    expect((await postSandboxAction(server.baseURL, placed.headers.get("location")!, "approve_card")).status).toBeLessThan(400);
    await expect.poll(() => nubefact.log.length, { timeout: 15_000 }).toBeGreaterThan(0);

    const staff = await signedIn(DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
    await staff.page.goto(`${server.baseURL}/admin/comprobantes`);
    const row = staff.page.getByTestId("comprobante-row").filter({ hasText: "Pendiente" }).first();
    await row.getByText("Plazo SUNAT").waitFor();
    const invoiceNumber = (await row.locator("p").first().innerText()).split(/\s/)[0]!;
    expect(invoiceNumber).toMatch(/^B001-\d{8}$/);
    expect(await seriousAxeViolations(staff.page, "desktop")).toEqual([]);

    nubefact.setMode("accept");
    await staff.page.getByRole("button", { name: `Reintentar ${invoiceNumber}` }).click();
    await staff.page
      .getByRole("status")
      .filter({ hasText: `${invoiceNumber} se enviará de nuevo` })
      .waitFor();
    await expect
      .poll(
        async () => {
          await staff.page.goto(`${server.baseURL}/admin/comprobantes?estado=accepted&q=${invoiceNumber}`);
          return staff.page.getByTestId("comprobante-row").count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    expect(staff.errors).toEqual([]);

    const phone = await signedIn(DEMO_OPERACIONES.email, DEMO_OPERACIONES.password, { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
    await phone.page.goto(`${server.baseURL}/admin/comprobantes?estado=all`);
    expect(await fitsWidth(phone.page)).toBe(true);
    expect(await seriousAxeViolations(phone.page, "360 px")).toEqual([]);

    const customer = await signedIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await customer.page.goto(`${server.baseURL}/dashboard/facturas?q=${invoiceNumber}`);
    const xml = customer.page.getByRole("link", { name: `Descargar XML de ${invoiceNumber}` });
    const cdr = customer.page.getByRole("link", { name: `Descargar CDR de SUNAT de ${invoiceNumber}` });
    expect(await xml.getAttribute("href")).toMatch(/\.xml$/);
    expect(await cdr.getAttribute("href")).toMatch(/\.cdr$/);
    expect(customer.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
