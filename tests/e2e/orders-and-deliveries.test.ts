import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { formatLimaInstant } from "@core/lima-dates";
import { cookieHeader, DEMO_CUSTOMER, openSignedIn, registerCustomer, signInCookies, type SessionCookie } from "../support/accounts";
import { DESKTOP, expectPageError, MOBILE, NOT_FOUND_DOCUMENT } from "../support/browser";
import { seriousAxeViolations } from "../support/axe";
import { useBrowser, waitForHydration } from "../support/e2e";

const texts = (page: Page, testId: string) => page.getByTestId(testId).allTextContents();

/** The demo customer (server/db/seed/demo-accounts.ts): 14 orders, 12 deliveries, 2 of them today and 1 tomorrow. */
describe("the customer's orders and deliveries", () => {
  const shop = useBrowser();
  let demo: SessionCookie[];
  beforeAll(async () => {
    demo = await signInCookies(shop.baseURL(), DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
  });

  it("lists the orders 10 a page, newest first, with previous and next links", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Mis pedidos");
    expect(await page.getByTestId("order-row").count()).toBe(10);
    expect(await page.getByTestId("pager-summary").textContent()).toBe("Mostrando 1 a 10 de 14 resultados");
    expect(await page.getByTestId("order-cards").isVisible()).toBe(false);
    const firstRow = page.getByTestId("order-row").first();
    expect(await firstRow.textContent()).toMatch(/^VA-\d{6}.+Única.*Pago iniciado.*S\/ \d/);
    expect(await page.getByRole("table").getByText("Suscripción").count()).toBeGreaterThan(0);
    expect(await page.getByRole("link", { name: "Anterior" }).count()).toBe(0);
    const firstPage = await page.getByTestId("order-row").locator("th").allTextContents();

    await waitForHydration(page);
    await page.getByRole("link", { name: "Siguiente" }).click();
    await page.waitForURL(/\/dashboard\/pedidos\?page=2$/);
    await page.getByText("Mostrando 11 a 14 de 14 resultados").waitFor();
    expect(await page.getByTestId("order-row").count()).toBe(4);
    const secondPage = await page.getByTestId("order-row").locator("th").allTextContents();
    expect(new Set([...firstPage, ...secondPage]).size).toBe(14);
    expect(await page.getByRole("link", { name: "Siguiente" }).count()).toBe(0);
    await page.getByRole("link", { name: "Anterior" }).click();
    await page.waitForURL(/\/dashboard\/pedidos$/);
    await page.getByText("Mostrando 1 a 10 de 14 resultados").waitFor();
    expect(await page.getByTestId("order-row").locator("th").allTextContents()).toEqual(firstPage);
    expectClean();

    // A page past the end goes to the last one.
    await page.goto(`${shop.baseURL()}/dashboard/pedidos?page=9`);
    expect(new URL(page.url()).search).toBe("?page=2");
    await close();
  });

  it("shows a new customer the empty states", async () => {
    const { cookies } = await registerCustomer(shop.baseURL());
    const { page, expectClean, close } = await openSignedIn(shop, cookies);
    await page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    expect(await page.getByTestId("empty-state").getByText("No hay pedidos").count()).toBe(1);
    expect(await page.getByRole("link", { name: "Ver productos" }).getAttribute("href")).toBe("/productos");
    await page.goto(`${shop.baseURL()}/dashboard/envios`);
    expect(await page.getByTestId("empty-state").textContent()).toBe("No tienes envíos programados");
    await page.goto(`${shop.baseURL()}/dashboard/envios?filter=delivered`);
    expect(await page.getByTestId("empty-state").textContent()).toBe("No se encontraron envíos");
    expectClean();
    await close();
  });

  it("shows an order's products, summary, payment, shipping and links, and prints a clean receipt", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    // The newest order: a cash order waiting for payment, delivery in five days, invoice pending.
    const orderNumber = await page.getByTestId("order-row").first().locator("th").textContent();
    await waitForHydration(page);
    await page.getByRole("link", { name: `Ver detalle del pedido ${orderNumber}` }).click();
    await page.getByRole("heading", { level: 1, name: `Pedido ${orderNumber}` }).waitFor();
    expect(await page.getByTestId("order-status").textContent()).toBe("Pago iniciado");
    const lines = page.getByTestId("order-lines");
    expect(await lines.locator("thead").textContent()).toBe("ProductoCantidadPrecio unitarioTotal");
    const cells = await lines.locator("tbody tr").first().locator("td").allTextContents();
    expect(cells[0]).toMatch(/^Agua alcalina personal 625 mlPack x 48/);
    expect(cells.slice(1)).toEqual(["1", "S/ 105.00", "S/ 105.00"]);
    const totals = await page.getByTestId("order-totals").textContent();
    expect(totals).toContain("EnvíoGratis");
    expect(totals).toContain("Impuestos (IGV)Incluido");
    expect(totals).not.toContain("Descuento");
    const article = page.getByTestId("order-detail");
    expect(await article.textContent()).toContain("Medio de pagoPago en efectivo");
    expect(await article.textContent()).toContain("Estado del pagoPendiente de pago");
    expect(await article.textContent()).toMatch(/Código de pago\d{8}/);
    expect(await article.textContent()).toContain("DirecciónAv. José Larco 1234, dpto. 502, Miraflores");
    expect(await article.textContent()).toContain("HorarioMañana (9am - 12pm)");
    expect(await page.getByRole("link", { name: /^Envío ENV-\d{6}$/ }).getAttribute("href")).toMatch(/^\/dashboard\/envios\/[0-9a-f-]{36}$/);
    expect(await page.getByRole("link", { name: /^Comprobante B001-\d{8}$/ }).getAttribute("href")).toMatch(/^\/dashboard\/facturas\/[0-9a-f-]{36}$/);
    expect(await page.getByRole("link", { name: "← Volver a mis pedidos" }).getAttribute("href")).toBe("/dashboard/pedidos");

    await page.evaluate(() => {
      const calls: string[] = [];
      (window as unknown as { printCalls: string[] }).printCalls = calls;
      window.print = () => void calls.push("print");
    });
    await page.getByRole("button", { name: "Imprimir comprobante" }).click();
    expect(await page.evaluate(() => (window as unknown as { printCalls: string[] }).printCalls)).toEqual(["print"]);

    const sidebar = page.getByRole("navigation", { name: "Mi cuenta" });
    expect(await sidebar.isVisible()).toBe(true);
    expect(await page.getByTestId("print-brand").isVisible()).toBe(false);
    await page.emulateMedia({ media: "print" });
    expect(await sidebar.isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Imprimir comprobante" }).isVisible()).toBe(false);
    expect(await page.getByRole("link", { name: "← Volver a mis pedidos" }).isVisible()).toBe(false);
    expect(await page.getByRole("heading", { level: 1 }).isVisible()).toBe(true);
    expect(await page.getByTestId("order-total").isVisible()).toBe(true);
    expect(await page.getByTestId("order-lines").isVisible()).toBe(true);
    expect(await page.getByTestId("print-brand").textContent()).toBe("Vida Alcalina");
    expect(await page.getByTestId("print-brand").isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: /^Comprobante B001-\d{8}$/ }).isVisible()).toBe(true);
    expectClean();
    await close();
  });

  it("shows the subscription discount on a subscription order", async () => {
    const { page, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    const subscriptionRow = page.getByTestId("order-row").filter({ hasText: "Suscripción" }).first();
    await waitForHydration(page);
    await subscriptionRow.getByRole("link", { name: /Ver detalle/ }).click();
    await page.getByTestId("order-detail").waitFor();
    expect(await page.getByTestId("order-totals").textContent()).toMatch(/Descuento- S\/ \d+\.\d{2}/);
    expect(await page.getByTestId("order-detail").textContent()).toContain("Suscripción Mensual");
    await close();
  });

  it("splits the deliveries into tabs, with 'Hoy' and 'Mañana' for the next ones", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/dashboard/envios`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Mis Envíos");
    const tabs = page.getByRole("navigation", { name: "Filtrar envíos" });
    expect(await tabs.getByRole("link").allTextContents()).toEqual(["Próximos", "En camino", "Entregados", "Todos"]);
    expect(await tabs.getByRole("link", { name: "Próximos" }).getAttribute("aria-current")).toBe("page");
    const days = await texts(page, "delivery-day");
    expect(days.slice(0, 3)).toEqual(["Hoy", "Hoy", "Mañana"]);
    expect(days).toHaveLength(4);
    expect(await texts(page, "delivery-status")).toEqual(["En camino", "Programado", "Programado", "Pendiente"]);
    const firstRow = page.getByTestId("delivery-row").first();
    expect(await firstRow.textContent()).toMatch(
      /^Envío ENV-\d{6}Hoy · Horario: Mañana \(9am - 12pm\)Av\. José Larco 1234, dpto\. 502, MirafloresPedido VA-\d{6} · 2 × Agua alcalina sport 1 L \(Pack x 12\)En camino$/,
    );

    await waitForHydration(page);
    await tabs.getByRole("link", { name: "Entregados" }).click();
    await page.waitForURL(/\?filter=delivered$/);
    await page.getByRole("link", { name: "Entregados", exact: true }).and(page.locator("[aria-current=page]")).waitFor();
    const delivered = await texts(page, "delivery-status");
    expect(delivered).toHaveLength(8);
    expect(new Set(delivered)).toEqual(new Set(["Entregado"]));
    expect(await texts(page, "delivery-day")).not.toContain("Hoy");

    await tabs.getByRole("link", { name: "En camino" }).click();
    await page.waitForURL(/\?filter=in_transit$/);
    await page.getByRole("link", { name: "En camino", exact: true }).and(page.locator("[aria-current=page]")).waitFor();
    expect(await texts(page, "delivery-status")).toEqual(["En camino"]);

    await tabs.getByRole("link", { name: "Todos" }).click();
    await page.waitForURL(/\?filter=all$/);
    await page.getByRole("link", { name: "Todos", exact: true }).and(page.locator("[aria-current=page]")).waitFor();
    expect(await page.getByTestId("delivery-row").count()).toBe(12);
    expectClean();
    await close();
  });

  it("opens a delivery's tracking detail from its row, with the history as a timeline in Lima time", async () => {
    // A browser in Tokyo still reads Lima's clock.
    const { page, expectClean, close } = await openSignedIn(shop, demo, { timezoneId: "Asia/Tokyo" });
    await page.goto(`${shop.baseURL()}/mi-cuenta/envios?filter=upcoming`);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/dashboard/envios?filter=upcoming");
    const firstRow = page.getByTestId("delivery-row").first();
    const number = /ENV-\d{6}/.exec((await firstRow.textContent())!)![0];
    await waitForHydration(page);
    await firstRow.click();
    await page.getByRole("heading", { level: 1, name: `Envío ${number}` }).waitFor();
    expect(await page.getByTestId("delivery-status").first().textContent()).toBe("En camino");
    const facts = await page.getByTestId("delivery-facts").textContent();
    const todayInLima = new Intl.DateTimeFormat("es-PE", { timeZone: "America/Lima", weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(
      new Date(),
    );
    expect(facts).toContain(`FechaHoy, ${todayInLima}`);
    expect(facts).toContain("HorarioMañana (9am - 12pm)");
    expect(facts).toContain("DirecciónAv. José Larco 1234, dpto. 502, Miraflores");
    expect(facts).toContain("Código de seguimientoVA-TRK-1004");
    expect(facts).toContain("TransportistaReparto propio");
    expect(await page.getByRole("link", { name: /^VA-\d{6}$/ }).getAttribute("href")).toMatch(/^\/dashboard\/pedidos\/[0-9a-f-]{36}$/);
    expect(await page.getByTestId("order-lines").locator("tbody tr").count()).toBe(1);
    expect(await page.getByTestId("order-totals").textContent()).toContain("EnvíoGratis");

    const timeline = page.getByRole("list", { name: "Historial del envío" });
    expect(await timeline.evaluate((element) => element.tagName)).toBe("OL");
    const steps = timeline.getByRole("listitem");
    expect(await steps.locator("p:first-of-type").allTextContents()).toEqual(["Pendiente", "Preparando", "Programado", "Enviado", "En camino"]);
    expect(await steps.last().getAttribute("aria-current")).toBe("step");
    expect(await steps.last().textContent()).toContain("El repartidor salió con tu pedido");
    for (const time of await timeline.locator("time").all()) {
      expect(await time.textContent()).toBe(formatLimaInstant((await time.getAttribute("datetime"))!));
    }
    expectClean();
    await close();
  });

  it("shows cards instead of the orders table on a phone, and the deliveries as cards too", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo, MOBILE);
    await page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    expect(await page.getByTestId("orders-table").isVisible()).toBe(false);
    const cards = page.getByTestId("order-card");
    expect(await cards.count()).toBe(10);
    expect(await cards.first().isVisible()).toBe(true);
    expect(
      await cards
        .first()
        .getByRole("link", { name: /Ver detalle/ })
        .isVisible(),
    ).toBe(true);
    // The order's products fit the phone: quantity and unit price sit under the name.
    await cards
      .first()
      .getByRole("link", { name: /Ver detalle/ })
      .click();
    await page.getByTestId("order-detail").waitFor();
    expect(await page.getByTestId("order-lines").getByText("1 × S/ 105.00").isVisible()).toBe(true);
    expect(await page.getByRole("columnheader", { name: "Precio unitario" }).isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto(`${shop.baseURL()}/dashboard/envios`);
    const row = page.getByTestId("delivery-row").first();
    const box = (await row.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expectClean();
    await close();
  });

  it("works without JavaScript: tabs and pages are plain links", async () => {
    const { page, close } = await openSignedIn(shop, demo, { javaScriptEnabled: false });
    await page.goto(`${shop.baseURL()}/dashboard/envios`);
    await page.getByRole("link", { name: "Todos" }).click();
    await page.waitForURL(/\?filter=all$/);
    expect(await page.getByTestId("delivery-row").count()).toBe(12);
    await page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    await page.getByRole("link", { name: "Siguiente" }).click();
    await page.waitForURL(/\?page=2$/);
    expect(await page.getByTestId("order-row").count()).toBe(4);
    await close();
  });

  it("sends anonymous visitors to /login, coming back to the page asked for", async () => {
    for (const path of [
      "/dashboard/pedidos?page=2",
      "/dashboard/pedidos/0b9c4a52-7f7a-4c3e-9d55-1f1d2a3b4c5d",
      "/dashboard/envios?filter=delivered",
      "/dashboard/envios/0b9c4a52-7f7a-4c3e-9d55-1f1d2a3b4c5d",
    ]) {
      const response = await fetch(`${shop.baseURL()}${path}`, { redirect: "manual" });
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    const { page, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/dashboard/envios`);
    await page.waitForURL(/\/login\?redirectTo=%2Fdashboard%2Fenvios$/);
    await close();
  });

  it("answers another customer with 'no encontrado', never the demo customer's order or delivery", async () => {
    const demoPage = await openSignedIn(shop, demo);
    await demoPage.page.goto(`${shop.baseURL()}/dashboard/envios?filter=all`);
    const deliveryPath = (await demoPage.page.getByTestId("delivery-row").first().getAttribute("href"))!;
    await demoPage.page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    const orderPath = (await demoPage.page
      .getByRole("link", { name: /Ver detalle/ })
      .first()
      .getAttribute("href"))!;
    await demoPage.close();

    const { cookies } = await registerCustomer(shop.baseURL());
    const { page, close } = await openSignedIn(shop, cookies);
    expectPageError(NOT_FOUND_DOCUMENT);
    for (const [path, message] of [
      [orderPath, "Pedido no encontrado"],
      ["/dashboard/pedidos/no-es-un-id", "Pedido no encontrado"],
      [deliveryPath, "Envío no encontrado"],
      ["/dashboard/envios/123", "Envío no encontrado"],
    ] as const) {
      const response = await page.goto(`${shop.baseURL()}${path}`);
      expect(response?.status(), path).toBe(404);
      expect(await page.getByRole("heading", { level: 1 }).textContent(), path).toBe(message);
      expect(await page.locator("main").textContent(), path).not.toMatch(/José Larco|VA-\d{6}|ENV-\d{6}/);
      expect(await page.title()).toBe(message);
    }
    // The page itself never reaches the browser either.
    const raw = await fetch(`${shop.baseURL()}${orderPath}`, { headers: { cookie: cookieHeader(cookies) } });
    expect(raw.status).toBe(404);
    expect(await raw.text()).not.toContain("José Larco");
    await close();
  });

  for (const [label, device] of [
    ["desktop", DESKTOP],
    ["mobile", MOBILE],
  ] as const) {
    it(`has no serious or critical axe violations on the four pages (${label})`, async () => {
      const { page, close } = await openSignedIn(shop, demo, device);
      const found: string[] = [];
      // Each list page gives the detail page audited after it.
      const audit = async (path: string, next?: () => Promise<string | null>) => {
        await page.goto(`${shop.baseURL()}${path}`);
        await waitForHydration(page);
        found.push(...(await seriousAxeViolations(page, path)));
        return next ? (await next())! : "";
      };
      const orderPath = await audit("/dashboard/pedidos", () =>
        page
          .getByRole("link", { name: /Ver detalle/ })
          .first()
          .getAttribute("href"),
      );
      await audit(orderPath);
      const deliveryPath = await audit("/dashboard/envios", () => page.getByTestId("delivery-row").first().getAttribute("href"));
      await audit(deliveryPath);
      expect(found).toEqual([]);
      await close();
    });
  }
});
