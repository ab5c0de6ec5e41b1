import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_CUSTOMER, DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { openSignedIn, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { boxLine, openCheckoutWithCart } from "../support/checkout-page";
import { useBrowser, waitForHydration } from "../support/e2e";

/** A cheap Android phone's screen (issue 41). */
const PHONE = { viewport: { width: 390, height: 740 }, isMobile: true, hasTouch: true };

/**
 * Issue 41 at phone width: the places where a customer (or the office) was surprised — the account
 * menu, the chat button over controls, the phone on /contact, the district box, the Comprobantes
 * default, the price of one bidón, and an order's payment state — each checked in Chromium, with axe.
 */
describe("no surprises on a phone (issue 41)", () => {
  const shop = useBrowser();

  /** Fills the guest's data with a phone and address of this test's own (the unpaid-holds bound counts per phone and address). */
  async function fillGuest(page: Page, district: string) {
    const digits = String(Date.now() % 100_000_000).padStart(8, "0");
    await page.getByLabel("Nombre", { exact: true }).fill("Lucía");
    await page.getByLabel("Apellido").fill("Huamán");
    await page.getByLabel("Correo electrónico").fill(`lucia-${digits}@example.pe`);
    await page.getByLabel("Celular").fill(`9${digits}`);
    await page.getByLabel("Número de documento").fill("45678912");
    await page.getByLabel("Distrito").fill(district);
    await page.getByLabel("Dirección", { exact: true }).fill(`Jr. Las Gardenias ${digits.slice(-4)}`);
  }

  async function chooseFirstDate(page: Page, weekday: string) {
    await page.getByLabel("Día de entrega").selectOption({ label: weekday });
    await page.locator('input[name="fecha"]').first().check();
    await page.getByLabel(/^Mañana/).check();
  }

  /**
   * Scrolls the whole page in steps; wherever the chat button shows, its box must not overlap any
   * link, button, field or title (it steps aside instead). Returns what it found under it.
   */
  async function controlsUnderChatButton(page: Page): Promise<string[]> {
    const found: string[] = [];
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= height; y += 120) {
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      // The button re-measures once per frame after a scroll: two frames.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      found.push(
        ...(await page.evaluate(() => {
          const chat = document.querySelector('[data-testid="chat-button"]')!;
          if (getComputedStyle(chat).visibility === "hidden") return [];
          const box = chat.getBoundingClientRect();
          return [...document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary, h1")]
            .filter((element) => !chat.contains(element))
            .filter((element) => {
              const rect = element.getBoundingClientRect();
              return rect.width > 0 && rect.height > 0 && rect.right > box.left && rect.left < box.right && rect.bottom > box.top && rect.top < box.bottom;
            })
            .map(
              (element) =>
                `${window.scrollY}px: ${element.tagName.toLowerCase()} «${(element.textContent || element.getAttribute("aria-label") || "").trim().slice(0, 40)}»`,
            );
        })),
      );
    }
    return found;
  }

  it("folds the account menu into one line; «Repetir» on a subscription's order asks, and swaps her bidones without a garantía", async () => {
    const { page, close, expectClean } = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_CUSTOMER.email, DEMO_CUSTOMER.password), PHONE);
    await page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    await waitForHydration(page);
    const card = await page
      .locator("aside")
      .filter({ has: page.getByTestId("account-name") })
      .boundingBox();
    // Was ~400 px of a 740 px screen; folded, the page's own heading is on the first screen.
    expect(card!.height).toBeLessThan(150);
    expect(
      await page
        .getByRole("heading", { level: 1 })
        .first()
        .boundingBox()
        .then((box) => box!.y + box!.height),
    ).toBeLessThan(740);
    expect(await page.getByTestId("account-menu").locator("summary").textContent()).toContain("Mis pedidos");
    expect(await seriousAxeViolations(page, "/dashboard/pedidos")).toEqual([]);
    await page.getByTestId("account-menu").locator("summary").click();
    await page.getByRole("navigation", { name: "Mi cuenta" }).getByRole("link", { name: "Mi perfil" }).click();
    await page.waitForURL(`${shop.baseURL()}/dashboard/perfil`);
    expect(await seriousAxeViolations(page, "/dashboard/perfil")).toEqual([]);

    // "Repetir" on her subscription's order asks: the same once (first), or her subscription.
    await page.goto(`${shop.baseURL()}/dashboard/pedidos`);
    await page
      .getByTestId("order-card")
      .filter({ hasText: "Suscripción" })
      .first()
      .getByRole("link", { name: /^Repetir/ })
      .click();
    const choice = page.getByTestId("repeat-choice");
    await choice.waitFor();
    expect(await choice.getByRole("link", { name: "Ir a mi suscripción" }).getAttribute("href")).toBe("/dashboard/suscripcion");
    expect(await seriousAxeViolations(page, "/repetir-pedido/:id")).toEqual([]);
    await choice.getByRole("link", { name: "Pedir lo mismo una vez" }).click();
    await page.waitForURL((url) => url.pathname === "/checkout");
    await page.getByTestId("checkout-notes").filter({ hasText: "lo repetimos como compra única" }).waitFor();
    // Her "Pack 3 recargas" swaps the bidones she has been swapping for months: no garantía (migration 0046).
    await page.getByTestId("summary-garantia-note").filter({ hasText: "Ya tienes bidones nuestros para cambiar: no se cobra garantía." }).waitFor();
    expect(await page.getByTestId("summary-garantia").count()).toBe(0);
    expectClean();
    await close();
  });

  it("shows the shop's phone on /contact and what one bidón costs on the Tienda", async () => {
    const { page, close, expectClean } = await shop.open(PHONE);
    await page.goto(`${shop.baseURL()}/contact`);
    const phone = page.getByTestId("contact-phone");
    expect(await phone.textContent()).toBe("+51 987 654 321");
    expect(await phone.getAttribute("href")).toBe("tel:+51987654321");
    expect(await seriousAxeViolations(page, "/contact")).toEqual([]);

    await page.goto(`${shop.baseURL()}/tienda`);
    const home = page.getByTestId("product-card").filter({ hasText: "Bidón retornable hogar 20 L" });
    // Recarga S/ 22.00, Pack 3 recargas S/ 60.00: one bidón swapped costs from S/ 20.00.
    expect(await home.getByTestId("product-card-per-bidon").textContent()).toBe("Recarga desde S/ 20.00 por bidón");
    expect(await page.getByTestId("product-card").filter({ hasText: "Caja de 20 L" }).getByTestId("product-card-per-bidon").count()).toBe(0);
    expect(await seriousAxeViolations(page, "/tienda")).toEqual([]);
    expectClean();
    await close();
  });

  it("keeps the chat button off every control and title of the product page and the cart; compares the two first bidones; the cart says the garantía", async () => {
    const { page, close, expectClean } = await shop.open(PHONE);
    await page.goto(`${shop.baseURL()}/tienda/producto/bidon-retornable-hogar-20l`);
    await waitForHydration(page);
    expect(await controlsUnderChatButton(page)).toEqual([]);
    // It does show where nothing is under it (the button is still there to write to the shop).
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    const everShown = await page.evaluate(async () => {
      const chat = document.querySelector('[data-testid="chat-button"]')!;
      for (let top = 0; top < document.documentElement.scrollHeight; top += 60) {
        window.scrollTo({ top, behavior: "instant" });
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        if (getComputedStyle(chat).visibility !== "hidden") return true;
      }
      return false;
    });
    expect(everShown).toBe(true);
    expect(await seriousAxeViolations(page, "/tienda/producto/bidon-retornable-hogar-20l")).toEqual([]);

    // The two ways to a first bidón in one line, from the product's prices (Recarga S/ 22.00, garantía
    // S/ 20.00, Primer bidón con envase S/ 45.00).
    expect(await page.getByTestId("product-first-bidon").textContent()).toBe(
      "Tu primer bidón: Recarga S/ 22.00 + garantía S/ 20.00 (devolvible) o Primer bidón con envase S/ 45.00 (el envase es tuyo).",
    );
    // The cart says the garantía before the checkout adds it.
    await page.getByRole("link", { name: "Pack 3 recargas" }).click();
    await page.getByRole("link", { name: "Pack 3 recargas", exact: true }).and(page.locator("[aria-current=true]")).waitFor();
    await page.getByRole("button", { name: "Añadir al carrito" }).click();
    await page.goto(`${shop.baseURL()}/carrito`);
    expect(await page.getByTestId("cart-garantia-estimate").textContent()).toBe(
      "Garantía de bidón: hasta S/ 60.00 (3 bidones), devolvible, si aún no tienes bidones nuestros para cambiar. Si ya los tienes, no se cobra; lo verás en el pago.",
    );
    expect(await controlsUnderChatButton(page)).toEqual([]);
    expect(await seriousAxeViolations(page, "/carrito")).toEqual([]);
    expectClean();
    await close();
  });

  it("accepts «surco» as Santiago de Surco and says so; says in Spanish when a typed district is unknown", async () => {
    const { page, close, expectClean } = await shop.open(PHONE);
    await openCheckoutWithCart(page, shop.baseURL(), [boxLine]);
    await page.getByLabel("Distrito").fill("xyz");
    await page.getByLabel("Dirección", { exact: true }).click();
    await page.getByText("No repartimos en «xyz» o no lo reconocemos. Elige tu distrito de la lista.").waitFor();
    expect(await page.getByLabel("Día de entrega").isDisabled()).toBe(true);
    await page.getByLabel("Distrito").fill("surco");
    expect(await page.getByTestId("district-understood").textContent()).toBe("Entendimos: Santiago de Surco.");
    expect(await page.getByLabel("Día de entrega").isEnabled()).toBe(true);
    // Santiago de Surco's weekdays, not another district's.
    expect(await page.getByLabel("Día de entrega").locator("option").allTextContents()).toEqual(["Selecciona un día", "Martes", "Jueves", "Sábado"]);

    // The soonest dates at once, whatever their weekday: one tap fills the weekday and the date.
    const soonest = page.getByTestId("soonest-dates");
    const first = soonest.getByRole("button").first();
    const firstText = (await first.textContent())!;
    expect((await soonest.locator("legend").textContent())!.toLowerCase()).toBe(`lo antes posible: ${firstText.toLowerCase()}`);
    expect(await soonest.getByRole("button").count()).toBeGreaterThanOrEqual(1);
    await first.click();
    expect(await first.getAttribute("aria-pressed")).toBe("true");
    const weekday = await page.getByLabel("Día de entrega").inputValue();
    expect(["2", "4", "6"]).toContain(weekday);
    const checked = page.locator('input[name="fecha"]:checked');
    expect(await checked.count()).toBe(1);
    expect((await checked.locator("xpath=..").textContent())!.toLowerCase()).toBe(firstText.toLowerCase());
    expect(await seriousAxeViolations(page, "/checkout")).toEqual([]);
    expect(await controlsUnderChatButton(page)).toEqual([]);
    expectClean();
    await close();
  });

  it("shows an unpaid order's code with its deadline, a copy button and «Pagar»; a paid order has nothing to retry", async () => {
    const { page, close, expectClean } = await shop.open(PHONE);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: shop.baseURL() });
    await openCheckoutWithCart(page, shop.baseURL(), [boxLine]);
    await fillGuest(page, "Santiago de Surco");
    await chooseFirstDate(page, "Martes");
    await page.getByRole("button", { name: "Finalizar compra" }).click();
    await page.getByRole("button", { name: "Generar código de pago" }).click();
    const code = (await page.getByTestId("payment-code").textContent())!.trim();
    const paymentPath = new URL(page.url()).pathname;
    // The guest's own order page (the checkout's cookie makes her its owner), linked from the code.
    const orderPath = (await page.getByTestId("payment-order-link").getAttribute("href"))!;
    const orderId = orderPath.split("/")[2]!;
    await page.getByTestId("payment-order-link").click();
    await page.waitForURL(`${shop.baseURL()}${orderPath}`);
    await waitForHydration(page);
    const panel = page.getByTestId("open-payment");
    expect(await panel.getByTestId("open-payment-code").textContent()).toBe(code);
    expect(await panel.getByTestId("open-payment-deadline").textContent()).toMatch(/^Págalo antes del .+ \d{2}:\d{2} \(hora de Lima\)\.$/);
    expect(await panel.getByRole("link", { name: "Pagar" }).getAttribute("href")).toBe(paymentPath);
    await panel.getByRole("button", { name: "Copiar código" }).click();
    await panel.getByText("Código copiado.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    expect(await page.getByRole("button", { name: "Reintentar" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Actualizar estado" }).count()).toBe(1);
    expect(await seriousAxeViolations(page, "/orden/:id unpaid")).toEqual([]);
    expect(await controlsUnderChatButton(page)).toEqual([]);

    // Paid through its «Pagar» link: the page keeps only what makes sense.
    await panel.getByRole("link", { name: "Pagar" }).click();
    await page.getByRole("button", { name: "Simular pago del código" }).click();
    await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
    await page.goto(`${shop.baseURL()}${orderPath}`);
    await waitForHydration(page);
    expect(await page.getByTestId("order-status").textContent()).toBe("Pagado");
    expect(await page.getByTestId("open-payment").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Reintentar" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Actualizar estado" }).count()).toBe(0);
    expect(await controlsUnderChatButton(page)).toEqual([]);
    expectClean();
    await close();

    // The office refunds it by hand (a code's money has no card to go back to), with labels, not codes,
    // and marks it returned from the order's own page.
    const staff = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password), PHONE);
    await staff.page.goto(`${shop.baseURL()}/admin/pedidos/${orderId}`);
    const payments = staff.page.getByTestId("staff-order-payments");
    expect(await payments.textContent()).toContain("Pago en efectivo (código PagoEfectivo) · Pasarela de prueba");
    await staff.page.goto(`${shop.baseURL()}/admin/pedidos/${orderId}/reembolsar`);
    // A paid order not on its way yet is refunded whole by cancelling it; here, a part.
    await staff.page.getByRole("radio", { name: "Una parte" }).check();
    await staff.page.getByLabel(/^Monto a devolver/).fill("10.00");
    await staff.page.getByLabel("Motivo").fill("El cliente ya no lo necesita");
    await staff.page.locator('button[name="intent"][value="refund"]').click();
    // Either the order's page, or the refund page's refusal (named in the failure).
    const landed = await Promise.race([
      staff.page.waitForURL((url) => url.pathname === `/admin/pedidos/${orderId}`).then(() => "order page"),
      staff.page
        .getByRole("alert")
        .first()
        .waitFor()
        .then(async () => `refused: ${await staff.page.getByRole("alert").first().textContent()}`),
    ]);
    expect(landed).toBe("order page");
    expect(new URL(staff.page.url()).search).toBe("?aviso=reembolso-manual");
    const refunds = staff.page.getByTestId("staff-order-refunds");
    expect(await refunds.textContent()).toContain("S/ 10.00 · Reembolso hecho por el equipo · Por devolver a mano");
    expect(await refunds.textContent()).not.toMatch(/staff_refund|manual\b/);
    expect(await seriousAxeViolations(staff.page, "/admin/pedidos/:id")).toEqual([]);
    await refunds.getByRole("button", { name: "Marcar S/ 10.00 como devuelto" }).click();
    await staff.page.waitForURL((url) => url.pathname === `/admin/pedidos/${orderId}` && url.search === "?aviso=reembolso-hecho");
    await staff.page.getByRole("status").filter({ hasText: "Reembolso hecho." }).waitFor();
    expect(await staff.page.getByTestId("staff-order-refunds").textContent()).toContain("S/ 10.00 · Reembolso hecho por el equipo · Devuelto");
    expect(await staff.page.getByRole("button", { name: /como devuelto/ }).count()).toBe(0);

    // Comprobantes opens on something useful: the ones to send, else the latest of all, saying so.
    await staff.page.goto(`${shop.baseURL()}/admin/comprobantes`);
    expect(await staff.page.getByTestId("comprobante-row").count()).toBeGreaterThan(0);
    const fellBack = (await staff.page.getByTestId("comprobantes-fallback").count()) === 1;
    expect(await staff.page.locator('select[name="estado"]').inputValue()).toBe(fellBack ? "all" : "open");
    expect(await seriousAxeViolations(staff.page, "/admin/comprobantes")).toEqual([]);
    staff.expectClean();
    await staff.close();
  });
});
