import { randomInt, randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { openSignedIn, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP } from "../support/browser";
import { useBrowser, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";
import { bookableDates } from "../support/lima-clock";
import { checkoutBody, postCheckout } from "../support/shop-process";

/**
 * Issue 38, "Nuevo pedido": operaciones types in a phone order in a handful of keys and clicks, for
 * a new customer and for a returning one ("Lo de siempre"), at phone width and on a desktop, and
 * finds it in Pedidos by the caller's phone. The caja de 20 L (S/ 59.90) is above the minimum alone.
 */
const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };
const CAJA_LINE = "Caja de 20 L con dispensador";

/** A mobile number nobody else in the shared shop has. */
const uniqueMobile = () => `9${String(randomInt(10_000_000, 100_000_000))}`;

/** The soonest date the checkout offers Miraflores (Mondays, Wednesdays and Fridays) right now. */
const soonestMiraflores = () => [bookableDates(1)[0]!, bookableDates(3)[0]!, bookableDates(5)[0]!].sort()[0]!;

async function focusedId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || null);
}

/** Pedidos' search finds the order by the caller's phone. */
async function expectInPedidos(page: Page, baseURL: string, phone: string, orderNumber: string, viewport: object) {
  await page.goto(`${baseURL}/admin/pedidos?q=${phone}`);
  const results = page.getByTestId(viewport === DESKTOP ? "staff-order-row" : "staff-order-card");
  await expect.poll(() => results.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining(orderNumber)]));
}

