/**
 * Issue 24, defect 10 in the browser, at phone width: what staff type right after a click is what
 * gets saved — checked in the database, not only by the page's "Cambios guardados.". The product
 * page reached from the product list (whose "Nuevo producto" form has the same "Nombre" field),
 * the refund page reached from the order, and a note being typed on the order while another form
 * of the page saves (the note form was keyed by a per-load id: every reload of the page emptied it). A server and
 * database of its own: the last test stops it and reads the database (an embedded one has one owner).
 */
import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_ADMIN } from "@server/db/seed/demo-credentials";
import { openDatabase } from "@server/db/client";
import { orderNotes, products, refunds } from "@server/db/schema";
import { signInCookies, type SessionCookie } from "../support/accounts";
import { launchBrowser, MOBILE, openPage } from "../support/browser";
import { waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";
import { createShopDatabase, startShopServer, type ShopServer } from "../support/shop-server";
import { typeRightAfterNavigation } from "../support/typing-after-navigation";

describe("what staff type right after a click is what is saved", () => {
  let browser: Browser;
  let server: ShopServer;
  let databaseEnv: Record<string, string>;
  let dropDatabase: () => Promise<void>;
  let cookies: SessionCookie[];
  const run = randomBytes(3).toString("hex");
  const saved: { productId?: number; productTitle?: string; orderId?: string; refundReason?: string; note?: string } = {};

  beforeAll(async () => {
    const database = await createShopDatabase({ templates: inject("databaseTemplates") });
    databaseEnv = database.env;
    dropDatabase = database.drop;
    browser = await launchBrowser();
    server = await startShopServer({ env: databaseEnv });
    cookies = await signInCookies(server.baseURL, DEMO_ADMIN.email, DEMO_ADMIN.password);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dropDatabase?.();
  });

  async function openAsAdmin(path: string): Promise<{ page: Page; errors: string[] }> {
    const tracked = await openPage(browser, MOBILE);
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    await tracked.page.goto(`${server.baseURL}${path}`);
    await waitForHydration(tracked.page);
    return tracked;
  }

  it("keeps the product name typed as the product opens from the list", { timeout: 60_000 }, async () => {
    const { page, errors } = await openAsAdmin("/admin/productos");
    const link = page.getByRole("link", { name: /^Editar / }).first();
    saved.productId = Number(/\/admin\/productos\/(\d+)$/.exec((await link.getAttribute("href"))!)![1]);
    saved.productTitle = `Agua alcalina tecleada ${run}`;
    const name = page.getByLabel("Nombre", { exact: true });
    await typeRightAfterNavigation(page, { click: link, to: /^\/admin\/productos\/\d+$/, fields: [{ field: name, value: saved.productTitle }] });
    expect(await name.inputValue()).toBe(saved.productTitle);
    expect(await auditLayout(page)).toEqual([]);
    await page.getByRole("button", { name: "Guardar producto" }).click();
    await page.getByRole("status").filter({ hasText: "Cambios guardados." }).waitFor();
    expect(errors).toEqual([]);
  });

  it("keeps the refund typed as the refund page opens from the order", { timeout: 60_000 }, async () => {
    const { page, errors } = await openAsAdmin("/admin/pedidos");
    const orderPaths = await page.locator('a[href^="/admin/pedidos/"]').evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    for (const path of orderPaths.filter((href) => /^\/admin\/pedidos\/[0-9a-f-]{36}$/.test(href))) {
      await page.goto(`${server.baseURL}${path}`);
      if ((await page.locator(`a[href="${path}/reembolsar"]`).count()) > 0) {
        saved.orderId = path.split("/").pop();
        break;
      }
    }
    expect(saved.orderId, "a demo order that can be refunded").toBeDefined();
    await waitForHydration(page);
    saved.refundReason = `Devolución tecleada ${run}`;
    await typeRightAfterNavigation(page, {
      click: page.getByRole("link", { name: "Reembolsar" }),
      to: /\/reembolsar$/,
      fields: [
        { field: page.getByLabel("Monto a devolver (S/), si es una parte"), value: "1.00" },
        { field: page.getByLabel("Motivo"), value: saved.refundReason },
      ],
    });
    await page.getByRole("button", { name: "Reembolsar" }).click();
    await page.waitForURL((url) => url.pathname === `/admin/pedidos/${saved.orderId}`);
    expect(errors).toEqual([]);
  });

  it("keeps a note being typed while another form of the page saves", { timeout: 60_000 }, async () => {
    const { page, errors } = await openAsAdmin(`/admin/pedidos/${saved.orderId}`);
    saved.note = `Nota tecleada ${run}`;
    const note = page.getByLabel("Nueva nota");
    await note.fill(saved.note);
    // Another form's save reloads the page's data (each load gives the forms new request keys); the
    // note form used to be keyed by its per-load key, so the reload emptied it.
    const resend = page.getByRole("button", { name: "Reenviar confirmación" });
    const resendKey = page.locator('form:has(button:text("Reenviar confirmación")) input[name="requestKey"]');
    const keyBefore = await resendKey.inputValue();
    await resend.click();
    await page
      .getByRole("status")
      .filter({ hasText: /confirmación/i })
      .waitFor();
    await expect.poll(() => resendKey.inputValue()).not.toBe(keyBefore);
    expect(await note.inputValue()).toBe(saved.note);
    await page.getByRole("button", { name: "Agregar nota" }).click();
    await page.getByText(saved.note, { exact: true }).waitFor();
    expect(await note.inputValue()).toBe("");
    expect(errors).toEqual([]);
  });

  it("finds in the database exactly what was typed", { timeout: 60_000 }, async () => {
    await server.stop();
    const handle = await openDatabase(
      databaseEnv.DATABASE_URL ? { kind: "postgres", url: databaseEnv.DATABASE_URL } : { kind: "pglite", dataDir: databaseEnv.PGLITE_DATA_DIR! },
    );
    try {
      const [product] = await handle.db.select({ title: products.title }).from(products).where(eq(products.id, saved.productId!));
      expect(product?.title).toBe(saved.productTitle);
      const refunded = await handle.db
        .select({ amountCents: refunds.amountCents, note: refunds.note })
        .from(refunds)
        .where(eq(refunds.orderId, saved.orderId!));
      expect(refunded).toEqual([{ amountCents: 100, note: saved.refundReason }]);
      const notes = await handle.db.select({ body: orderNotes.body }).from(orderNotes).where(eq(orderNotes.orderId, saved.orderId!));
      expect(notes.map((row) => row.body)).toEqual([saved.note]);
    } finally {
      await handle.close();
    }
  });
});
