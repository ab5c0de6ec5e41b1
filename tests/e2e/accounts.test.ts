import { describe, expect, it } from "vitest";
import { DEMO_CUSTOMER, registerCustomer, STRONG_PASSWORD, uniqueEmail } from "../support/accounts";
import { MOBILE } from "../support/browser";
import { useBrowser, waitForEmail, waitForHydration } from "../support/e2e";

/** Email links carry the server's public URL; the test server answers on its own port. */
const local = (link: string, baseURL: string) => link.replace(/^https?:\/\/[^/]+/, baseURL);

describe("signing in, registering and recovering a password", () => {
  const shop = useBrowser();

  it("sends an anonymous visitor to /login and back to the page they wanted after signing in", async () => {
    const { page, expectClean, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/dashboard/perfil`);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/login?redirectTo=%2Fdashboard%2Fperfil");
    await waitForHydration(page);

    await page.getByLabel("Correo electrónico").fill(DEMO_CUSTOMER.email);
    await page.getByLabel("Contraseña", { exact: true }).fill("NoEsMiClave1");
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await page.getByRole("alert").filter({ hasText: "Correo o contraseña incorrectos" }).waitFor();
    expect(await page.getByLabel("Correo electrónico").inputValue()).toBe(DEMO_CUSTOMER.email);

    await page.getByLabel("Contraseña", { exact: true }).fill(DEMO_CUSTOMER.password);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await page.waitForURL(`${shop.baseURL()}/dashboard/perfil`);
    await page.getByRole("heading", { name: "Mi perfil" }).waitFor();
    expect(await page.getByTestId("account-name").textContent()).toBe("María Fernández");
    expectClean();
    await close();
  });

  it("keeps the session 7 days with 'Recordarme' and only for the browser session without it", async () => {
    const expiry = async (remember: boolean) => {
      const { page, close } = await shop.open();
      await page.goto(`${shop.baseURL()}/login`);
      await waitForHydration(page);
      await page.getByLabel("Correo electrónico").fill(DEMO_CUSTOMER.email);
      await page.getByLabel("Contraseña", { exact: true }).fill(DEMO_CUSTOMER.password);
      if (remember) await page.getByLabel("Recordarme").check();
      await page.getByRole("button", { name: "Iniciar sesión" }).click();
      await page.waitForURL(`${shop.baseURL()}/dashboard`);
      const cookie = (await page.context().cookies()).find((candidate) => candidate.name === "va.session_token");
      await close();
      return cookie!;
    };
    const remembered = await expiry(true);
    const days = (remembered.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect(remembered).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect((await expiry(false)).expires).toBe(-1);
  });

  it("signs out, and the account pages send the visitor back to /login", async () => {
    const customer = await registerCustomer(shop.baseURL());
    const { page, close } = await shop.open();
    await page.context().addCookies(customer.cookies.map((cookie) => ({ ...cookie, url: shop.baseURL() })));
    await page.goto(`${shop.baseURL()}/dashboard`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Cerrar sesión" }).click();
    await page.waitForURL(`${shop.baseURL()}/login`);
    await page.goto(`${shop.baseURL()}/dashboard`);
    expect(page.url()).toBe(`${shop.baseURL()}/login?redirectTo=%2Fdashboard`);
    await close();
  });

  it("registers a customer who confirms the email from the outbox", async () => {
    const email = uniqueEmail("registro");
    const { page, expectClean, close } = await shop.open(MOBILE);
    await page.goto(`${shop.baseURL()}/login`);
    await page.getByRole("link", { name: "Regístrate" }).click();
    await page.waitForURL(`${shop.baseURL()}/register`);
    await waitForHydration(page);
    await page.getByLabel("Nombre").fill("Lucía");
    await page.getByLabel("Apellido").fill("Paredes");
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Contraseña", { exact: true }).fill("corta");
    await page.getByLabel("Confirmar contraseña", { exact: true }).fill("corta");
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await page.getByText("La contraseña debe tener al menos 8 caracteres").waitFor();
    expect(await page.getByLabel("Nombre").inputValue()).toBe("Lucía");

    await page.getByLabel("Contraseña", { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel("Confirmar contraseña", { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await page.getByRole("heading", { name: "¡Hola, Lucía!" }).waitFor();
    expect(await page.getByRole("status").filter({ hasText: "Confirma tu correo" }).count()).toBe(1);

    const welcome = await waitForEmail(shop.outboxDir(), (candidate) => candidate.to === email && candidate.kind === "email_verification");
    await page.goto(local(/(https?:\/\/\S+verificar-correo\S+)/.exec(welcome.text)![1]!, shop.baseURL()));
    // The link opens a page; its button confirms (decision 0072).
    await page.getByRole("button", { name: "Confirmar mi correo" }).click();
    await page.getByRole("heading", { name: "Correo confirmado" }).waitFor();
    await page.goto(`${shop.baseURL()}/dashboard`);
    await page.getByRole("heading", { name: "¡Hola, Lucía!" }).waitFor();
    expect(await page.getByRole("status").filter({ hasText: "Confirma tu correo" }).count()).toBe(0);
    expectClean();
    await close();
  });

  it("recovers a password with the emailed link, once, and signs in with the new one", async () => {
    const customer = await registerCustomer(shop.baseURL());
    const { page, expectClean, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/forgot-password`);
    await waitForHydration(page);
    expect(await page.getByRole("button", { name: "Enviar enlace" }).isDisabled()).toBe(true);
    await page.getByLabel("Correo electrónico").fill(customer.email);
    await page.getByRole("button", { name: "Enviar enlace" }).click();
    await page.getByRole("heading", { name: "Correo enviado" }).waitFor();

    const email = await waitForEmail(shop.outboxDir(), (candidate) => candidate.to === customer.email && candidate.kind === "password_reset");
    const link = local(/(https?:\/\/\S+reset-password\S+)/.exec(email.text)![1]!, shop.baseURL());
    // The page's timers under a clock the test moves: the 3 s before /login pass at once.
    await page.clock.install();
    await page.goto(link);
    await waitForHydration(page);
    await page.clock.pauseAt(Date.now() + 1000);
    const submit = page.getByRole("button", { name: "Actualizar contraseña" });
    expect(await submit.isDisabled()).toBe(true);

    // Spec §5: the checks run in order, each with its own message.
    const attempt = async (password: string, confirm = password) => {
      await page.getByLabel("Nueva contraseña", { exact: true }).fill(password);
      await page.getByLabel("Confirmar contraseña", { exact: true }).fill(confirm);
      await submit.click();
    };
    await attempt("Ab1");
    await page.getByRole("alert").filter({ hasText: "La contraseña debe tener al menos 8 caracteres" }).waitFor();
    await attempt("ABCDEFG1");
    await page.getByRole("alert").filter({ hasText: "La contraseña debe contener al menos una letra minúscula" }).waitFor();
    await attempt("abcdefg1");
    await page.getByRole("alert").filter({ hasText: "La contraseña debe contener al menos una letra mayúscula" }).waitFor();
    await attempt("Abcdefgh");
    await page.getByRole("alert").filter({ hasText: "La contraseña debe contener al menos un número" }).waitFor();
    await attempt("NuevaClave9", "NuevaClave8");
    await page.getByRole("alert").filter({ hasText: "Las contraseñas no coinciden" }).waitFor();

    await attempt("NuevaClave9");
    await page.getByRole("heading", { name: "Contraseña actualizada!" }).waitFor();
    await page.clock.runFor(2_900);
    expect(new URL(page.url()).pathname).toBe("/reset-password");
    await page.clock.runFor(100);
    await page.waitForURL(`${shop.baseURL()}/login`);
    await page.clock.resume();

    await page.goto(link);
    await page.getByRole("heading", { name: "Enlace inválido" }).waitFor();
    expect(await page.getByText("El enlace de recuperación no es válido o ha expirado").count()).toBe(1);
    expect(await page.getByRole("link", { name: "Solicitar nuevo enlace" }).getAttribute("href")).toBe("/forgot-password");

    await page.goto(`${shop.baseURL()}/login`);
    await waitForHydration(page);
    await page.getByLabel("Correo electrónico").fill(customer.email);
    await page.getByLabel("Contraseña", { exact: true }).fill("NuevaClave9");
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await page.waitForURL(`${shop.baseURL()}/dashboard`);
    expectClean();
    await close();
  });

  it("answers 'Correo enviado' for an address without an account", async () => {
    const { page, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/forgot-password`);
    await waitForHydration(page);
    await page.getByLabel("Correo electrónico").fill(uniqueEmail("nadie"));
    await page.getByRole("button", { name: "Enviar enlace" }).click();
    await page.getByRole("heading", { name: "Correo enviado" }).waitFor();
    await page.getByRole("button", { name: "Intentar de nuevo" }).click();
    await page.getByRole("heading", { name: "¿Olvidaste tu contraseña?" }).waitFor();
    await close();
  });

  it("slows down repeated wrong passwords for an account on one client", async () => {
    const customer = await registerCustomer(shop.baseURL());
    const { page, close } = await shop.open();
    await page.goto(`${shop.baseURL()}/login`);
    await waitForHydration(page);
    await page.getByLabel("Correo electrónico").fill(customer.email);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await page.getByLabel("Contraseña", { exact: true }).fill(`Equivocada${attempt}`);
      await page.getByRole("button", { name: "Iniciar sesión" }).click();
      await page.getByRole("alert").filter({ hasText: "Correo o contraseña incorrectos" }).waitFor();
    }
    await page.getByLabel("Contraseña", { exact: true }).fill(customer.password);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    // The same browser (the same client) waits 30 s after five failures: docs/decisions/0029.
    await page
      .getByRole("alert")
      .filter({ hasText: /Demasiados intentos\. Espera \d+ segundos/ })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    await close();
  });

  it("refuses a form posted from another site", async () => {
    const response = await fetch(`${shop.baseURL()}/login`, {
      method: "POST",
      headers: { Origin: "https://otro-sitio.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password }),
      redirect: "manual",
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});