describe("operaciones types in a phone order on /admin/pedidos/nuevo (issue 38)", () => {
  const shop = useBrowser();

  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone (360 px)", PHONE],
  ] as const) {
    it(`${label}: a new customer, from the search to "Crear pedido"`, async () => {
      const phone = uniqueMobile();
      const email = `nuevo-${randomUUID().slice(0, 8)}@e2e.example.pe`;
      const cookies = await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
      const { page, expectClean, close } = await openSignedIn(shop, cookies, viewport);
      await page.goto(`${shop.baseURL()}/admin/pedidos`);
      await waitForHydration(page);
      await page.getByRole("link", { name: "Nuevo pedido" }).click();
      await page.getByRole("heading", { level: 1, name: "Nuevo pedido" }).waitFor();
      // The search box has the focus: the phone and Enter.
      await expect.poll(() => focusedId(page)).toBe("buscar-cliente");
      await page.keyboard.type(phone);
      await page.keyboard.press("Enter");
      await page.getByTestId("caller-none").waitFor();
      await page.getByRole("link", { name: "Cliente nuevo" }).click();
      const form = page.getByRole("form", { name: "Nuevo pedido" });
      await form.waitFor();
      expect(await form.getByLabel("Celular").inputValue()).toBe(phone);
      await expect.poll(() => focusedId(page)).toBe("nombre");
      await page.keyboard.type("Teresa");
      await form.getByLabel("Apellido").fill("Gamarra Luna");
      await form.getByLabel("Correo electrónico").fill(email);
      await form.getByLabel("Número de documento").fill("46464646");
      await form.getByLabel("Distrito").selectOption({ label: "Miraflores" });
      await form.getByLabel("Dirección", { exact: true }).fill("Calle Schell 250");
      await form.getByLabel(new RegExp(`^${CAJA_LINE}`)).fill("1");
      // The server's total, and the soonest slot already chosen.
      await expect.poll(() => page.getByTestId("order-total-amount").textContent()).toBe("S/ 59.90");
      expect(await form.locator('input[name="horario"]:checked').inputValue()).toBe(`${soonestMiraflores()}|manana`);
      expect(await seriousAxeViolations(page, `${label} nuevo pedido`)).toEqual([]);
      expect(await auditLayout(page)).toEqual([]);
      await form.getByRole("button", { name: "Crear pedido" }).click();

      const created = page.getByTestId("created-order");
      await created.waitFor();
      const orderNumber = /Pedido (VA-\d{6}) creado/.exec((await created.textContent()) ?? "")?.[1];
      expect(orderNumber).toBeDefined();
      expect(await created.textContent()).toContain("S/ 59.90");
      expect(await created.textContent()).toContain("Paga contra entrega");
      // Ready for the next call.
      await expect.poll(() => focusedId(page)).toBe("buscar-cliente");
      expect(await auditLayout(page)).toEqual([]);
      await expectInPedidos(page, shop.baseURL(), phone, orderNumber!, viewport);
      expectClean();
      await close();
    });

    it(`${label}: a returning customer by phone, Enter, «Lo de siempre», «Crear pedido»`, async () => {
      const phone = uniqueMobile();
      const email = `vuelve-${randomUUID().slice(0, 8)}@e2e.example.pe`;
      // Their earlier order, from the shop's checkout: two cajas.
      const earlier = await postCheckout(
        shop.baseURL(),
        checkoutBody({ correo: email, telefono: phone, items: [{ productId: 6, variantId: null, quantity: 2 }], clientSubtotalCents: 11980 }),
      );
      expect(earlier.status).toBe(302);

      const cookies = await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
      const { page, expectClean, close } = await openSignedIn(shop, cookies, viewport);
      await page.goto(`${shop.baseURL()}/admin/pedidos/nuevo`);
      await waitForHydration(page);
      await expect.poll(() => focusedId(page)).toBe("buscar-cliente");
      await page.keyboard.type(phone);
      await page.keyboard.press("Enter");
      const form = page.getByRole("form", { name: "Nuevo pedido" });
      await form.waitFor();
      expect(await form.getByLabel("Correo electrónico").inputValue()).toBe(email);
      // "Lo de siempre" has the focus; Enter fills the last order and moves on to "Crear pedido".
      await expect.poll(() => focusedId(page)).toBe("Lo de siempre");
      await page.keyboard.press("Enter");
      await expect.poll(() => form.getByLabel(new RegExp(`^${CAJA_LINE}`)).inputValue()).toBe("2");
      await expect.poll(() => page.getByTestId("order-total-amount").textContent()).toBe("S/ 119.80");
      await expect.poll(() => focusedId(page)).toBe("Crear pedido");
      expect(await form.locator('input[name="direccionElegida"]:checked').count()).toBe(1);
      expect(await auditLayout(page)).toEqual([]);
      await page.keyboard.press("Enter");

      const created = page.getByTestId("created-order");
      await created.waitFor();
      const orderNumber = /Pedido (VA-\d{6}) creado/.exec((await created.textContent()) ?? "")?.[1];
      expect(await created.textContent()).toContain("S/ 119.80");
      await expectInPedidos(page, shop.baseURL(), phone, orderNumber!, viewport);
      expectClean();
      await close();
    });
  }

  it("without JavaScript: the search, «Lo de siempre», the total and «Crear pedido» are plain forms", async () => {
    const phone = uniqueMobile();
    const email = `sinjs-${randomUUID().slice(0, 8)}@e2e.example.pe`;
    expect((await postCheckout(shop.baseURL(), checkoutBody({ correo: email, telefono: phone }))).status).toBe(302);
    const cookies = await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
    const { page, expectClean, close } = await openSignedIn(shop, cookies, { ...PHONE, javaScriptEnabled: false });
    await page.goto(`${shop.baseURL()}/admin/pedidos/nuevo`);
    await page.getByLabel("Buscar cliente").fill(phone);
    await page.getByLabel("Buscar cliente").press("Enter");
    const form = page.getByRole("form", { name: "Nuevo pedido" });
    await form.waitFor();
    await form.getByRole("button", { name: "Lo de siempre" }).click();
    await expect.poll(() => page.getByTestId("order-total-amount").textContent()).toBe("S/ 59.90");
    expect(await form.getByLabel(new RegExp(`^${CAJA_LINE}`)).inputValue()).toBe("1");
    // A mistake comes back with everything typed and the reason.
    await form.getByLabel("Número de documento").fill("123");
    await form.getByRole("button", { name: "Crear pedido" }).click();
    await page.getByText("El DNI debe tener 8 dígitos").waitFor();
    expect(await form.getByLabel(new RegExp(`^${CAJA_LINE}`)).inputValue()).toBe("1");
    expect(await form.getByLabel("Número de documento").inputValue()).toBe("123");
    await form.getByLabel("Número de documento").fill("45678912");
    await form.getByRole("button", { name: "Crear pedido" }).click();
    await page.getByTestId("created-order").waitFor();
    expectClean();
    await close();
  });
});
