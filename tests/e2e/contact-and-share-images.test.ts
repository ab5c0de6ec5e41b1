import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { openSignedIn, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP, MOBILE } from "../support/browser";
import { useBrowser, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";

/** 360 px: the narrowest phone the shop promises to work on. */
const PHONE = { ...MOBILE, viewport: { width: 360, height: 780 } };

describe("/contact, the staff inbox and the share pictures", () => {
  const shop = useBrowser();

  async function expectAccessibleAndFitting(page: Page, label: string) {
    expect(await seriousAxeViolations(page, label)).toEqual([]);
    expect(await auditLayout(page), label).toEqual([]);
  }

  async function fillContactForm(page: Page, values: { name: string; email: string; subject: string; message: string }) {
    await page.getByLabel("Nombre", { exact: true }).fill(values.name);
    await page.getByLabel("Correo electrónico", { exact: true }).fill(values.email);
    await page.getByLabel("Asunto", { exact: true }).fill(values.subject);
    await page.getByLabel("Mensaje", { exact: true }).fill(values.message);
  }

  it("a visitor sends a message with and without JavaScript (a refused one keeps what was typed); operaciones reads both and marks one attended", async () => {
    const suffix = randomUUID().slice(0, 8);
    const withoutJs = `Consulta sin JS ${suffix}`;
    const withJs = `Consulta con JS ${suffix}`;

    // Without JavaScript, reached from the forgot-password page's link.
    const plain = await shop.open({ ...PHONE, javaScriptEnabled: false });
    await plain.page.goto(`${shop.baseURL()}/forgot-password`);
    await plain.page.getByRole("link", { name: "Contáctanos" }).click();
    await plain.page.getByRole("heading", { level: 1, name: "Contáctanos" }).waitFor();
    expect(new URL(plain.page.url()).pathname).toBe("/contact");
    expect(await plain.page.getByTestId("contact-whatsapp").getAttribute("href")).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
    await fillContactForm(plain.page, { name: "Rosa Quispe", email: "rosa@", subject: withoutJs, message: "¿Reparten bidones en Surco los sábados?" });
    await plain.page.getByRole("button", { name: "Enviar mensaje" }).click();
    await plain.page.getByText("Ingresa un correo válido").waitFor();
    expect(await plain.page.getByLabel("Asunto", { exact: true }).inputValue()).toBe(withoutJs);
    expect(await plain.page.getByLabel("Mensaje", { exact: true }).inputValue()).toBe("¿Reparten bidones en Surco los sábados?");
    await plain.page.getByLabel("Correo electrónico", { exact: true }).fill("rosa@example.pe");
    await plain.page.getByRole("button", { name: "Enviar mensaje" }).click();
    await plain.page.getByText("¡Gracias, Rosa Quispe! Recibimos tu mensaje").waitFor();
    plain.expectClean();

    // With JavaScript: checked at 360 px and on a desktop (axe needs scripts), then sent.
    const scripted = await shop.open(PHONE);
    await scripted.page.goto(`${shop.baseURL()}/contact`);
    await waitForHydration(scripted.page);
    await expectAccessibleAndFitting(scripted.page, "contacto (360 px)");
    await scripted.page.setViewportSize(DESKTOP.viewport!);
    await expectAccessibleAndFitting(scripted.page, "contacto (escritorio)");
    await fillContactForm(scripted.page, {
      name: "Jorge Salas",
      email: "jorge@example.pe",
      subject: withJs,
      message: "Quisiera una factura a nombre de mi empresa.",
    });
    await scripted.page.getByRole("button", { name: "Enviar mensaje" }).click();
    await scripted.page.getByText("¡Gracias, Jorge Salas! Recibimos tu mensaje").waitFor();
    scripted.expectClean();

    // Operaciones sees both, newest first, and marks one attended.
    const staff = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password), DESKTOP);
    await staff.page.goto(`${shop.baseURL()}/admin`);
    await staff.page.getByRole("link", { name: "Mensajes" }).first().click();
    await staff.page.getByRole("heading", { level: 1, name: "Mensajes" }).waitFor();
    const subjects = await staff.page.getByTestId("contact-message").locator("h2").allTextContents();
    expect(subjects.indexOf(withJs)).toBeGreaterThanOrEqual(0);
    expect(subjects.indexOf(withJs)).toBeLessThan(subjects.indexOf(withoutJs));
    await expectAccessibleAndFitting(staff.page, "mensajes (escritorio)");
    const card = staff.page.getByTestId("contact-message").filter({ hasText: withoutJs });
    expect(await card.textContent()).toContain("rosa@example.pe");
    await card.getByRole("button", { name: `Marcar como atendido: ${withoutJs}` }).click();
    await staff.page.getByText("Mensaje marcado como atendido.").waitFor();
    await card.getByText(/^Atendido por /).waitFor();
    await staff.page.setViewportSize(PHONE.viewport);
    await expectAccessibleAndFitting(staff.page, "mensajes (360 px)");
    staff.expectClean();
  });

  it("home, shop and a product share a 1200×630 PNG as og:image, with its size and type in the page", async () => {
    for (const path of ["/", "/tienda", "/tienda/producto/caja-20l-con-dispensador"]) {
      const html = await (await fetch(`${shop.baseURL()}${path}`)).text();
      const meta = (property: string) => new RegExp(`<meta property="${property}" content="([^"]+)"`).exec(html)?.[1];
      const image = meta("og:image");
      expect(image, path).toMatch(/\/og\/.+\.png/);
      expect([meta("og:image:type"), meta("og:image:width"), meta("og:image:height")], path).toEqual(["image/png", "1200", "630"]);
      const url = new URL(image!.replace(/&amp;/g, "&"));
      const response = await fetch(`${shop.baseURL()}${url.pathname}${url.search}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toBe("image/png");
      const { width, height, format } = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect({ width, height, format }, path).toEqual({ width: 1200, height: 630, format: "png" });
      if (path.startsWith("/tienda/producto/")) expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
  });
});
