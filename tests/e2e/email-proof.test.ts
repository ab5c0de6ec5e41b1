/**
 * Issue 24, defect 2 in the browser, at phone width (decision 0072): the welcome e-mail's link
 * opens a page and confirms nothing by itself (mail scanners follow links); its button confirms.
 * Someone who signs up with another person's address gets none of that person's guest orders:
 * they attach only when the holder of the link chooses the password on that page, which also
 * ends the signer-up's session.
 */
import { describe, expect, it } from "vitest";
import { cookieHeader, registerCustomer, uniqueEmail } from "../support/accounts";
import { MOBILE } from "../support/browser";
import { guestCheckoutBody } from "../support/checkout-page";
import { useBrowser, waitForEmail, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";
import { seriousAxeViolations } from "../support/axe";

const local = (link: string, baseURL: string) => link.replace(/^https?:\/\/[^/]+/, baseURL);

describe("proof before ownership: the e-mail confirmation page", () => {
  const shop = useBrowser();

  async function guestOrder(email: string): Promise<void> {
    const response = await fetch(`${shop.baseURL()}/checkout`, {
      method: "POST",
      headers: { Origin: shop.baseURL(), "Content-Type": "application/json" },
      body: guestCheckoutBody(email, { nombre: "Carmen", apellido: "Dueña" }),
      redirect: "manual",
    });
    if (response.status !== 302) throw new Error(`checkout answered ${response.status}`);
  }

  /** The signed-in dashboard of a session, as its owner sees it. */
  const dashboard = (cookies: { name: string; value: string }[], path = "/dashboard/pedidos") =>
    fetch(`${shop.baseURL()}${path}`, { headers: { cookie: cookieHeader(cookies) }, redirect: "manual" });

  it(
    "opening the link confirms nothing; the stranger who signed up gets no guest order; the owner's password on the page brings them",
    { timeout: 90_000 },
    async () => {
      const email = uniqueEmail("duena");
      await guestOrder(email);
      const stranger = await registerCustomer(shop.baseURL(), { email, firstName: "Intruso", password: "Intruso123" });
      const welcome = await waitForEmail(shop.outboxDir(), (candidate) => candidate.to === email && candidate.kind === "email_verification");
      const link = local(/(https?:\/\/\S+verificar-correo\S+)/.exec(welcome.text)![1]!, shop.baseURL());

      // A scanner's GET: the page only asks.
      expect((await fetch(link)).status).toBe(200);
      const { page, errors, close } = await shop.open(MOBILE);
      await page.goto(link);
      await waitForHydration(page);
      await page.getByRole("heading", { name: "Confirmar mi correo" }).waitFor();
      expect(await page.getByText("Con este correo se hicieron 1 pedido sin cuenta.", { exact: false }).count()).toBe(1);
      expect(await seriousAxeViolations(page, "confirmar correo, teléfono")).toEqual([]);
      expect(await auditLayout(page)).toEqual([]);
      const strangersView = await (await dashboard(stranger.cookies, "/dashboard")).text();
      expect(strangersView).toContain("Confirma tu correo");
      expect(await (await dashboard(stranger.cookies)).text()).not.toContain("Ver detalle");

      // A short password is refused with the page's message, and nothing is confirmed yet.
      await page.getByLabel("Contraseña", { exact: true }).fill("corta");
      await page.getByLabel("Confirmar contraseña", { exact: true }).fill("corta");
      await page.getByRole("button", { name: "Confirmar mi correo" }).click();
      await page.getByText("La contraseña debe tener al menos 8 caracteres").waitFor();
      expect(await (await dashboard(stranger.cookies, "/dashboard")).text()).toContain("Confirma tu correo");

      await page.getByLabel("Contraseña", { exact: true }).fill("Propia4567");
      await page.getByLabel("Confirmar contraseña", { exact: true }).fill("Propia4567");
      await page.getByRole("button", { name: "Confirmar mi correo" }).click();
      await page.getByRole("heading", { name: "Correo confirmado" }).waitFor();
      expect(await page.getByText("tu pedido como invitado ya aparece", { exact: false }).count()).toBe(1);
      await page.getByRole("link", { name: "Ver mis pedidos" }).click();
      await page.waitForURL(`${shop.baseURL()}/dashboard/pedidos`);
      // The URL changes before React shows the new page: wait for its list, then count it.
      await page.getByRole("heading", { name: "Mis pedidos" }).waitFor();
      await expect.poll(() => page.getByRole("link", { name: /^Ver detalle/ }).count()).toBe(1);

      // The stranger's session ended with the password they chose.
      expect((await dashboard(stranger.cookies)).status).toBe(302);
      expect(errors).toEqual([]);
      await close();
    },
  );

  it("confirms with the button alone when no guest order waits, and an old link still works through the page", { timeout: 60_000 }, async () => {
    const customer = await registerCustomer(shop.baseURL(), { email: uniqueEmail("sola") });
    const welcome = await waitForEmail(shop.outboxDir(), (candidate) => candidate.to === customer.email && candidate.kind === "email_verification");
    const link = local(/(https?:\/\/\S+verificar-correo\S+)/.exec(welcome.text)![1]!, shop.baseURL());
    const { page, errors, close } = await shop.open(MOBILE);
    await page.goto(link);
    await waitForHydration(page);
    expect(await page.getByLabel("Contraseña", { exact: true }).count()).toBe(0);
    expect(await (await dashboard(customer.cookies, "/dashboard")).text()).toContain("Confirma tu correo");
    await page.getByRole("button", { name: "Confirmar mi correo" }).click();
    await page.getByRole("heading", { name: "Correo confirmado" }).waitFor();
    expect(await (await dashboard(customer.cookies, "/dashboard")).text()).not.toContain("Confirma tu correo");
    expect(errors).toEqual([]);
    await close();
  });
});
