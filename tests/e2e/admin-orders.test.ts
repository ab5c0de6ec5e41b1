import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { cookieHeader, openSignedIn, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP } from "../support/browser";
import { useBrowser, waitForEmail, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";
import { bookableDates } from "../support/lima-clock";
import { checkoutBody, postCheckout, postSandboxAction } from "../support/shop-process";

const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };

/** A guest order paid in the sandbox: its confirmation e-mail is queued as the customer's would be. */
async function paidOrder(baseURL: string, email: string): Promise<string> {
  const checkout = await postCheckout(baseURL, checkoutBody({ correo: email }));
  expect(checkout.status).toBe(302);
  const paymentPath = checkout.headers.get("location")!;
  const paid = await postSandboxAction(baseURL, paymentPath, "approve_card");
  expect(paid.status).toBe(302);
  return email;
}

async function confirmationsTo(outboxDir: string, email: string): Promise<number> {
  let found = 0;
  for (const name of (await readdir(outboxDir).catch(() => [] as string[])).filter((file) => file.endsWith(".json"))) {
    const message = JSON.parse(await readFile(`${outboxDir}/${name}`, "utf8")) as { to: string; kind: string };
    if (message.to === email && message.kind === "order-confirmation") found += 1;
  }
  return found;
}

async function waitForConfirmations(outboxDir: string, email: string, count: number) {
  await waitForEmail(outboxDir, (message) => message.to === email && message.kind === "order-confirmation");
  const deadline = Date.now() + 15_000;
  while ((await confirmationsTo(outboxDir, email)) < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await confirmationsTo(outboxDir, email)).toBe(count);
}

