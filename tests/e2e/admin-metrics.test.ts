import { describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "@server/db/seed/demo-credentials";
import { openSignedIn, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP } from "../support/browser";
import { useBrowser } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";

const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };

/**
 * Issue 11: /admin/metricas in a real browser. The figures themselves are checked against a fixture
 * worked out by hand in tests/integration/business-metrics.test.ts; here: a chosen range renders
 * (form, charts, tables), one table downloads as CSV, and the page passes axe on a desktop and at
 * 360 px with nothing wider than the screen. Literal dates, so nothing depends on the demo data's.
 */
describe("the admin reads the numbers at /admin/metricas (issue 11)", () => {
  const shop = useBrowser();

  it("desktop: chooses a range, sees the charts and tables, and downloads the daily table as CSV", async () => {
    const cookies = await signInCookies(shop.baseURL(), DEMO_ADMIN.email, DEMO_ADMIN.password);
    const { page, expectClean, close } = await openSignedIn(shop, cookies, DESKTOP);
    await page.goto(`${shop.baseURL()}/admin/metricas`);
    await page.getByLabel("Desde").fill("2026-01-01");
    await page.getByLabel("Hasta").fill("2026-01-31");
    await page.getByRole("button", { name: "Ver métricas" }).click();
    await page.waitForURL((url) => url.searchParams.get("desde") === "2026-01-01" && url.searchParams.get("hasta") === "2026-01-31");
    await page.getByRole("heading", { name: "Resumen del 1 de enero de 2026 al 31 de enero de 2026" }).waitFor();
    expect(await page.getByLabel("Desde").inputValue()).toBe("2026-01-01");
    expect(await page.getByRole("img", { name: /^Ingresos netos por día/ }).count()).toBe(1);
    expect(await page.getByRole("img", { name: /^Pedidos pagados y entregas realizadas por día/ }).count()).toBe(1);
    expect(await page.getByRole("img", { name: /^Suscripciones nuevas y canceladas por semana/ }).count()).toBe(1);
    expect(await page.getByRole("table", { name: "Suscripciones activas por plan al cierre del rango" }).count()).toBe(1);
    expect(await page.getByRole("img", { name: /^Suscripciones activas por plan al cierre de cada semana/ }).count()).toBe(1);
    expect(await page.getByRole("img", { name: /^MRR por plan al cierre de cada semana/ }).count()).toBe(1);
    await page.getByText("Tabla de suscripciones activas y MRR por semana").click();
    // January 2026 touches five weeks (29 Dec – 1 Feb); the last is taken at the range's end, the 31st.
    const activeRows = page.getByRole("table", { name: "Suscripciones activas y MRR al cierre de cada semana" }).getByRole("row");
    await expect.poll(() => activeRows.count()).toBe(6);
    expect(await activeRows.last().getByRole("rowheader").textContent()).toMatch(/^31 ene/);
    await page.getByText("Tabla por día").click();
    // 31 days and the header row.
    await expect.poll(() => page.getByRole("table", { name: "Ingresos, pedidos y entregas por día" }).getByRole("row").count()).toBe(32);
    expect(await seriousAxeViolations(page, "desktop /admin/metricas")).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Descargar CSV de los datos por día" }).first().click(),
    ]);
    expect(download.suggestedFilename()).toBe("metricas-dias-2026-01-01-a-2026-01-31.csv");
    // The run's Chromium is shared over a connection: the file is read from its stream, not a path.
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const csv = Buffer.concat(chunks).toString("utf8");
    expect(csv.startsWith("\uFEFFFecha,Compras únicas netas (S/),Suscripciones netas (S/),")).toBe(true);
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(32);
    expect(lines[1]).toMatch(/^2026-01-01,-?\d+\.\d{2},/);
    expect(lines[31]).toMatch(/^2026-01-31,/);
    await expectClean();
    await close();
  });

  it("phone (360 px): the page and its charts fit the screen and pass axe", async () => {
    const cookies = await signInCookies(shop.baseURL(), DEMO_ADMIN.email, DEMO_ADMIN.password);
    const { page, expectClean, close } = await openSignedIn(shop, cookies, PHONE);
    await page.goto(`${shop.baseURL()}/admin/metricas?desde=2026-01-01&hasta=2026-03-31`);
    const charts = page.getByRole("img");
    expect(await charts.count()).toBeGreaterThanOrEqual(5);
    for (const box of await charts.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().right)))
      expect(box).toBeLessThanOrEqual(360);
    expect(await auditLayout(page)).toEqual([]);
    expect(await seriousAxeViolations(page, "phone /admin/metricas")).toEqual([]);
    await expectClean();
    await close();
  });
});
