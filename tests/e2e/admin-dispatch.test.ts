import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";

import { openSignedIn, signInCookies, type SessionCookie } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP, expectPageError, MOBILE, NOT_FOUND_DOCUMENT } from "../support/browser";
import { useBrowser, waitForHydration } from "../support/e2e";
import { bookableDates } from "../support/lima-clock";
import { checkoutBody, postCheckout, postSandboxAction } from "../support/shop-process";

const driverName = `${DEMO_REPARTIDOR.firstName} ${DEMO_REPARTIDOR.lastName}`;

/** A surname no other test uses, so the rows of this file are found among the demo data's. */
const surname = () =>
  `Despacho${Array.from(randomBytes(6))
    .map((byte) => String.fromCharCode(97 + (byte % 26)))
    .join("")}`;

/** A guest order paid in the sandbox, as the browser would post it. */
async function paidOrder(baseURL: string, input: { apellido: string; fecha: string; rangoHorario: "manana" | "tarde" }) {
  const checkout = await postCheckout(baseURL, checkoutBody({ ...input, correo: `${input.apellido.toLowerCase()}@prueba.pe` }));
  expect(checkout.status).toBe(302);
  const payment = await postSandboxAction(baseURL, checkout.headers.get("location")!, "approve_card");
  expect(payment.headers.get("location")).toMatch(/^\/success/);
}

const row = (page: Page, apellido: string) => page.getByTestId("dispatch-delivery").filter({ hasText: apellido });

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
}

