import { access } from "node:fs/promises";
import path from "node:path";
import { unzipSync } from "fflate";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, DEMO_CUSTOMER, openSignedIn, registerCustomer, signInCookies, type SessionCookie } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { expectPageError, MOBILE, NOT_FOUND_DOCUMENT } from "../support/browser";
import { useBrowser, waitForEmail, waitForHydration } from "../support/e2e";
import { pdfPlainText } from "../support/pdf-text";

/** 'S/ 1,234.50' → 123450 céntimos. */
function cents(text: string | null): number {
  return Math.round(Number((text ?? "").replace(/[^\d.]/g, "")) * 100);
}

async function chipCount(page: Page, status: string): Promise<number> {
  return Number(await page.getByTestId(`invoice-chip-${status}`).getByTestId("chip-count").textContent());
}

describe("the customer's invoices", () => {
  const shop = useBrowser();
  let demo: SessionCookie[];
  /** A demo customer's invoice id, read from the list as a browser would. */
  let demoInvoiceId: string;

  beforeAll(async () => {
    demo = await signInCookies(shop.baseURL(), DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const html = await (await fetch(`${shop.baseURL()}/dashboard/facturas`, { headers: { cookie: cookieHeader(demo) } })).text();
    demoInvoiceId = /\/dashboard\/facturas\/([0-9a-f-]{36})\/pdf/.exec(html)![1]!;
  });

  it("lists the invoices with summary cards, status chips and their counts, unpaid first", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/dashboard/facturas`);
    await waitForHydration(page);
    await page.getByRole("heading", { name: "Facturas", level: 1 }).waitFor();
    const rows = page.getByTestId("invoice-row");
    const total = await rows.count();
    expect(total).toBeGreaterThanOrEqual(12);
    expect(await page.getByTestId("summary-count").textContent()).toBe(String(total));

    // The demo customer has one overdue and one pending invoice: they lead the list, overdue first.
    const badges = await page.getByTestId("invoice-table").getByTestId("invoice-status").allTextContents();
    expect(badges.slice(0, 2)).toEqual(["Vencida", "Pendiente"]);
    expect(new Set(badges.slice(2))).toEqual(new Set(["Pagada"]));
    const amounts = await page.locator("[data-testid=invoice-row] td:nth-child(5)").allTextContents();
    expect(cents(await page.getByTestId("summary-pending").textContent())).toBe(cents(amounts[0]!) + cents(amounts[1]!));
    expect(cents(await page.getByTestId("summary-billed").textContent())).toBe(amounts.reduce((sum, amount) => sum + cents(amount), 0));

    // 'Filtros' opens the chips, each with its count.
    await page.locator("summary", { hasText: "Filtros" }).click();
    expect(await chipCount(page, "all")).toBe(total);
    expect(await chipCount(page, "pending")).toBe(1);
    expect(await chipCount(page, "overdue")).toBe(1);
    expect(await chipCount(page, "paid")).toBe(total - 2);
    expect(await page.getByTestId("invoice-chip-all").getAttribute("aria-current")).toBe("true");

    await page.getByTestId("invoice-chip-paid").click();
    await page.waitForURL(/status=paid/);
    await expect.poll(() => rows.count()).toBe(total - 2);
    expect(new Set(await page.getByTestId("invoice-table").getByTestId("invoice-status").allTextContents())).toEqual(new Set(["Pagada"]));
    expect(await page.getByTestId("invoice-chip-paid").getAttribute("aria-current")).toBe("true");
    expect(await seriousAxeViolations(page, "invoices")).toEqual([]);
    expectClean();
    await close();
  });

  it("selects Pendientes from /mi-cuenta/facturas?status=pending", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/mi-cuenta/facturas?status=pending`);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/dashboard/facturas?status=pending");
    await waitForHydration(page);
    expect(await page.getByTestId("invoice-chip-pending").isVisible()).toBe(true);
    expect(await page.getByTestId("invoice-chip-pending").getAttribute("aria-current")).toBe("true");
    expect(await page.getByTestId("invoice-chip-all").getAttribute("aria-current")).toBeNull();
    expect(await page.getByTestId("invoice-table").getByTestId("invoice-status").allTextContents()).toEqual(["Pendiente"]);
    expectClean();
    await close();
  });

  it("narrows the rows as the customer searches, and clears the filters from the empty state", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/dashboard/facturas`);
    await waitForHydration(page);
    const rows = page.getByTestId("invoice-row");
    const total = await rows.count();
    const wanted = (await rows.nth(3).locator("td").first().textContent())!;

    await page.getByPlaceholder("Buscar facturas...").fill(wanted);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().locator("td").first().textContent()).toBe(wanted);
    expect(new URL(page.url()).searchParams.get("q")).toBe(wanted);

    await page.getByPlaceholder("Buscar facturas...").fill("no-existe-esta-factura");
    await page.getByTestId("invoices-empty").waitFor();
    expect(await page.getByTestId("invoices-empty").getByRole("link", { name: "Ver mis pedidos" }).getAttribute("href")).toBe("/dashboard/pedidos");
    // No rows, no bulk block.
    expect(await page.getByRole("button", { name: "Enviar por email" }).count()).toBe(0);
    await page.getByRole("button", { name: "Limpiar filtros" }).click();
    await expect.poll(() => rows.count()).toBe(total);
    expect(await page.getByPlaceholder("Buscar facturas...").inputValue()).toBe("");
    expectClean();
    await close();
  });

  it("filters and searches without JavaScript, through the URL", async () => {
    const { page, close } = await openSignedIn(shop, demo, { javaScriptEnabled: false });
    await page.goto(`${shop.baseURL()}/dashboard/facturas`);
    await page.locator("summary", { hasText: "Filtros" }).click();
    await page.getByTestId("invoice-chip-overdue").click();
    await page.waitForURL(/status=overdue/);
    expect(await page.getByTestId("invoice-table").getByTestId("invoice-status").allTextContents()).toEqual(["Vencida"]);
    const overdueNumber = (await page.getByTestId("invoice-row").locator("td").first().textContent())!;
    await page.getByPlaceholder("Buscar facturas...").fill("B001");
    await page.getByPlaceholder("Buscar facturas...").press("Enter");
    await page.waitForURL(/q=B001/);
    // The overdue demo invoice is a factura (F001): searching boletas among the overdue finds none.
    expect(overdueNumber).toMatch(/^F001-/);
    await page.getByTestId("invoices-empty").waitFor();
    await close();
  });

  it("shows cards instead of the table on a phone", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo, MOBILE);
    await page.goto(`${shop.baseURL()}/dashboard/facturas`);
    await waitForHydration(page);
    const cards = page.getByTestId("invoice-card");
    expect(await cards.count()).toBeGreaterThanOrEqual(12);
    expect(await cards.first().isVisible()).toBe(true);
    expect(await page.getByTestId("invoice-table").isVisible()).toBe(false);
    expect(
      await cards
        .first()
        .getByRole("link", { name: /^Ver factura/ })
        .isVisible(),
    ).toBe(true);
    expect(await seriousAxeViolations(page, "invoices")).toEqual([]);
    expectClean();
    await close();
  });

  it("opens an invoice's detail with every block and downloads its PDF", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/dashboard/facturas`);
    await waitForHydration(page);
    const firstRow = page.getByTestId("invoice-row").first();
    const number = (await firstRow.locator("td").first().textContent())!;
    await firstRow.getByRole("link", { name: `Ver factura ${number}` }).click();
    await page.getByRole("heading", { name: `Factura ${number}`, level: 1 }).waitFor();
    for (const block of [
      "invoice-summary",
      "invoice-customer",
      "invoice-address",
      "invoice-details",
      "invoice-products",
      "invoice-payment",
      "invoice-delivery",
    ]) {
      expect(await page.getByTestId(block).isVisible(), block).toBe(true);
    }
    expect(await page.getByTestId("invoice-customer").textContent()).toContain("20131312955");
    expect(await page.getByTestId("invoice-address").textContent()).toContain("Av. José Larco 1234");
    const payment = (await page.getByTestId("invoice-payment").textContent())!;
    expect(payment).toContain("Op. gravada");
    expect(payment).toContain("IGV 18%");
    expect(await page.getByTestId("invoice-summary").getByTestId("invoice-status").textContent()).toBe("Vencida");
    const pdfLinks = page.getByRole("link", { name: "Descargar PDF" });
    expect(await pdfLinks.count()).toBe(2);
    const invoiceId = new URL(page.url()).pathname.split("/").pop()!;
    expect(await pdfLinks.first().getAttribute("href")).toBe(`/dashboard/facturas/${invoiceId}/pdf`);

    const [download] = await Promise.all([page.waitForEvent("download"), pdfLinks.first().click()]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    expect(await seriousAxeViolations(page, "invoices")).toEqual([]);

    await page.getByRole("link", { name: "Volver a facturas" }).first().click();
    await page.waitForURL(/\/dashboard\/facturas$/);
    expectClean();
    await close();
  });

  it("answers the owner's PDF and zip downloads with the right type, name and contents", async () => {
    const { page, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/dashboard/facturas`);
    const numbers = await page.locator("[data-testid=invoice-row] td:first-child").allTextContents();

    const pdf = await page.request.get(`${shop.baseURL()}/dashboard/facturas/${demoInvoiceId}/pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect(pdf.headers()["cache-control"]).toBe("private, no-store");
    const filename = /filename="([^"]+)"/.exec(pdf.headers()["content-disposition"]!)![1]!;
    expect(pdf.headers()["content-disposition"]).toMatch(/^attachment;/);
    expect(numbers.map((number) => `${number}.pdf`)).toContain(filename);
    const text = pdfPlainText(await pdf.body());
    expect(text).toContain(filename.replace(".pdf", ""));
    expect(text).toContain("IGV 18%");
    expect(text).toMatch(/SON: [A-ZÁÉÍÓÚ ]+ CON \d{2}\/100 SOLES/);

    const zip = await page.request.get(`${shop.baseURL()}/dashboard/facturas/descargar-todas`);
    expect(zip.status()).toBe(200);
    expect(zip.headers()["content-type"]).toBe("application/zip");
    expect(zip.headers()["content-disposition"]).toBe('attachment; filename="facturas.zip"');
    const files = unzipSync(new Uint8Array(await zip.body()));
    expect(Object.keys(files).sort()).toEqual(numbers.map((number) => `${number}.pdf`).sort());
    await close();
  });

  it("emails every invoice PDF to the account's address once, and says so", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, demo);
    await page.goto(`${shop.baseURL()}/dashboard/facturas`);
    await waitForHydration(page);
    const total = await page.getByTestId("invoice-row").count();
    await page.getByRole("button", { name: "Enviar por email" }).click();
    await page.getByText(`Te enviamos tus facturas a ${DEMO_CUSTOMER.email}`).waitFor();

    const email = (await waitForEmail(shop.outboxDir(), (candidate) => candidate.kind === "invoices" && candidate.to === DEMO_CUSTOMER.email)) as unknown as {
      attachments: { filename: string; file: string; contentType: string }[];
    };
    expect(email.attachments).toHaveLength(total);
    for (const attachment of email.attachments) {
      expect(attachment.filename).toMatch(/^[BF]001-\d{8}\.pdf$/);
      await access(path.join(shop.outboxDir(), attachment.file));
    }

    // Asking again the same day for the same invoices sends nothing new.
    await page.getByRole("button", { name: "Enviar por email" }).click();
    await page.getByText(`Ya te enviamos estas facturas hoy a ${DEMO_CUSTOMER.email}`).waitFor();
    expectClean();
    await close();
  });

  it("sends anonymous visitors to /login, back to where they were going", async () => {
    for (const target of [
      "/dashboard/facturas",
      `/dashboard/facturas/${demoInvoiceId}`,
      `/dashboard/facturas/${demoInvoiceId}/pdf`,
      "/dashboard/facturas/descargar-todas",
    ]) {
      const response = await fetch(`${shop.baseURL()}${target}`, { redirect: "manual" });
      expect(response.status, target).toBe(302);
      expect(response.headers.get("location"), target).toBe(`/login?redirectTo=${encodeURIComponent(target)}`);
    }
    const { page, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/dashboard/facturas/${demoInvoiceId}`);
    await page.waitForURL(/\/login\?redirectTo=/);
    await close();
  });

  it("shows another customer 'Factura no encontrada' and a 404 for the demo customer's invoice, never its data", async () => {
    const other = await registerCustomer(shop.baseURL());
    const { page, errors, close } = await openSignedIn(shop, other.cookies);
    expectPageError(NOT_FOUND_DOCUMENT);
    const response = await page.goto(`${shop.baseURL()}/dashboard/facturas/${demoInvoiceId}`);
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Factura no encontrada" }).waitFor();
    const body = (await page.locator("main").textContent())!;
    expect(body).not.toContain("Larco");
    expect(body).not.toContain("45678912");

    const pdf = await page.request.get(`${shop.baseURL()}/dashboard/facturas/${demoInvoiceId}/pdf`);
    expect(pdf.status()).toBe(404);
    expect(await pdf.text()).toBe("Factura no encontrada");
    expect((await page.request.get(`${shop.baseURL()}/dashboard/facturas/no-es-un-id/pdf`)).status()).toBe(404);

    // Their own list is empty: no bulk actions, a way to their orders.
    await page.goto(`${shop.baseURL()}/dashboard/facturas`);
    await page.getByText("Aún no tienes facturas").waitFor();
    expect(await page.getByRole("link", { name: "Descargar todas" }).count()).toBe(0);
    expect(await page.getByTestId("summary-count").textContent()).toBe("0");
    // The browser reports the 404 document itself; nothing else went wrong.
    expect(errors).toEqual([expect.stringMatching(NOT_FOUND_DOCUMENT)]);
    await close();
  });
});
