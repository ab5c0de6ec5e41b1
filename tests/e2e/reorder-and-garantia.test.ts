import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "@server/db/seed/demo-credentials";
import { DEMO_CUSTOMER, openSignedIn, signInCookies, uniqueEmail } from "../support/accounts";
import { expectPageError, MOBILE, NOT_FOUND_DOCUMENT } from "../support/browser";
import { useBrowser, waitForEmail, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";

/**
 * Decisions 0075 and 0076 in Chromium at phone width: a guest buys returnable bidones and pays
 * their garantía as its own line; the order e-mail's "Repetir pedido" fills a fresh browser's cart
 * and checkout; a signed-in customer repeats an order from their account and chooses how their
 * garantía comes back; staff read the reminders. Every page is checked for cut or off-screen text.
 */
describe("one-tap reorder and the bidón garantía, on a phone", () => {
  const shop = useBrowser();

  async function expectReadable(page: Page) {
    expect(await auditLayout(page)).toEqual([]);
  }

  async function storedCart(page: Page): Promise<{ title: string; variantTitle: string | null; quantity: number }[]> {
    return page.evaluate(
      () => JSON.parse(window.localStorage.getItem("va-cart:v1") ?? "[]") as { title: string; variantTitle: string | null; quantity: number }[],
    );
  }

  it(
    "charges a guest the garantía of new bidones as its own line, and the e-mail's link repeats the order in another browser",
    { timeout: 180_000 },
    async () => {
      const email = uniqueEmail("bidones");
      const { page, expectClean, close } = await shop.open(MOBILE);
      await page.goto(`${shop.baseURL()}/tienda/producto/bidon-retornable-hogar-20l`);
      await waitForHydration(page);
      await page.getByRole("link", { name: "Pack 3 recargas" }).click();
      await page.getByTestId("product-sku").filter({ hasText: "VA-BH20-R3" }).waitFor();
      expect(await page.getByTestId("product-garantia").textContent()).toContain(
        "Garantía de bidón: S/ 20.00 por cada bidón retornable (3 en esta presentación)",
      );
      await expectReadable(page);
      await page.getByRole("button", { name: "Añadir al carrito" }).click();
      await page.waitForURL((url) => url.pathname === "/carrito");
      await page.goto(`${shop.baseURL()}/checkout`);
      await waitForHydration(page);

      await page.getByTestId("summary-garantia").waitFor();
      expect(await page.getByTestId("summary-garantia").textContent()).toBe("S/ 60.00");
      expect(await page.getByTestId("summary-total").textContent()).toBe("S/ 120.00");
      expect(await page.getByTestId("summary-garantia-note").textContent()).toContain("lo comprobamos con tu correo y celular");
      await page.getByLabel("Nombre", { exact: true }).fill("Rosa");
      await page.getByLabel("Apellido").fill("Quispe");
      await page.getByLabel("Correo electrónico").fill(email);
      await page.getByLabel("Celular").fill("987650001");
      await page.getByLabel("Número de documento").fill("45678912");
      await page.getByLabel("Distrito").fill("Miraflores");
      await page.getByLabel("Dirección", { exact: true }).fill("Av. Larco 456");
      await page.getByLabel("Día de entrega").selectOption({ label: "Miércoles" });
      await page.locator('input[name="fecha"]').first().check();
      await page.getByLabel(/^Mañana/).check();
      await expectReadable(page);
      await page.getByRole("button", { name: "Finalizar compra" }).click();
      await page.getByRole("heading", { name: /Pagar pedido VA-\d{6}/ }).waitFor();
      expect(await page.getByTestId("sandbox-amount").textContent()).toBe("S/ 120.00");
      await page.getByRole("button", { name: "Simular pago exitoso" }).click();
      await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
      expect(await page.getByTestId("receipt-garantia").textContent()).toBe("S/ 60.00");
      expect(await page.getByTestId("receipt-total").textContent()).toBe("S/ 120.00");
      expectClean();
      await close();

      const confirmation = await waitForEmail(shop.outboxDir(), (candidate) => candidate.to === email && candidate.kind === "order-confirmation");
      expect(confirmation.text).toContain("Garantía de bidón (3 bidones): S/ 60.00");
      const link = /Repetir este pedido: (\S+)/.exec(confirmation.text)![1]!.replace(/^https?:\/\/[^/]+/, shop.baseURL());

      // Another browser, empty cart: the link fills it and the checkout, but never the document.
      const other = await shop.open(MOBILE);
      await other.page.goto(link);
      await other.page.waitForURL((url) => url.pathname === "/checkout");
      await waitForHydration(other.page);
      await other.page.getByLabel("Nombre", { exact: true }).waitFor();
      expect(await storedCart(other.page)).toEqual([
        expect.objectContaining({ title: "Bidón retornable hogar 20 L", variantTitle: "Pack 3 recargas", quantity: 1 }),
      ]);
      expect(await other.page.getByLabel("Nombre", { exact: true }).inputValue()).toBe("Rosa");
      expect(await other.page.getByLabel("Correo electrónico").inputValue()).toBe(email);
      expect(await other.page.getByLabel("Celular").inputValue()).toBe("987650001");
      expect(await other.page.getByLabel("Distrito").inputValue()).toBe("Miraflores");
      expect(await other.page.getByLabel("Dirección", { exact: true }).inputValue()).toBe("Av. Larco 456");
      expect(await other.page.getByLabel("Número de documento").inputValue()).toBe("");
      await other.page.getByTestId("summary-garantia").waitFor();
      await expectReadable(other.page);
      other.expectClean();
      await other.close();

      // A link whose signature was tampered with is not found, and shows nothing of the order.
      const stranger = await shop.open(MOBILE);
      expectPageError(NOT_FOUND_DOCUMENT);
      await stranger.page.goto(link.replace(/token=[^&]+/, "token=0.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
      await stranger.page.getByRole("alert").waitFor();
      expect(await stranger.page.getByRole("alert").textContent()).toContain("No encontramos ese pedido");
      expect(await stranger.page.content()).not.toContain("Larco 456");
      await stranger.close();
    },
  );

  it("lets a signed-in customer repeat a past order from their account and choose how their garantía comes back", { timeout: 180_000 }, async () => {
    const cookies = await signInCookies(shop.baseURL(), DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const { page, expectClean, close } = await openSignedIn(shop, cookies, MOBILE);
    await page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    await page.getByTestId("order-cards").waitFor();
    await expectReadable(page);
    // The detail page's lines, then its "Repetir pedido".
    await page
      .getByTestId("order-card")
      .first()
      .getByRole("link", { name: /Ver detalle/ })
      .click();
    await page.getByTestId("order-detail").waitFor();
    await waitForHydration(page);
    const typeLine = (await page.getByText(/^Realizado el/).textContent()) ?? "";
    await expectReadable(page);
    await page.getByRole("link", { name: "Repetir pedido" }).click();
    // Issue 41: a subscription's order asks first; the same once is the first choice.
    if (typeLine.includes("Suscripción")) await page.getByRole("link", { name: "Pedir lo mismo una vez" }).click();
    await page.waitForURL((url) => url.pathname === "/checkout");
    await page.getByLabel("Nombre", { exact: true }).waitFor();
    const cart = await storedCart(page);
    expect(cart.length).toBeGreaterThan(0);
    expect(await page.getByLabel("Dirección", { exact: true }).inputValue()).not.toBe("");
    expect(await page.getByLabel("Correo electrónico").inputValue()).toBe(DEMO_CUSTOMER.email);
    // Issue 41: always a one-time purchase; a subscription's order says why.
    expect(await page.getByTestId("summary-purchase").textContent()).toBe("Compra única");
    if (typeLine.includes("Suscripción")) expect(await page.getByTestId("checkout-notes").textContent()).toContain("lo repetimos como compra única");
    await expectReadable(page);

    await page.goto(`${shop.baseURL()}/dashboard/envios`);
    await page.getByRole("heading", { name: "Garantía de tus bidones" }).waitFor();
    await page.getByLabel("Crédito para tu próximo pedido").check();
    await page.getByRole("button", { name: "Guardar mi elección" }).click();
    await page.getByText("Guardamos tu elección.").waitFor();
    await page.reload();
    expect(await page.getByLabel("Crédito para tu próximo pedido").isChecked()).toBe(true);
    await expectReadable(page);
    // Only the signed-in customer chooses, for themselves: anonymous visitors go to sign in.
    const anonymous = await fetch(`${shop.baseURL()}/dashboard/envios`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: shop.baseURL(), "content-type": "application/x-www-form-urlencoded" },
      body: "intent=garantia_preference&preference=credit",
    });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    await page.getByLabel("Devolución al medio de pago con el que pagaste").check();
    await page.getByRole("button", { name: "Guardar mi elección" }).click();
    await page.getByText("Guardamos tu elección.").waitFor();
    expectClean();
    await close();
  });

  it("shows staff the upcoming reminders and the garantía of a customer, readable on a phone", { timeout: 120_000 }, async () => {
    const cookies = await signInCookies(shop.baseURL(), DEMO_ADMIN.email, DEMO_ADMIN.password);
    const { page, expectClean, close } = await openSignedIn(shop, cookies, { viewport: { width: 360, height: 740 } });
    await page.goto(`${shop.baseURL()}/admin/recordatorios`);
    await page.getByRole("heading", { name: "Recordatorios «¿Te queda agua?»" }).waitFor();
    expect(await page.getByTestId("reminders-state").textContent()).toMatch(/^(Activados|Desactivados)/);
    await expectReadable(page);
    await page.goto(`${shop.baseURL()}/admin/clientes?q=${encodeURIComponent(DEMO_CUSTOMER.email)}`);
    await page
      .getByRole("link", { name: `${DEMO_CUSTOMER.firstName} ${DEMO_CUSTOMER.lastName}` })
      .first()
      .click();
    await page.getByTestId("customer-garantia").waitFor();
    expect(await page.getByTestId("customer-garantia").textContent()).toContain("Garantía en depósito");
    await expectReadable(page);
    expectClean();
    await close();
  });
});
