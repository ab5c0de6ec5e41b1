import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { openSignedIn, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP, MOBILE } from "../support/browser";
import { useBrowser, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";

/** 360 px: the narrowest phone the shop promises to work on. */
const PHONE = { ...MOBILE, viewport: { width: 360, height: 780 } };

describe("the team page and the audit log (issue 10)", () => {
  const shop = useBrowser();
  const adminSession = () => signInCookies(shop.baseURL(), DEMO_ADMIN.email, DEMO_ADMIN.password);

  async function expectAccessibleAndFitting(page: Page, label: string) {
    expect(await seriousAxeViolations(page, label)).toEqual([]);
    expect(await auditLayout(page), label).toEqual([]);
  }

  it("the admin creates an operaciones member who signs in and lands on /admin; once deactivated, their open page's next navigation goes to /login; the audit shows both", async () => {
    const suffix = randomUUID().slice(0, 6);
    const member = { firstName: `Elena${suffix}`, lastName: "Ríos", email: `elena-${suffix}@prueba.pe`, password: "Despacho2024" };
    const admin = await openSignedIn(shop, await adminSession(), DESKTOP);
    await admin.page.goto(`${shop.baseURL()}/admin/equipo`);
    await waitForHydration(admin.page);
    const create = admin.page.locator("form", { has: admin.page.getByRole("button", { name: "Crear cuenta del equipo" }) });
    await create.getByLabel("Nombre").fill(member.firstName);
    await create.getByLabel("Apellido").fill(member.lastName);
    await create.getByLabel("Correo electrónico").fill(member.email);
    await create.getByLabel("Rol").selectOption("operaciones");
    // A weak password is refused with the shop's rule, and what was typed stays.
    await create.getByLabel("Contraseña inicial").fill("corta");
    await create.getByRole("button", { name: "Crear cuenta del equipo" }).click();
    await admin.page.getByText("La contraseña debe tener al menos 8 caracteres").waitFor();
    expect(await create.getByLabel("Correo electrónico").inputValue()).toBe(member.email);
    await create.getByLabel("Contraseña inicial").fill(member.password);
    await create.getByRole("button", { name: "Crear cuenta del equipo" }).click();
    await admin.page
      .getByRole("status")
      .filter({ hasText: `${member.firstName} ya puede ingresar` })
      .waitFor();
    const card = admin.page.getByTestId("staff-member").filter({ hasText: member.email });
    expect(await card.textContent()).toContain("Operaciones");
    expect(await card.textContent()).toContain("Activo");
    await expectAccessibleAndFitting(admin.page, "equipo (escritorio)");

    // The new member signs in on the shop's own /login and starts in the back office.
    const staff = await shop.open(DESKTOP);
    await staff.page.goto(`${shop.baseURL()}/login`);
    await waitForHydration(staff.page);
    await staff.page.getByLabel("Correo electrónico").fill(member.email);
    await staff.page.getByLabel("Contraseña", { exact: true }).fill(member.password);
    await staff.page.getByRole("button", { name: "Iniciar sesión" }).click();
    await staff.page.getByRole("heading", { name: `Hola, ${member.firstName}` }).waitFor();
    expect(new URL(staff.page.url()).pathname).toBe("/admin");

    await card.getByRole("button", { name: `Desactivar a ${member.firstName}` }).click();
    await admin.page.getByRole("status").filter({ hasText: "sus sesiones se cerraron" }).waitFor();
    await card.getByText("Desactivado", { exact: true }).waitFor();

    // The member's page is still open; their next navigation finds no session.
    await staff.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Inicio" }).click();
    await staff.page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(staff.page.url()).searchParams.get("redirectTo")).toBe("/admin");

    await admin.page.goto(`${shop.baseURL()}/admin/auditoria`);
    await waitForHydration(admin.page);
    await admin.page.getByLabel("Persona (correo)").fill(DEMO_ADMIN.email);
    await admin.page.getByLabel("Tipo de registro").fill("user");
    await admin.page.getByRole("button", { name: "Filtrar" }).click();
    await admin.page.waitForURL((url) => url.searchParams.get("persona") === DEMO_ADMIN.email && url.searchParams.get("tipo") === "user");
    const created = admin.page.getByTestId("audit-row").filter({ hasText: "Alta en el equipo" }).filter({ hasText: member.email });
    await created.waitFor();
    expect(await created.textContent()).toContain("(Administración)");
    // Follow the record: its whole history, newest first.
    await created.getByRole("link", { name: /^Cuenta / }).click();
    await admin.page.waitForURL((url) => url.searchParams.has("registro"));
    const history = admin.page.getByTestId("audit-row");
    await history.first().waitFor();
    expect(await history.allTextContents()).toEqual([expect.stringContaining("Cuenta desactivada"), expect.stringContaining("Alta en el equipo")]);
    expect(await history.first().textContent()).toMatch(/status:\s*active\s*→\s*inactive/);
    await expectAccessibleAndFitting(admin.page, "auditoría (escritorio)");
    await admin.page.goto(`${shop.baseURL()}/admin`);
    await admin.page.getByRole("heading", { name: "Alarmas" }).waitFor();
    await expectAccessibleAndFitting(admin.page, "inicio (escritorio)");

    admin.expectClean();
    staff.expectClean();
    await admin.close();
    await staff.close();
  });

  it("refuses an admin deactivating or demoting themselves and offers a customer's own account for a role", async () => {
    const admin = await openSignedIn(shop, await adminSession(), PHONE);
    await admin.page.goto(`${shop.baseURL()}/admin/equipo`);
    await waitForHydration(admin.page);
    const self = admin.page.getByTestId("staff-member").filter({ hasText: DEMO_ADMIN.email });
    expect(await self.getByRole("button").count()).toBe(0);

    const create = admin.page.locator("form", { has: admin.page.getByRole("button", { name: "Crear cuenta del equipo" }) });
    await create.getByLabel("Nombre").fill("María");
    await create.getByLabel("Apellido").fill("Fernández");
    await create.getByLabel("Correo electrónico").fill("cliente@demo.pe");
    await create.getByLabel("Contraseña inicial").fill("Otra12345");
    await create.getByRole("button", { name: "Crear cuenta del equipo" }).click();
    await admin.page.getByRole("alert").filter({ hasText: "Ya existe una cuenta de cliente con este correo" }).waitFor();
    expect(await admin.page.getByRole("button", { name: "Dar el rol Operaciones a María Fernández" }).count()).toBe(1);
    await expectAccessibleAndFitting(admin.page, "equipo (teléfono)");

    await admin.page.goto(`${shop.baseURL()}/admin`);
    await admin.page.getByRole("heading", { name: "Alarmas" }).waitFor();
    await expectAccessibleAndFitting(admin.page, "inicio (teléfono)");
    await admin.page.goto(`${shop.baseURL()}/admin/auditoria?desde=2020-13-01`);
    await admin.page.getByText("Usa una fecha válida (AAAA-MM-DD)").waitFor();
    await expectAccessibleAndFitting(admin.page, "auditoría (teléfono)");
    admin.expectClean();
    await admin.close();
  });

  it("shows the repartidor the stops of today's route from the demo data, and no alarms", async () => {
    const driver = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_REPARTIDOR.email, DEMO_REPARTIDOR.password), PHONE);
    await driver.page.goto(`${shop.baseURL()}/admin`);
    const route = driver.page.locator("section", { has: driver.page.getByRole("heading", { name: "Tu ruta de hoy" }) });
    expect(await route.textContent()).toMatch(/\d+ paradas asignadas/);
    expect(await route.getByRole("link", { name: "Ver mi ruta" }).getAttribute("href")).toBe("/admin/reparto");
    expect(await driver.page.getByRole("heading", { name: "Alarmas" }).count()).toBe(0);
    await expectAccessibleAndFitting(driver.page, "inicio del repartidor (teléfono)");
    driver.expectClean();
    await driver.close();
  });
});
