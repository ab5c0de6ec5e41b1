import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { limaToday } from "@core/lima-dates";
import { DEMO_ADMIN } from "@server/db/seed/demo-credentials";
import { formatLegalDate } from "~/components/layout/legal-page";
import { signInCookies, type SessionCookie } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP, launchBrowser, MOBILE, openPage } from "../support/browser";
import { startShopServer, type ShopServer } from "../support/shop-server";

/** The edit pages of one organisation or slide use the same fields as these pages' create forms. */
const PAGES = [
  "/admin/contenido",
  "/admin/contenido/ajustes",
  "/admin/contenido/textos/terminos-condiciones",
  "/admin/contenido/organizaciones",
  "/admin/contenido/historia",
];

/**
 * Issue 11 in the browser: the admin edits the terms and the WhatsApp number at /admin/contenido,
 * and the public pages show them at once with the new date. A server of its own, since it changes
 * texts and settings other browser tests read.
 */
describe("content admin", () => {
  let server: ShopServer;
  let browser: Browser;
  let cookies: SessionCookie[];
  beforeAll(async () => {
    server = await startShopServer({ templates: inject("databaseTemplates") });
    browser = await launchBrowser();
    cookies = await signInCookies(server.baseURL, DEMO_ADMIN.email, DEMO_ADMIN.password);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openAsAdmin(options = DESKTOP) {
    const tracked = await openPage(browser, options);
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }
  /** Chromium keeps public pages a minute: a new query string asks the server. */
  const fresh = (path: string) => `${server.baseURL}${path}?v=${Math.random().toString(36).slice(2)}`;

  it("publishes an edited legal text with today's date and keeps the previous version listed", async () => {
    const { page, errors } = await openAsAdmin();
    await page.goto(`${server.baseURL}/admin/contenido`);
    await page.getByRole("link", { name: "Términos y condiciones" }).click();
    await page.getByLabel("Texto", { exact: true }).fill("<h2>1. Nuevas condiciones</h2><p>{{marca}} entrega agua alcalina los miércoles.</p>");
    await page.getByRole("button", { name: "Guardar nueva versión" }).click();
    await page.getByRole("status").filter({ hasText: "Nueva versión guardada" }).waitFor();
    await page.getByRole("heading", { name: "Versiones guardadas (2)" }).waitFor();

    const visitor = await openPage(browser, MOBILE);
    await visitor.page.goto(fresh("/terminos"));
    await visitor.page.getByRole("heading", { name: "1. Nuevas condiciones" }).waitFor();
    expect(await visitor.page.getByText("Vida Alcalina entrega agua alcalina los miércoles.").count()).toBe(1);
    expect(await visitor.page.getByText(`Última actualización: ${formatLegalDate(limaToday(new Date()))}`).count()).toBe(1);
    expect([...errors, ...visitor.errors]).toEqual([]);
  });

  it("shows a new WhatsApp number in the chat link of every public page, and keeps a bad RUC as typed with its message (without JavaScript)", async () => {
    const { page, errors } = await openAsAdmin({ ...MOBILE, viewport: { width: 360, height: 780 } });
    await page.goto(`${server.baseURL}/admin/contenido/ajustes`);
    await page.getByLabel("Número de WhatsApp").fill("912 345 678");
    await page.getByRole("button", { name: "Guardar ajustes del sitio" }).click();
    await page.getByRole("status").filter({ hasText: "Ajustes del sitio guardados" }).waitFor();
    expect(await page.getByLabel("Número de WhatsApp").inputValue()).toBe("51912345678");

    const visitor = await openPage(browser);
    await visitor.page.goto(fresh("/"));
    expect(await visitor.page.getByTestId("chat-button").getAttribute("href")).toMatch(/^https:\/\/wa\.me\/51912345678\?text=/);

    const noScript = await openAsAdmin({ ...DESKTOP, javaScriptEnabled: false });
    await noScript.page.goto(`${server.baseURL}/admin/contenido/ajustes`);
    await noScript.page.getByLabel("Razón social").fill("AGUAS DEL SUR S.A.C.");
    await noScript.page.getByLabel("RUC").fill("20456789015");
    await noScript.page.getByRole("button", { name: "Guardar datos del emisor" }).click();
    await noScript.page.getByText(/^El RUC no es válido/).waitFor();
    expect(await noScript.page.getByLabel("RUC").inputValue()).toBe("20456789015");
    expect(await noScript.page.getByLabel("Razón social").inputValue()).toBe("AGUAS DEL SUR S.A.C.");
    expect([...errors, ...visitor.errors]).toEqual([]);
  });

  it("has no serious accessibility problem and no sideways scroll on any content page, on a desktop and at 360 px", async () => {
    for (const options of [DESKTOP, { ...MOBILE, viewport: { width: 360, height: 780 } }]) {
      const { page, errors } = await openAsAdmin(options);
      for (const path of PAGES) {
        await page.goto(`${server.baseURL}${path}`);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        expect(await seriousAxeViolations(page, path)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${path} at ${options.viewport?.width}px`).toBe(true);
      }
      expect(errors).toEqual([]);
    }
  });
});
