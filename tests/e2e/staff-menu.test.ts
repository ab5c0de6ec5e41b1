import { describe, expect, it } from "vitest";
import { DEMO_ADMIN, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { openSignedIn, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP, MOBILE } from "../support/browser";
import { useBrowser, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";

/** 360 px: the narrowest phone the shop promises to work on. */
const PHONE = { ...MOBILE, viewport: { width: 360, height: 780 } };

/**
 * The staff menu (issue 28, decision 0082) in real Chromium: grouped by job, only the pages of the
 * signed-in role, one "Menú" button at phone width, the current page marked with aria-current.
 */
describe("the staff menu", () => {
  const shop = useBrowser();

  it("at 360 px is one Menú button that opens the operaciones member's groups, takes them to a page, closes and names it", async () => {
    const cookies = await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
    const tracked = await openSignedIn(shop, cookies, PHONE);
    const { page } = tracked;
    await page.goto(`${shop.baseURL()}/admin`);
    await waitForHydration(page);
    const nav = page.getByRole("navigation", { name: "Back office" });
    const button = nav.locator("summary", { hasText: "Menú" });

    // Closed: the menu is the one button, a single row, and no link of it is on screen.
    expect(await button.isVisible()).toBe(true);
    expect(await nav.getByRole("link").filter({ visible: true }).count()).toBe(0);
    const closed = (await nav.boundingBox())!;
    const buttonBox = (await button.boundingBox())!;
    expect(closed.height).toBeLessThan(buttonBox.height * 2);
    expect(await auditLayout(page), "closed menu").toEqual([]);

    await button.click();
    const groups = nav.getByRole("list").filter({ visible: true });
    expect(await groups.evaluateAll((lists) => lists.map((list) => document.getElementById(list.getAttribute("aria-labelledby")!)?.textContent))).toEqual([
      "Operación",
      "Ventas",
      "Catálogo",
      "Atención",
    ]);
    const shown = await nav.getByRole("link").filter({ visible: true }).allTextContents();
    expect(shown).toEqual([
      "Inicio",
      "Despacho",
      "Caja",
      "Calendario",
      "Pedidos",
      "Suscripciones",
      "Clientes",
      "Comprobantes",
      "Recordatorios",
      "Distritos",
      "Mensajes",
      "Reclamos",
    ]);
    // Inicio is the page we are on: marked for assistive technology, not only by colour.
    expect(await nav.getByRole("link", { name: "Inicio" }).filter({ visible: true }).getAttribute("aria-current")).toBe("page");
    expect(await auditLayout(page), "open menu").toEqual([]);
    expect(await seriousAxeViolations(page, "staff menu open at 360 px")).toEqual([]);

    await nav.getByRole("link", { name: "Pedidos" }).filter({ visible: true }).click();
    await page.waitForURL((url) => url.pathname === "/admin/pedidos");
    await expect.poll(() => nav.getByRole("link").filter({ visible: true }).count()).toBe(0);
    expect(await button.textContent()).toContain("· Pedidos");
    await button.click();
    expect(await nav.getByRole("link", { name: "Pedidos" }).filter({ visible: true }).getAttribute("aria-current")).toBe("page");
    expect(await nav.getByRole("link", { name: "Inicio" }).filter({ visible: true }).getAttribute("aria-current")).toBeNull();
    tracked.expectClean();
    await tracked.close();
  });

  it("gives a repartidor at 360 px their route alone, with no button", async () => {
    const cookies = await signInCookies(shop.baseURL(), DEMO_REPARTIDOR.email, DEMO_REPARTIDOR.password);
    const tracked = await openSignedIn(shop, cookies, PHONE);
    const { page } = tracked;
    await page.goto(`${shop.baseURL()}/admin/reparto`);
    await waitForHydration(page);
    const nav = page.getByRole("navigation", { name: "Back office" });
    expect(await nav.locator("summary").count()).toBe(0);
    expect(await nav.getByRole("link").allTextContents()).toEqual(["Reparto"]);
    expect(await nav.getByRole("link", { name: "Reparto" }).getAttribute("aria-current")).toBe("page");
    expect(await auditLayout(page)).toEqual([]);
    tracked.expectClean();
    await tracked.close();
  });

  it("lays the admin's five groups out on a desktop, without the button, the current section marked on its sub-pages", async () => {
    const cookies = await signInCookies(shop.baseURL(), DEMO_ADMIN.email, DEMO_ADMIN.password);
    const tracked = await openSignedIn(shop, cookies, DESKTOP);
    const { page } = tracked;
    await page.goto(`${shop.baseURL()}/admin/suscripciones/pronostico`);
    await waitForHydration(page);
    const nav = page.getByRole("navigation", { name: "Back office" });
    expect(await nav.locator("summary").isVisible()).toBe(false);
    const labels = await nav
      .getByRole("list")
      .filter({ visible: true })
      .evaluateAll((lists) => lists.map((list) => document.getElementById(list.getAttribute("aria-labelledby")!)?.textContent));
    expect(labels).toEqual(["Operación", "Ventas", "Catálogo", "Atención", "Administración"]);
    const current = nav.locator('a[aria-current="page"]').filter({ visible: true });
    expect(await current.allTextContents()).toEqual(["Suscripciones"]);
    expect(await auditLayout(page)).toEqual([]);
    tracked.expectClean();
    await tracked.close();
  });
});