describe("Despacho: operaciones prepares and assigns the day's deliveries and prints the route", () => {
  const shop = useBrowser();
  let staff: SessionCookie[];
  // The first Wednesday the checkout offers now: after 18:00 in Lima, tomorrow is closed (cut-off).
  const wednesday = bookableDates(3, new Date(), 1)[0]!;

  beforeAll(async () => {
    staff = await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
  });

  it("selects two deliveries, prepares them, assigns them to the repartidor and sees both stops in order on the route sheet", async () => {
    const morning = surname();
    const afternoon = surname();
    await paidOrder(shop.baseURL(), { apellido: afternoon, fecha: wednesday, rangoHorario: "tarde" });
    await paidOrder(shop.baseURL(), { apellido: morning, fecha: wednesday, rangoHorario: "manana" });

    const { page, expectClean, close } = await openSignedIn(shop, staff, DESKTOP);
    await page.goto(`${shop.baseURL()}/admin/despacho?fecha=${wednesday}`);
    await waitForHydration(page);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Despacho");
    expect(await row(page, morning).getByTestId("delivery-status").textContent()).toBe("Pendiente");
    expect(await seriousAxeViolations(page, "despacho")).toEqual([]);

    for (const apellido of [morning, afternoon]) await row(page, apellido).getByRole("checkbox").check();
    await page.getByRole("button", { name: "Preparar" }).click();
    await page.getByTestId("dispatch-message").getByText("2 envíos pasaron a Preparando.").waitFor();
    for (const apellido of [morning, afternoon]) await row(page, apellido).getByTestId("delivery-status").getByText("Preparando", { exact: true }).waitFor();
    // The boxes just acted on come back unticked.
    expect(await row(page, morning).getByRole("checkbox").isChecked()).toBe(false);

    for (const apellido of [afternoon, morning]) await row(page, apellido).getByRole("checkbox").check();
    await page.getByLabel("Repartidor", { exact: true }).selectOption({ label: driverName });
    await page.getByRole("button", { name: "Asignar a repartidor" }).click();
    await page.getByTestId("dispatch-message").getByText("2 envíos asignados al repartidor.").waitFor();
    for (const apellido of [morning, afternoon]) {
      await row(page, apellido).getByTestId("delivery-status").getByText("Programado", { exact: true }).waitFor();
      expect(await row(page, apellido).textContent()).toContain(`Repartidor: ${driverName}`);
    }
    expectClean();

    await page
      .getByRole("link", { name: `Hoja de ${driverName}`, exact: true })
      .first()
      .click();
    await page.waitForURL(/\/admin\/despacho\/hoja\?fecha=.+&repartidor=/);
    await page.getByTestId("route-sheet").first().waitFor();
    const stops = await page.getByTestId("route-stop").allTextContents();
    const at = (apellido: string) => stops.findIndex((text) => text.includes(apellido));
    expect(at(morning)).toBeGreaterThanOrEqual(0);
    expect(at(afternoon)).toBe(at(morning) + 1);
    expect(stops[at(morning)]).toContain("Av. Larco 123, Miraflores");
    expect(stops[at(morning)]).toContain("987654321");
    expect(stops[at(morning)]).toContain("1 × Caja de 20 L con dispensador");
    expect(stops[at(morning)]).toContain("Recibí conforme");
    expect(await seriousAxeViolations(page, "hoja de ruta")).toEqual([]);

    // Staff move the morning stop down: the afternoon one comes first.
    await waitForHydration(page);
    await page.getByRole("button", { name: new RegExp(`^Bajar la parada ${at(morning) + 1} `) }).click();
    await page.getByText("Orden de la ruta actualizado.").waitFor();
    const order = async () => {
      const reordered = await page.getByTestId("route-stop").allTextContents();
      return [reordered.findIndex((text) => text.includes(afternoon)), reordered.findIndex((text) => text.includes(morning))];
    };
    await expect.poll(order).toEqual([at(morning), at(morning) + 1]);
    // Printed, the staff area's navigation and the buttons are gone; each sheet ends its page.
    await page.emulateMedia({ media: "print" });
    expect(await page.getByRole("navigation", { name: "Back office" }).isVisible()).toBe(false);
    expect(
      await page
        .getByRole("button", { name: /^Bajar/ })
        .first()
        .isVisible(),
    ).toBe(false);
    expect(
      await page
        .getByTestId("route-sheet")
        .first()
        .evaluate((sheet) => getComputedStyle(sheet).breakAfter),
    ).toBe("page");
    expectClean();
    await close();
  });

  it("fits a phone's width with no serious axe finding, on Despacho and on the route sheets", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, staff, { ...MOBILE, viewport: { width: 360, height: 800 } });
    for (const path of [`/admin/despacho?fecha=${wednesday}`, `/admin/despacho/hoja?fecha=${wednesday}`]) {
      await page.goto(`${shop.baseURL()}${path}`);
      await expectNoSidewaysScroll(page);
      expect(await seriousAxeViolations(page, `360px ${path}`)).toEqual([]);
    }
    expectClean();
    await close();
  });

  it("prepares and assigns without JavaScript, as one plain form post", async () => {
    const apellido = surname();
    await paidOrder(shop.baseURL(), { apellido, fecha: wednesday, rangoHorario: "manana" });
    const { page, close } = await openSignedIn(shop, staff, { javaScriptEnabled: false });
    await page.goto(`${shop.baseURL()}/admin/despacho?fecha=${wednesday}`);
    await row(page, apellido).getByRole("checkbox").check();
    await page.getByRole("button", { name: "Preparar" }).click();
    await page.getByText("1 envío pasó a Preparando.").waitFor();
    expect(await row(page, apellido).getByTestId("delivery-status").textContent()).toBe("Preparando");
    expect(new URL(page.url()).searchParams.get("fecha")).toBe(wednesday);

    // A refusal keeps what was chosen: no driver picked, the box stays ticked.
    await row(page, apellido).getByRole("checkbox").check();
    await page.getByRole("button", { name: "Asignar a repartidor" }).click();
    await page.getByText("Elige un repartidor.").waitFor();
    expect(await row(page, apellido).getByRole("checkbox").isChecked()).toBe(true);
    await page.getByLabel("Repartidor", { exact: true }).selectOption({ label: driverName });
    await page.getByRole("button", { name: "Asignar a repartidor" }).click();
    await page.getByText("1 envío asignado al repartidor.").waitFor();
    expect(await row(page, apellido).textContent()).toContain(`Repartidor: ${driverName}`);
    await close();
  });

  it("answers a malformed date with the Spanish 404, not an error", async () => {
    const { page, close } = await openSignedIn(shop, staff);
    expectPageError(NOT_FOUND_DOCUMENT);
    const response = await page.goto(`${shop.baseURL()}/admin/despacho?fecha=2026-02-30`);
    expect(response!.status()).toBe(404);
    expect(await page.textContent("body")).toContain("Fecha no válida");
    await close();
  });
});
