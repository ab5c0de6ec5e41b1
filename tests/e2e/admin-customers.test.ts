import { randomUUID } from "node:crypto";
import { text as streamText } from "node:stream/consumers";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN, DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { openSignedIn, registerCustomer, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { guestCheckoutBody } from "../support/checkout-page";
import { DESKTOP, MOBILE } from "../support/browser";
import { useBrowser, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";

/** 360 px: the narrowest phone the shop promises to work on. */
const PHONE = { ...MOBILE, viewport: { width: 360, height: 780 } };

describe("customers in the back office (issue 11, /admin/clientes)", () => {
  const shop = useBrowser();

  async function expectAccessibleAndFitting(page: Page, label: string) {
    expect(await seriousAxeViolations(page, label)).toEqual([]);
    expect(await auditLayout(page), label).toEqual([]);
  }

  it("operaciones finds a customer, opens their picture and sends a password-reset link; the admin's page fits a phone", async () => {
    const suffix = randomUUID().slice(0, 8);
    const customer = await registerCustomer(shop.baseURL(), { email: `clienta-${suffix}@prueba.pe`, firstName: "Clorinda", lastName: `Ñahui${suffix}` });

    const ops = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password), DESKTOP);
    await ops.page.goto(`${shop.baseURL()}/admin`);
    await waitForHydration(ops.page);
    await ops.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Clientes" }).click();
    await ops.page.getByRole("heading", { name: "Clientes" }).waitFor();
    await ops.page.getByLabel("Buscar", { exact: true }).fill(`clorinda ñahui${suffix}`);
    await ops.page.getByRole("button", { name: "Buscar" }).click();
    await ops.page.waitForURL((url) => url.searchParams.has("q"));
    const rows = ops.page.getByTestId("customer-row");
    // The demo customer (listed before the search) is gone once the results render.
    await ops.page.getByTestId("pager-summary").filter({ hasText: "de 1 resultados" }).waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(customer.email);
    await expectAccessibleAndFitting(ops.page, "clientes (escritorio)");

    await rows.first().getByRole("link").click();
    await ops.page.getByRole("heading", { name: `Clorinda Ñahui${suffix}` }).waitFor();
    expect(await ops.page.getByTestId("customer-profile").textContent()).toContain(customer.email);
    // Operaciones does not see the Ley 29733 actions (the admin's).
    expect(await ops.page.getByRole("heading", { name: "Datos personales (Ley 29733)" }).count()).toBe(0);
    await expectAccessibleAndFitting(ops.page, "cliente (escritorio)");

    await ops.page.getByRole("button", { name: "Enviar enlace para cambiar contraseña" }).click();
    await ops.page
      .getByRole("status")
      .filter({ hasText: `Enviamos un enlace para restablecer la contraseña a ${customer.email}` })
      .waitFor();
    // The e-mail itself (better-auth's link, through the outbox) is checked in tests/integration/admin-customers.test.ts.
    ops.expectClean();

    const admin = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_ADMIN.email, DEMO_ADMIN.password), PHONE);
    await admin.page.goto(`${ops.page.url()}`);
    await waitForHydration(admin.page);
    await admin.page.getByRole("heading", { name: "Datos personales (Ley 29733)" }).waitFor();
    await expectAccessibleAndFitting(admin.page, "cliente (360 px)");
    await admin.page.getByRole("link", { name: "Anonimizar…" }).click();
    await admin.page.getByRole("heading", { name: "Anonimizar cliente" }).waitFor();
    await expectAccessibleAndFitting(admin.page, "anonimizar (360 px)");
    admin.expectClean();
  });

  it("operaciones records a profile's number as «confirmado por teléfono» at 360 px: shown unproven before, proven after (issue 39)", async () => {
    const suffix = randomUUID().slice(0, 8);
    const phone = `9${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    await registerCustomer(shop.baseURL(), { email: `cel-${suffix}@prueba.pe`, firstName: "Celia", lastName: `Llamada${suffix}`, phone });
    const ops = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password), PHONE);
    await ops.page.goto(`${shop.baseURL()}/admin/clientes?q=${encodeURIComponent(`cel-${suffix}@prueba.pe`)}`);
    await ops.page.getByTestId("customer-row").first().getByRole("link").click();
    await ops.page.getByRole("heading", { name: `Celia Llamada${suffix}` }).waitFor();
    await waitForHydration(ops.page);
    const numbers = ops.page.getByTestId("customer-whatsapp");
    expect(await numbers.textContent()).toContain("sin confirmar que es suyo");
    await expectAccessibleAndFitting(ops.page, "cliente con celular sin confirmar (360 px)");

    await ops.page.getByRole("button", { name: "Celular confirmado por teléfono" }).click();
    await ops.page.getByRole("status").filter({ hasText: "Celular confirmado por teléfono" }).waitFor();
    await numbers.filter({ hasText: "nunca activó los avisos" }).waitFor();
    expect(await numbers.textContent()).not.toContain("sin confirmar");
    expect(await ops.page.getByRole("button", { name: "Celular confirmado por teléfono" }).count()).toBe(0);
    ops.expectClean();
  });

  it("the admin finds a guest buyer by e-mail, sees their picture, downloads their data and is told why anonymising waits (decision 0061, 360 px)", async () => {
    const suffix = randomUUID().slice(0, 8);
    const email = `invitada-${suffix}@prueba.pe`;
    const placed = await fetch(`${shop.baseURL()}/checkout`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: shop.baseURL(), "Content-Type": "application/json" },
      body: guestCheckoutBody(email, { nombre: "Invitada", apellido: `Sincuenta${suffix}` }),
    });
    expect(placed.status).toBe(302);

    const admin = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_ADMIN.email, DEMO_ADMIN.password), PHONE);
    await admin.page.goto(`${shop.baseURL()}/admin/clientes?q=${encodeURIComponent(email.toUpperCase())}`);
    const rows = admin.page.getByTestId("customer-row");
    await rows.filter({ hasText: "Invitado (sin cuenta)" }).waitFor();
    expect(await rows.count()).toBe(1);
    await rows.first().getByRole("link").click();
    await admin.page.getByRole("heading", { name: `Invitada Sincuenta${suffix}` }).waitFor();
    // The guest is named by an order id: the e-mail never travels in the page's URL.
    expect(new URL(admin.page.url()).pathname).toMatch(/^\/admin\/clientes\/invitado\/[0-9a-f-]{36}$/);
    expect(await admin.page.getByTestId("guest-profile").textContent()).toContain(email);
    await expectAccessibleAndFitting(admin.page, "invitado (360 px)");

    const download = admin.page.waitForEvent("download");
    await admin.page.getByRole("button", { name: "Exportar sus datos (JSON)" }).click();
    // The browser runs apart from the test: the file is read through the download's stream.
    const exported = JSON.parse(await streamText(await (await download).createReadStream())) as {
      format: string;
      profile: { email: string };
      orders: unknown[];
    };
    expect(exported).toMatchObject({ format: "vida-alcalina/datos-personales/1", profile: { email }, orders: [expect.anything()] });

    await admin.page.getByRole("link", { name: "Anonimizar…" }).click();
    await admin.page.getByRole("heading", { name: "Anonimizar comprador invitado" }).waitFor();
    expect(await admin.page.getByRole("alert").textContent()).toContain("pedidos sin pagar");
    await expectAccessibleAndFitting(admin.page, "anonimizar invitado (360 px)");
    admin.expectClean();
  });

  it("the admin finds someone who only filed a complaint sheet, opens their page and anonymises them; the sheet stays and they are no longer listed (decision 0064, 360 px)", async () => {
    const suffix = randomUUID().slice(0, 8);
    const email = `reclamante-${suffix}@prueba.pe`;
    const filed = await fetch(`${shop.baseURL()}/libro-de-reclamaciones`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: shop.baseURL(), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        consumerNames: "Reclamante",
        consumerSurnames: `Sincompras${suffix}`,
        documentType: "dni",
        documentNumber: "45678913",
        address: "Av. Arequipa 200, Lima",
        email,
        goodType: "servicio",
        goodDescription: "Atención",
        kind: "queja",
        detail: "Nadie contestó el teléfono.",
        consumerRequest: "Que contesten.",
      }),
    });
    expect(filed.status).toBe(303);

    const admin = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_ADMIN.email, DEMO_ADMIN.password), PHONE);
    const search = `${shop.baseURL()}/admin/clientes?q=${encodeURIComponent(email)}`;
    await admin.page.goto(search);
    const rows = admin.page.getByTestId("customer-row");
    await rows.filter({ hasText: "Sin compras" }).waitFor();
    expect(await rows.count()).toBe(1);
    await rows.first().getByRole("link").click();
    await admin.page.getByRole("heading", { name: `Reclamante Sincompras${suffix}` }).waitFor();
    // Named by the sheet's id: the e-mail never travels in the page's URL.
    expect(new URL(admin.page.url()).pathname).toMatch(/^\/admin\/clientes\/persona\/reclamo-[0-9a-f-]{36}$/);
    expect(await admin.page.getByTestId("person-profile").textContent()).toContain(email);
    await expectAccessibleAndFitting(admin.page, "persona sin compras (360 px)");

    await admin.page.getByRole("link", { name: "Anonimizar…" }).click();
    // The confirmation is the account's page (checked for axe and 360 px above) with its own lists.
    await admin.page.getByRole("heading", { name: "Anonimizar persona sin compras" }).waitFor();
    await admin.page.getByLabel("Escribe ANONIMIZAR para confirmar").fill("ANONIMIZAR");
    await admin.page.getByRole("button", { name: "Anonimizar definitivamente" }).click();
    await admin.page.getByRole("status").filter({ hasText: "Persona anonimizada. Sus hojas de reclamación se conservan" }).waitFor();
    // The sheet is kept as filed, so the page still shows it.
    expect(await admin.page.getByRole("link", { name: /^Hoja \d/ }).count()).toBe(1);
    expect(await admin.page.getByRole("heading", { name: "Datos personales (Ley 29733)" }).count()).toBe(0);

    await admin.page.goto(search);
    await admin.page.getByText("Ningún cliente coincide con la búsqueda.").waitFor();
    admin.expectClean();
  });
});
