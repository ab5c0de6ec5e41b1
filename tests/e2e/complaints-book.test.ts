import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { cookieHeader, DEMO_CUSTOMER, openSignedIn, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { MOBILE } from "../support/browser";
import { useBrowser, waitForEmail, waitForHydration } from "../support/e2e";

const PHONE = { ...MOBILE, viewport: { width: 360, height: 780 } };

/**
 * The Libro de Reclamaciones in the browser: reached from the footer, filed with and without
 * JavaScript (a refused post keeps what was typed, with each field's Spanish message), the
 * consumer's copy on screen, as PDF and by e-mail, and staff answering it from /admin/reclamos.
 */
describe("the Libro de Reclamaciones", () => {
  const shop = useBrowser();
  const noHorizontalScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  async function fillSheet(page: Page, email: string) {
    await page.getByLabel("Nombres").fill("Lucía");
    await page.getByLabel("Apellidos").fill("Ñahui Pérez");
    await page.getByLabel("Número de documento", { exact: true }).fill("45678912");
    await page.getByLabel("Domicilio").fill("Jr. Huallaga 456, Cercado de Lima");
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Producto", { exact: true }).check();
    await page.getByLabel("Monto reclamado en soles (opcional)").fill("59.90");
    await page.getByLabel("Descripción del producto o servicio").fill("Bidón de agua alcalina de 20 L");
    await page.getByLabel(/^Reclamo/).check();
    await page.getByLabel("Detalle").fill("El bidón llegó con el sello roto y el agua con sabor extraño.");
    await page.getByLabel("Pedido (qué solicitas)").fill("Cambio del bidón o devolución del dinero.");
  }

  // axe and layout checks need scripts in the page: they run in the JavaScript journey below.
  it("works without JavaScript at 360 px: footer link, Spanish messages with the typed values kept, the sheet and its PDF", async () => {
    const visitor = await shop.open({ ...PHONE, javaScriptEnabled: false });
    const { page } = visitor;
    await page.goto(`${shop.baseURL()}/nosotros`);
    await page.getByRole("contentinfo").getByRole("link", { name: "Libro de Reclamaciones" }).click();
    await page.getByRole("heading", { name: "Libro de Reclamaciones", level: 1 }).waitFor();
    expect(page.url()).toBe(`${shop.baseURL()}/libro-de-reclamaciones`);
    await expect(page.getByText("INDECOPI").first().isVisible()).resolves.toBe(true);

    // Half a sheet: refused with each field's message, and what was typed is still there.
    await page.getByLabel("Nombres").fill("Lucía");
    await page.getByLabel("Número de documento", { exact: true }).fill("123");
    await page.getByLabel("Detalle").fill("El bidón llegó roto.");
    await page.getByRole("button", { name: "Enviar hoja de reclamación" }).click();
    await page.getByRole("alert").filter({ hasText: "Revisa los campos marcados." }).waitFor();
    await expect(page.getByText("Ingresa tus apellidos").isVisible()).resolves.toBe(true);
    await expect(page.getByText("El DNI debe tener 8 dígitos").isVisible()).resolves.toBe(true);
    await expect(page.getByText("Elige si es un reclamo o una queja").isVisible()).resolves.toBe(true);
    await expect(page.getByLabel("Nombres").inputValue()).resolves.toBe("Lucía");
    await expect(page.getByLabel("Detalle").inputValue()).resolves.toBe("El bidón llegó roto.");
    await expect(page.getByLabel("Nombres").getAttribute("aria-invalid")).resolves.toBeNull();
    await expect(page.getByLabel("Apellidos").getAttribute("aria-invalid")).resolves.toBe("true");

    const email = `reclamo-sin-js-${Date.now()}@example.pe`;
    await fillSheet(page, email);
    await page.getByRole("button", { name: "Enviar hoja de reclamación" }).click();
    await page.getByRole("heading", { name: "Hoja de reclamación registrada" }).waitFor();
    expect(page.url()).toMatch(/\/libro-de-reclamaciones\/hoja\/[A-Za-z0-9_-]{43}$/);
    const heading = await page.getByRole("heading", { level: 2 }).filter({ hasText: "HOJA DE RECLAMACIÓN N°" }).textContent();
    expect(heading).toMatch(/LIBRO DE RECLAMACIONES – HOJA DE RECLAMACIÓN N° \d{9}-\d{4}/);
    await expect(page.getByText("Jr. Huallaga 456, Cercado de Lima").isVisible()).resolves.toBe(true);

    const pdfHref = await page.getByRole("link", { name: "Descargar PDF" }).getAttribute("href");
    const pdf = await page.context().request.get(`${shop.baseURL()}${pdfHref}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect(pdf.headers()["content-disposition"]).toMatch(/attachment; filename="hoja-de-reclamacion-\d{9}-\d{4}\.pdf"/);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
    // The sequential number opens nothing.
    const sheetNumber = /N° (\d{9}-\d{4})/.exec(heading ?? "")![1]!;
    expect((await page.context().request.get(`${shop.baseURL()}/libro-de-reclamaciones/hoja/${sheetNumber}`)).status()).toBe(404);

    const copy = await waitForEmail(shop.outboxDir(), (mail) => mail.to === email && mail.kind === "complaint_copy");
    expect(copy.subject).toContain(sheetNumber);

    // Linked from the checkout (besides the footer) and from the account area, which has no footer.
    const links = (html: string) => html.match(/href="\/libro-de-reclamaciones"/g)?.length ?? 0;
    expect(links(await (await page.context().request.get(`${shop.baseURL()}/checkout`)).text())).toBe(2);
    const customer = cookieHeader(await signInCookies(shop.baseURL(), DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    expect(links(await (await fetch(`${shop.baseURL()}/dashboard`, { headers: { cookie: customer } })).text())).toBe(1);
    visitor.expectClean();
    await visitor.close();
  });

  it("with JavaScript at 360 px and on a desktop, then operaciones answers it from /admin/reclamos and the consumer gets the answer", async () => {
    const visitor = await shop.open(PHONE);
    const { page } = visitor;
    await page.goto(`${shop.baseURL()}/libro-de-reclamaciones`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Enviar hoja de reclamación" }).click();
    await page.getByText("Ingresa tus nombres").waitFor();
    expect(await seriousAxeViolations(page, "/libro-de-reclamaciones (errores, 360 px)")).toEqual([]);
    expect(await noHorizontalScroll(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await seriousAxeViolations(page, "/libro-de-reclamaciones (escritorio)")).toEqual([]);

    const email = `reclamo-con-js-${Date.now()}@example.pe`;
    await fillSheet(page, email);
    await page.getByRole("button", { name: "Enviar hoja de reclamación" }).click();
    await page.getByRole("heading", { name: "Hoja de reclamación registrada" }).waitFor();
    const sheetNumber = /N° (\d{9}-\d{4})/.exec((await page.getByRole("status").textContent()) ?? "")![1]!;
    expect(await seriousAxeViolations(page, "hoja de reclamación (escritorio)")).toEqual([]);
    await page.setViewportSize(PHONE.viewport);
    expect(await seriousAxeViolations(page, "hoja de reclamación (360 px)")).toEqual([]);
    expect(await noHorizontalScroll(page)).toBe(true);
    visitor.expectClean();
    await visitor.close();

    const staff = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password), PHONE);
    await staff.page.goto(`${shop.baseURL()}/admin/reclamos`);
    const item = staff.page.getByRole("listitem").filter({ hasText: sheetNumber });
    await expect(item.textContent()).resolves.toMatch(/Quedan? \d+ días? hábil(es)?/);
    expect(await seriousAxeViolations(staff.page, "/admin/reclamos (360 px)")).toEqual([]);
    expect(await noHorizontalScroll(staff.page)).toBe(true);
    await item.getByRole("link", { name: `N° ${sheetNumber}` }).click();
    await staff.page.getByRole("heading", { name: `Hoja N° ${sheetNumber}` }).waitFor();
    await waitForHydration(staff.page);
    await staff.page.getByLabel("Observaciones y acciones adoptadas por el proveedor").fill("Le cambiaremos el bidón el lunes sin costo.");
    await staff.page.getByRole("button", { name: "Enviar respuesta" }).click();
    await staff.page.getByRole("status").filter({ hasText: "Respuesta registrada" }).waitFor();
    await expect(staff.page.getByRole("button", { name: "Enviar respuesta" }).count()).resolves.toBe(0);
    expect(await seriousAxeViolations(staff.page, "/admin/reclamos/{id} (360 px)")).toEqual([]);
    expect(await noHorizontalScroll(staff.page)).toBe(true);
    await staff.page.setViewportSize({ width: 1280, height: 900 });
    expect(await seriousAxeViolations(staff.page, "/admin/reclamos/{id} (escritorio)")).toEqual([]);
    const answer = await waitForEmail(shop.outboxDir(), (mail) => mail.to === email && mail.kind === "complaint_answer");
    expect(answer.text).toContain("Le cambiaremos el bidón el lunes sin costo.");
    staff.expectClean();
    await staff.close();
  });
});