describe("operaciones works an order from /admin/pedidos (issue 10)", () => {
  const shop = useBrowser();

  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone (360 px)", PHONE],
  ] as const) {
    it(`${label}: searches by e-mail, opens the order, adds a note and resends the confirmation once`, async () => {
      const tag = randomUUID().slice(0, 8);
      const email = await paidOrder(shop.baseURL(), `pedidos-${tag}@e2e.example.pe`);
      // A second order, resent after the first: the outbox sends oldest first, so once its e-mail is
      // out, any second copy of the first order's would be out too.
      const marker = await paidOrder(shop.baseURL(), `marcador-${tag}@e2e.example.pe`);
      await waitForConfirmations(shop.outboxDir(), email, 1);

      const cookies = await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
      const { page, expectClean, close } = await openSignedIn(shop, cookies, viewport);
      await page.goto(`${shop.baseURL()}/admin/pedidos`);
      await waitForHydration(page);
      await page.getByLabel("Buscar", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Buscar", exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get("q") === email);
      const results = page.getByTestId(viewport === DESKTOP ? "staff-order-row" : "staff-order-card");
      await expect.poll(() => results.count()).toBe(1);
      await expect.poll(() => results.first().textContent()).toContain(email);
      expect(await seriousAxeViolations(page, `${label} /admin/pedidos`)).toEqual([]);
      expect(await auditLayout(page)).toEqual([]);

      await results.first().getByRole("link").click();
      await page.getByRole("heading", { level: 1, name: /^Pedido VA-\d{6}$/ }).waitFor();
      expect(await page.getByTestId("staff-order-customer").textContent()).toContain(email);
      expect(await page.getByTestId("staff-order-timeline").textContent()).toContain("Pagado");
      expect(await page.getByRole("link", { name: "Cancelar pedido" }).getAttribute("href")).toMatch(/^\/admin\/pedidos\/[0-9a-f-]{36}\/cancelar$/);
      expect(await page.getByRole("link", { name: "Reembolsar" }).getAttribute("href")).toMatch(/\/reembolsar$/);

      await page.getByLabel("Nueva nota").fill("Cliente pide llamar antes de llegar.");
      await page.getByRole("button", { name: "Agregar nota" }).click();
      await page.getByText("Nota agregada.").waitFor();
      const notes = page.getByTestId("staff-order-notes");
      await expect.poll(() => notes.textContent()).toContain("Cliente pide llamar antes de llegar.");
      expect(await notes.textContent()).toContain(DEMO_OPERACIONES.email);
      expect(await page.getByLabel("Nueva nota").inputValue()).toBe("");

      const resendKey = page
        .locator("form")
        .filter({ has: page.getByRole("button", { name: "Reenviar confirmación" }) })
        .locator('input[name="requestKey"]');
      const firstKey = await resendKey.inputValue();
      await page.getByRole("button", { name: "Reenviar confirmación" }).dblclick();
      await page.getByText(`Reenviamos la confirmación a ${email}.`).waitFor();
      // Another try within the minute is refused, with the reason: tried once the page holds a new
      // key (the double click's second post may still be under way, and a click with the old key
      // is the same resend again), and before the page's audits, which can take most of a minute on
      // a loaded machine.
      await expect.poll(() => resendKey.inputValue()).not.toBe(firstKey);
      await page.getByRole("button", { name: "Reenviar confirmación" }).click();
      await page.getByText("La confirmación ya se reenvió hace menos de un minuto.").waitFor();
      expect(await seriousAxeViolations(page, `${label} order detail`)).toEqual([]);
      expect(await auditLayout(page)).toEqual([]);

      // "Reprogramar" a delivery from the order: a past date is refused with the reason and the date
      // kept; the next bookable Wednesday moves it, and the customer is e-mailed the new date.
      const reschedule = page.getByRole("form", { name: /^Reprogramar ENV-/ });
      await reschedule.getByLabel("Nueva fecha").fill("2020-01-08");
      await reschedule.getByRole("button", { name: "Reprogramar" }).click();
      await page.getByRole("alert").filter({ hasText: "anticipación" }).waitFor();
      expect(
        await page
          .getByRole("form", { name: /^Reprogramar ENV-/ })
          .getByLabel("Nueva fecha")
          .inputValue(),
      ).toBe("2020-01-08");
      const newDate = bookableDates(3)[1]!;
      await page
        .getByRole("form", { name: /^Reprogramar ENV-/ })
        .getByLabel("Nueva fecha")
        .fill(newDate);
      await page
        .getByRole("form", { name: /^Reprogramar ENV-/ })
        .getByLabel("Horario")
        .selectOption("tarde");
      await page
        .getByRole("form", { name: /^Reprogramar ENV-/ })
        .getByRole("button", { name: "Reprogramar" })
        .click();
      await page.getByRole("status").filter({ hasText: "Envío reprogramado" }).waitFor();
      await waitForEmail(shop.outboxDir(), (message) => message.to === email && message.kind === "delivery-rescheduled");

      // The marker order's resend, posted after ours; when it is out, ours went out exactly once.
      const markerList = await fetch(`${shop.baseURL()}/admin/pedidos?q=${encodeURIComponent(marker)}`, { headers: { cookie: cookieHeader(cookies) } }).then(
        (response) => response.text(),
      );
      const markerId = /href="\/admin\/pedidos\/([0-9a-f-]{36})"/.exec(markerList)![1];
      const resent = await fetch(`${shop.baseURL()}/admin/pedidos/${markerId}`, {
        method: "POST",
        headers: { cookie: cookieHeader(cookies), origin: shop.baseURL(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "resend", requestKey: randomUUID() }).toString(),
      });
      expect(resent.status).toBe(200);
      await waitForConfirmations(shop.outboxDir(), marker, 2);
      expect(await confirmationsTo(shop.outboxDir(), email)).toBe(2);
      expectClean();
      await close();
    });
  }

  it("answers an unknown or malformed order id with the Spanish 404", async () => {
    const cookies = cookieHeader(await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password));
    for (const id of [randomUUID(), "no-es-un-pedido", "123"]) {
      const response = await fetch(`${shop.baseURL()}/admin/pedidos/${id}`, { headers: { cookie: cookies } });
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("Página no encontrada");
    }
  });

  it("exports the filtered list as a UTF-8 CSV file named with the date", async () => {
    const cookies = cookieHeader(await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password));
    const response = await fetch(`${shop.baseURL()}/admin/pedidos/exportar?q=${encodeURIComponent("cliente@demo.pe")}&estado=delivered`, {
      headers: { cookie: cookies },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="pedidos-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.startsWith("\uFEFFPedido,")).toBe(true);
    const rows = text.split("\r\n").slice(1).filter(Boolean);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.includes(",Entregado,") && row.includes("cliente@demo.pe"))).toBe(true);
  });
});
