/**
 * Issue 39, finding 4 in the browser, at phone width (decision 0072): a guest checkout with the
 * address of a proven account stays out of that account; the owner adds it from the confirmation
 * e-mail's "Agregar este pedido a mi cuenta": the link sends them to sign in, then back to a page
 * whose button adds the order, and it shows in "Mis pedidos".
 */
import { describe, expect, it } from "vitest";
import { cookieHeader, registerCustomer, signInCookies, uniqueEmail } from "../support/accounts";
import { MOBILE } from "../support/browser";
import { useBrowser, waitForEmail, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";
import { seriousAxeViolations } from "../support/axe";
import { checkoutBody, postCheckout, postSandboxAction } from "../support/shop-process";

const local = (link: string, baseURL: string) => link.replace(/^https?:\/\/[^/]+/, baseURL);
const OWNERS_PASSWORD = "Propia4567";

describe("a guest order enters an account only when its owner adds it", () => {
  const shop = useBrowser();

  /** A guest checkout (nobody signed in) paid in the sandbox. */
  async function paidGuestOrder(email: string): Promise<void> {
    const checkout = await postCheckout(shop.baseURL(), checkoutBody({ correo: email, nombre: "Carmen", apellido: "Dueña" }));
    expect(checkout.status).toBe(302);
    expect((await postSandboxAction(shop.baseURL(), checkout.headers.get("location")!, "approve_card")).status).toBe(302);
  }

  /** An account whose owner proved the address: signed up, then chose the password on the welcome link's page. */
  async function provenAccount(email: string) {
    await paidGuestOrder(email);
    await registerCustomer(shop.baseURL(), { email, firstName: "Carmen", lastName: "Dueña" });
    const welcome = await waitForEmail(shop.outboxDir(), (candidate) => candidate.to === email && candidate.kind === "email_verification");
    const link = local(/(https?:\/\/\S+verificar-correo\S+)/.exec(welcome.text)![1]!, shop.baseURL());
    const confirmed = await fetch(link, {
      method: "POST",
      headers: { Origin: shop.baseURL(), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: new URL(link).searchParams.get("token")!, password: OWNERS_PASSWORD, confirmPassword: OWNERS_PASSWORD }),
      redirect: "manual",
    });
    expect(confirmed.status).toBe(200);
  }

  const myOrders = async (email: string) =>
    (
      await fetch(`${shop.baseURL()}/dashboard/pedidos`, {
        headers: { cookie: cookieHeader(await signInCookies(shop.baseURL(), email, OWNERS_PASSWORD)) },
      })
    ).text();

  it("the owner opens the e-mail's link, signs in, adds the order with the button and finds it in Mis pedidos", { timeout: 120_000 }, async () => {
    const email = uniqueEmail("titular");
    // Its guest order from before the proof came with the proof (decision 0072): one order in the account.
    await provenAccount(email);

    // A guest checkout with the proven address, after the proof: it stays a guest order.
    await paidGuestOrder(email);
    const confirmation = await waitForEmail(
      shop.outboxDir(),
      (candidate) => candidate.to === email && candidate.kind === "order-confirmation" && candidate.text.includes("Agregar este pedido a mi cuenta"),
    );
    const orderNumber = /Pedido (\S+) pagado/.exec(confirmation.text)![1]!;
    const link = local(/Agregar este pedido a mi cuenta: (\S+)/.exec(confirmation.text)![1]!, shop.baseURL());
    expect(await myOrders(email)).not.toContain(orderNumber);

    const { page, errors, close } = await shop.open(MOBILE);
    await page.goto(link);
    // Not signed in: the login page, with the way back.
    await page.waitForURL((url) => url.pathname === "/login");
    await waitForHydration(page);
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Contraseña", { exact: true }).fill(OWNERS_PASSWORD);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/dashboard/agregar-pedido/"));
    await page.getByRole("heading", { name: `Pedido ${orderNumber}` }).waitFor();
    await waitForHydration(page);
    // Opening the page added nothing.
    expect(await myOrders(email)).not.toContain(orderNumber);
    expect(await seriousAxeViolations(page, "agregar pedido, teléfono")).toEqual([]);
    expect(await auditLayout(page)).toEqual([]);

    await page.getByRole("button", { name: "Agregar este pedido a mi cuenta" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Listo: el pedido ${orderNumber} está en tu cuenta.` })
      .waitFor();
    // On a phone the account menu is folded (issue 41): open it, then follow its link.
    await page.getByText("Menú de mi cuenta").click();
    await page.getByRole("link", { name: "Mis pedidos", exact: true }).filter({ visible: true }).first().click();
    await page.waitForURL(`${shop.baseURL()}/dashboard/pedidos`);
    await page.getByRole("heading", { name: "Mis pedidos" }).waitFor();
    await expect.poll(() => page.getByRole("link", { name: /^Ver detalle/ }).count()).toBe(2);
    expect(await page.getByText(orderNumber, { exact: true }).count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await close();
  });
});
