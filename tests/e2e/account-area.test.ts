import { describe, expect, it } from "vitest";
import { DEMO_CUSTOMER, openSignedIn, registerCustomer, signInCookies, STRONG_PASSWORD } from "../support/accounts";
import { expectPageError, MOBILE, NOT_FOUND_DOCUMENT } from "../support/browser";
import { fillCheckout, openCheckoutWithCart } from "../support/checkout-page";
import { useBrowser, waitForHydration } from "../support/e2e";
import { axeViolations } from "../support/axe";

describe("the customer's account area", () => {
  const shop = useBrowser();
  const demoSession = () => signInCookies(shop.baseURL(), DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);

  it("greets the demo customer with stat cards, recent orders, profile summary and the pending-invoice link", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, await demoSession());
    await page.goto(`${shop.baseURL()}/dashboard`);
    await page.getByRole("heading", { name: "¡Hola, María!" }).waitFor();
    const stats = page.getByRole("list", { name: "Resumen" });
    expect(
      await stats
        .getByRole("link", { name: /Pedidos/ })
        .first()
        .textContent(),
    ).toMatch(/^Pedidos\d+$/);
    expect(await stats.getByRole("link", { name: /Suscripción/ }).textContent()).toBe("SuscripciónMensual");
    expect(await stats.getByRole("link", { name: /Próximos envíos/ }).getAttribute("href")).toBe("/dashboard/envios?filter=upcoming");
    const recent = page.locator("section", { has: page.getByRole("heading", { name: "Pedidos recientes" }) });
    expect(await recent.getByRole("listitem").count()).toBe(5);
    expect(await page.getByRole("link", { name: /factura(s)? pendiente(s)? de pago/ }).getAttribute("href")).toBe("/dashboard/facturas?status=pending");
    expect(await page.locator("section", { has: page.getByRole("heading", { name: "Mi perfil" }) }).textContent()).toContain("Av. José Larco 1234");
    expectClean();
    await close();
  });

  it("edits the profile, keeping what was typed when names are missing", async () => {
    const customer = await registerCustomer(shop.baseURL());
    const { page, expectClean, close } = await openSignedIn(shop, customer.cookies);
    // The page's timers under a clock the test moves: the saved message's 3 s pass at once.
    await page.clock.install();
    await page.goto(`${shop.baseURL()}/dashboard/perfil`);
    await waitForHydration(page);
    await page.clock.pauseAt(Date.now() + 1000);
    await page.getByRole("link", { name: "Editar" }).click();
    await page.getByLabel("Nombre").fill("");
    await page.getByLabel("Celular").fill("912345678");
    await page.getByRole("button", { name: "Guardar cambios" }).click();
    await page.getByRole("alert").filter({ hasText: "El nombre y apellido son obligatorios" }).waitFor();
    expect(await page.getByLabel("Celular").inputValue()).toBe("912345678");
    expect(await page.getByLabel("Correo electrónico").isDisabled()).toBe(true);
    expect(await page.getByText("El correo no se puede modificar").count()).toBe(1);

    await page.getByLabel("Nombre").fill("Rosa María");
    await page.getByLabel("Distrito").selectOption({ label: "Miraflores" });
    await page.getByLabel("Dirección").fill("Calle Berlín 456");
    await page.getByRole("button", { name: "Guardar cambios" }).click();
    const saved = page.getByRole("status").filter({ hasText: "Perfil actualizado correctamente" });
    await saved.waitFor();
    // Spec §4: the message hides after 3 s.
    await page.clock.runFor(2_900);
    expect(await saved.isVisible()).toBe(true);
    await page.clock.runFor(100);
    await saved.waitFor({ state: "detached" });
    expect(await page.getByTestId("account-name").textContent()).toBe("Rosa María Quispe");
    expect(await page.getByText("Calle Berlín 456").count()).toBe(1);
    expectClean();
    await close();
  });

  it("changes the password after checking the current one, and ends the customer's other sessions", async () => {
    const customer = await registerCustomer(shop.baseURL());
    const elsewhere = await openSignedIn(shop, await signInCookies(shop.baseURL(), customer.email, customer.password));
    const { page, expectClean, close } = await openSignedIn(shop, customer.cookies);
    // The dialog's 2 s pass at once under a clock the test moves.
    await page.clock.install();
    await page.goto(`${shop.baseURL()}/dashboard/perfil`);
    await waitForHydration(page);
    await page.clock.pauseAt(Date.now() + 1000);
    await page.getByRole("button", { name: "Cambiar contraseña" }).click();
    const dialog = page.getByRole("dialog", { name: "Cambiar contraseña" });
    await dialog.getByRole("button", { name: "Actualizar contraseña" }).click();
    await dialog.getByRole("alert").filter({ hasText: "Por favor, completa todos los campos" }).waitFor();

    await dialog.getByLabel("Contraseña actual", { exact: true }).fill("NoEsLaMia1");
    await dialog.getByLabel("Nueva contraseña", { exact: true }).fill("OtraClave7");
    await dialog.getByLabel("Confirmar nueva contraseña", { exact: true }).fill("OtraClave7");
    await dialog.getByRole("button", { name: "Actualizar contraseña" }).click();
    await dialog.getByText("La contraseña actual es incorrecta").waitFor();

    await dialog.getByLabel("Contraseña actual", { exact: true }).fill(STRONG_PASSWORD);
    await dialog.getByRole("button", { name: "Actualizar contraseña" }).click();
    await dialog.getByRole("status").filter({ hasText: "Contraseña actualizada correctamente" }).waitFor();
    // Spec §4: the dialog closes 2 s after the change.
    await page.clock.runFor(1_900);
    expect(await dialog.isVisible()).toBe(true);
    await page.clock.runFor(100);
    await dialog.waitFor({ state: "hidden" });
    await page.clock.resume();

    // This browser keeps a fresh session; the other one is signed out.
    await page.goto(`${shop.baseURL()}/dashboard`);
    await page.getByRole("heading", { name: "¡Hola, Rosa!" }).waitFor();
    await elsewhere.page.goto(`${shop.baseURL()}/dashboard`);
    expect(new URL(elsewhere.page.url()).pathname).toBe("/login");
    await elsewhere.close();
    expectClean();
    await close();
  });

  it("shows the real subscription and its detail, and 'no encontrada' to another customer", async () => {
    const { page, close } = await openSignedIn(shop, await demoSession());
    await page.goto(`${shop.baseURL()}/dashboard/suscripcion`);
    await page.getByRole("heading", { name: "Mi suscripción" }).waitFor();
    expect(await page.getByText("Mensual (5% de descuento)").count()).toBe(1);
    expect(await page.getByText(/Visa terminada en 1111/).count()).toBe(1);
    await page.getByRole("link", { name: "Ver detalle e historial" }).click();
    await page.waitForURL(/\/dashboard\/suscripciones\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { level: 1, name: /^Suscripción SUS-\d{6}$/ }).waitFor();
    expect(await page.getByRole("heading", { name: "Historial" }).count()).toBe(1);
    const detailPath = new URL(page.url()).pathname;
    await close();

    const other = await registerCustomer(shop.baseURL());
    const stranger = await openSignedIn(shop, other.cookies);
    expectPageError(NOT_FOUND_DOCUMENT);
    const response = await stranger.page.goto(`${shop.baseURL()}${detailPath}`);
    expect(response?.status()).toBe(404);
    await stranger.page.getByRole("heading", { name: "Suscripción no encontrada" }).waitFor();
    expect(await stranger.page.getByText("Visa terminada en 1111").count()).toBe(0);
    await stranger.page.goto(`${shop.baseURL()}/dashboard/suscripcion`);
    await stranger.page.getByText("Aún no tienes una suscripción.", { exact: false }).waitFor();
    await stranger.close();

    const anonymous = await shop.open();
    await anonymous.page.goto(`${shop.baseURL()}${detailPath}`);
    expect(anonymous.page.url()).toBe(`${shop.baseURL()}/login?redirectTo=${encodeURIComponent(detailPath)}`);
    await anonymous.close();
  });

  it("sends anonymous visitors of every account page to /login", async () => {
    for (const path of ["/dashboard", "/dashboard/perfil", "/dashboard/suscripcion", "/mi-cuenta/suscripcion"]) {
      const response = await fetch(`${shop.baseURL()}${path}`, { redirect: "manual" });
      const location = response.headers.get("location") ?? "";
      const target = path.startsWith("/mi-cuenta") ? await fetch(new URL(location, shop.baseURL()), { redirect: "manual" }) : response;
      expect(target.status).toBe(302);
      expect(target.headers.get("location")).toMatch(/^\/login\?redirectTo=%2Fdashboard/);
    }
  });

  it("refuses the account actions to an anonymous visitor, changing nothing", async () => {
    const posts: [string, Record<string, string>][] = [
      ["/dashboard/perfil", { intent: "profile", firstName: "Intruso", lastName: "X" }],
      ["/dashboard/perfil", { intent: "password", currentPassword: "x", newPassword: "Nueva1234", confirmPassword: "Nueva1234" }],
      ["/dashboard/facturas", { intent: "email-invoices" }],
    ];
    for (const [path, fields] of posts) {
      const response = await fetch(`${shop.baseURL()}${path}`, {
        method: "POST",
        headers: { Origin: shop.baseURL(), "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    const { page, close } = await openSignedIn(shop, await demoSession());
    await page.goto(`${shop.baseURL()}/dashboard/perfil`);
    expect(await page.getByTestId("account-name").textContent()).toBe("María Fernández");
    await close();
  });

  it("pre-fills the checkout for a signed-in customer and files the order under the account", async () => {
    const { page, close } = await openSignedIn(shop, await demoSession());
    await openCheckoutWithCart(page, shop.baseURL());
    expect(await page.getByLabel("Nombre", { exact: true }).inputValue()).toBe("María");
    expect(await page.getByLabel("Correo electrónico").inputValue()).toBe(DEMO_CUSTOMER.email);
    expect(await page.getByLabel("Número de documento").inputValue()).toBe("45678912");
    expect(await page.getByLabel("Dirección", { exact: true }).inputValue()).toBe("Av. José Larco 1234, dpto. 502");
    await page.getByLabel("Correo electrónico").blur();
    expect(await page.getByText("Este correo ya está registrado.", { exact: false }).count()).toBe(0);
    await close();
  });

  it("tells a guest whose email has an account that the order can be added to it from the confirmation e-mail", async () => {
    const { page, close } = await shop.open();
    await openCheckoutWithCart(page, shop.baseURL());
    await fillCheckout(page);
    await page.getByLabel("Correo electrónico").fill(DEMO_CUSTOMER.email);
    await page.getByLabel("Correo electrónico").blur();
    await page
      .getByRole("status")
      .filter({ hasText: "Este correo ya está registrado. Si la cuenta es tuya, podrás agregar este pedido a tu cuenta desde el correo de confirmación." })
      .waitFor();
    await page.getByLabel("Correo electrónico").fill("otra-persona@prueba.pe");
    await page.getByLabel("Correo electrónico").blur();
    expect(await page.getByText("Este correo ya está registrado.", { exact: false }).count()).toBe(0);
    await close();
  });

  it("fits a phone: the account menu folds into one line that opens, and the page never scrolls sideways", async () => {
    const { page, close } = await openSignedIn(shop, await demoSession(), MOBILE);
    for (const [path, current] of [
      ["/dashboard", "Inicio"],
      ["/dashboard/perfil", "Mi perfil"],
      ["/dashboard/suscripcion", "Suscripción"],
    ] as const) {
      await page.goto(`${shop.baseURL()}${path}`);
      await waitForHydration(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // Issue 41: folded, the account's card (name and menu line) leaves the screen to the page.
      const aside = await page
        .locator("aside")
        .filter({ has: page.getByTestId("account-name") })
        .boundingBox();
      expect(aside!.height).toBeLessThan(150);
      const menu = page.getByTestId("account-menu");
      expect(await menu.locator("summary").textContent()).toContain(current);
      const link = page.getByRole("navigation", { name: "Mi cuenta" }).getByRole("link", { name: "Mis pedidos" });
      expect(await link.isVisible()).toBe(false);
      await menu.locator("summary").click();
      expect(await link.isVisible()).toBe(true);
    }
    await page.getByRole("navigation", { name: "Mi cuenta" }).getByRole("link", { name: "Mis pedidos" }).click();
    await page.waitForURL(`${shop.baseURL()}/dashboard/pedidos`);
    await page.getByTestId("account-menu").locator("summary").filter({ hasText: "Mis pedidos" }).waitFor();
    expect(await page.getByTestId("account-menu").evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    await close();
  });

  it("has no serious or critical axe violations on the sign-in pages and the account pages", async () => {
    // One phone context for the anonymous pages and one for the signed-in ones: each page is a fresh navigation.
    const audit = async (paths: string[], cookies: Awaited<ReturnType<typeof demoSession>> | null) => {
      const { page, close } = cookies ? await openSignedIn(shop, cookies, MOBILE) : await shop.open(MOBILE);
      const found: string[] = [];
      for (const path of paths) {
        await page.goto(`${shop.baseURL()}${path}`);
        await waitForHydration(page);
        found.push(
          ...(await axeViolations(page))
            .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
            .map((violation) => `${path}: ${violation.id}`),
        );
      }
      await close();
      return found;
    };
    const violations = [
      ...(await audit(["/login", "/register", "/forgot-password", "/reset-password?token=nada"], null)),
      ...(await audit(["/dashboard", "/dashboard/perfil", "/dashboard/perfil?editar=1", "/dashboard/suscripcion"], await demoSession())),
    ];
    expect(violations).toEqual([]);
  });
});
