import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { launchBrowser, MOBILE, openPage } from "../support/browser";
import { fillCheckout, openCheckoutWithCart } from "../support/checkout-page";
import { checkoutBody, postCheckout } from "../support/shop-process";
import { startShopServer, type ShopServer } from "../support/shop-server";

/**
 * Issue 10 in the browser: staff close a day and set places at /admin/calendario (a district's
 * own places at /admin/distritos), the checkout
 * stops offering that day and the full window, and a place taken by someone else between page
 * load and submit gets the Spanish message, the form as typed, and no payment page. A server of
 * its own, since it changes the calendar every other test books on.
 */
describe("the checkout follows the delivery calendar", () => {
  let server: ShopServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startShopServer({ templates: inject("databaseTemplates") });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const offeredDates = (page: Page) => page.locator('input[name="fecha"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));

  async function saveInCalendar(page: Page, button: string, status: string) {
    await page.getByRole("button", { name: button }).click();
    await page.getByRole("status").filter({ hasText: status }).waitFor();
  }

  it("offers no closed day and no full window, and a window filled meanwhile gets the Spanish message", async () => {
    const customer = await openPage(browser, MOBILE);
    await openCheckoutWithCart(customer.page, server.baseURL);
    await fillCheckout(customer.page);
    const [firstWednesday, secondWednesday] = await offeredDates(customer.page);
    expect(firstWednesday).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const staff = await openPage(browser, { ...MOBILE, viewport: { width: 360, height: 780 } });
    await staff.page
      .context()
      .addCookies(
        (await signInCookies(server.baseURL, DEMO_OPERACIONES.email, DEMO_OPERACIONES.password)).map((cookie) => ({ ...cookie, url: server.baseURL })),
      );
    await staff.page.goto(`${server.baseURL}/admin/calendario`);
    await staff.page.getByRole("heading", { name: "Calendario de reparto" }).waitFor();
    // The first Wednesday becomes a closed day.
    await staff.page.getByLabel("Fecha").fill(firstWednesday!);
    await staff.page.getByLabel("Motivo").fill("Inventario");
    await saveInCalendar(staff.page, "Cerrar ese día", "Día cerrado agregado");
    await staff.page.getByRole("listitem").filter({ hasText: "Inventario" }).waitFor();
    // Wednesday mañana has no place left anywhere; Miraflores keeps one place of its own on Wednesday afternoons.
    await staff.page.getByLabel("Miércoles, Mañana").fill("0");
    await saveInCalendar(staff.page, "Guardar cupos", "Cupos por día guardados");
    expect(await seriousAxeViolations(staff.page, "/admin/calendario")).toEqual([]);
    // A district's own places live on its page at /admin/distritos.
    await staff.page.getByRole("link", { name: "Distritos" }).first().click();
    await staff.page.getByRole("link", { name: "Miraflores", exact: true }).click();
    await staff.page.getByLabel("Miércoles, Tarde").fill("1");
    await staff.page.getByRole("button", { name: "Guardar cupos del distrito" }).click();
    await staff.page.getByRole("status").filter({ hasText: "Cupos del distrito guardados" }).waitFor();
    expect(await staff.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // The customer loads the checkout again: the closed Wednesday is gone, mañana is full.
    await openCheckoutWithCart(customer.page, server.baseURL);
    await customer.page.getByLabel("Nombre", { exact: true }).fill("Rosa");
    await customer.page.getByLabel("Apellido").fill("Quispe");
    await customer.page.getByLabel("Correo electrónico").fill("rosa@example.pe");
    await customer.page.getByLabel("Celular").fill("987654321");
    await customer.page.getByLabel("Número de documento").fill("45678912");
    await customer.page.getByLabel("Distrito").fill("Miraflores");
    await customer.page.getByLabel("Dirección", { exact: true }).fill("Av. Larco 123");
    await customer.page.getByLabel("Día de entrega").selectOption({ label: "Miércoles" });
    const dates = await offeredDates(customer.page);
    expect(dates).not.toContain(firstWednesday);
    expect(dates[0]).toBe(secondWednesday);
    await customer.page.locator(`input[name="fecha"][value="${secondWednesday}"]`).check();
    const morning = customer.page.getByLabel(/^Mañana/);
    expect(await morning.isDisabled()).toBe(true);
    expect(await customer.page.getByText(/Mañana .*· Sin cupos/).count()).toBe(1);
    await customer.page.getByLabel(/^Tarde/).check();

    // Someone else takes Miraflores' last Wednesday-afternoon place first.
    const other = await postCheckout(server.baseURL, checkoutBody({ correo: "otra@example.pe", fecha: secondWednesday, rangoHorario: "tarde" }));
    expect(other.status).toBe(302);

    await customer.page.getByRole("button", { name: "Finalizar compra" }).click();
    await customer.page.getByText("Ese horario acaba de llenarse. Elige otra fecha u horario: no se hizo ningún cobro.").waitFor();
    expect(new URL(customer.page.url()).pathname).toBe("/checkout");
    expect(await customer.page.getByLabel("Nombre", { exact: true }).inputValue()).toBe("Rosa");
    expect(await customer.page.getByLabel("Dirección", { exact: true }).inputValue()).toBe("Av. Larco 123");
    // The offer was read again: that Wednesday has no window left, so it is no longer offered.
    await expect.poll(() => offeredDates(customer.page)).not.toContain(secondWednesday);

    expect(customer.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await customer.close();
    await staff.close();
  });
});
