/**
 * Issue 12 in the browser: consent given at checkout, honoured by the abandoned-cart reminder (run
 * from here through the domain functions, an hour later, as `npm run jobs:run` would), and revoked
 * from the e-mail's link without signing in — by the page's button and by RFC 8058's one-click POST.
 * Issue 24 (decision 0072): a ticked box only asks; the consent counts once the page of the
 * e-mailed confirmation link is confirmed (double opt-in), and nothing else undoes an opt-out.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { sendAbandonedCartReminders } from "@server/cart/index.server";
import { currentPromotionalConsent } from "@server/consent/index.server";
import { openDatabase } from "@server/db/client";
import { deliverPendingEmails, folderTransport } from "@server/notifications/deliver";
import { seriousAxeViolations } from "../support/axe";
import { waitForEmail } from "../support/e2e";
import { DESKTOP, launchBrowser, openPage } from "../support/browser";
import { boxLine, fillCheckout, openCheckoutWithCart } from "../support/checkout-page";
import { registerCustomer } from "../support/accounts";
import { auditLayout } from "../support/layout-audit";
import { createShopDatabase, startShopServer, type ShopServer } from "../support/shop-server";

// The reminders are made here, so their links are signed with the server's key. Given back after
// the file: the next file of this worker process must not sign with it (isolate: false).
const sessionSecret = randomBytes(32).toString("hex");
vi.stubEnv("SESSION_SECRET", sessionSecret);

const PHONE_360 = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };

describe("promotional e-mail consent", () => {
  let browser: Browser;
  let server: ShopServer;
  let databaseEnv: Record<string, string>;
  let cleanup: () => Promise<void>;
  let mailDir: string;
  const run = randomBytes(4).toString("hex");
  const [consenting, silent] = [`si-${run}@prueba.pe`, `no-${run}@prueba.pe`];

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "shop-consent-"));
    mailDir = path.join(dir, "mail");
    // A copy of the run's seeded template: both runs of the server and the reminder job use it.
    const database = await createShopDatabase({ templates: inject("databaseTemplates") });
    databaseEnv = database.env;
    cleanup = async () => {
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    };
    browser = await launchBrowser();
    server = await startShopServer({ env: { ...databaseEnv, SESSION_SECRET: sessionSecret } });
  }, 120_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await browser?.close();
    await server?.stop();
    await cleanup?.();
  });

  /** The link of the e-mail, on the running server (after a restart: same database and key, a new port). */
  const onServer = (link: string) => {
    const url = new URL(link);
    return `${server.baseURL}${url.pathname}${url.search}`;
  };

  /** The double opt-in's link e-mailed to `email` by the running server (the newest one). */
  const consentConfirmationLink = async (email: string) => {
    const sent = await waitForEmail(
      server.outboxDir,
      (candidate) => candidate.to === email && candidate.kind === "promotional_consent_confirmation" && !seenLinks.has(candidate.text),
      30_000,
    );
    seenLinks.add(sent.text);
    return onServer(/(https?:\/\/\S+preferencias-de-correo\/confirmar\S+)/.exec(sent.text)![1]!);
  };
  const seenLinks = new Set<string>();

  const saveCart = (email: string) =>
    fetch(`${server.baseURL}/api/carrito/abandonado`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.baseURL },
      body: JSON.stringify({ email, items: [{ productId: boxLine.productId, variantId: null, quantity: 2 }] }),
    });

  it("stores the consent ticked at checkout, and the reminder goes only to the address that gave it", { timeout: 120_000 }, async () => {
    const { page, errors, close } = await openPage(browser, DESKTOP);
    await openCheckoutWithCart(page, server.baseURL);
    await fillCheckout(page);
    await page.getByLabel("Correo electrónico").fill(consenting);
    const box = page.getByRole("checkbox", { name: /^Quiero recibir promociones y novedades de .+ por correo$/ });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByRole("button", { name: "Finalizar compra" }).click();
    await page.getByRole("button", { name: "Simular pago exitoso" }).waitFor();
    expect(errors).toEqual([]);
    await close();

    // The ticked box only asked: the owner confirms on the page of the e-mailed link (its GET only shows).
    const link = await consentConfirmationLink(consenting);
    const confirm = await openPage(browser, PHONE_360);
    await confirm.page.goto(link);
    await confirm.page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
    expect(await confirm.page.getByText(consenting).isVisible()).toBe(true);
    expect(await auditLayout(confirm.page)).toEqual([]);
    await confirm.page.getByRole("button", { name: "Sí, quiero recibir promociones" }).click();
    await confirm.page
      .getByRole("status")
      .getByText(/^Listo: te enviaremos promociones/)
      .waitFor();
    expect(confirm.errors).toEqual([]);
    await confirm.close();

    // Both leave a cart later; one never consented.
    expect((await saveCart(consenting)).status).toBe(200);
    expect((await saveCart(silent)).status).toBe(200);

    // An hour later the reminder job runs (the server is stopped: an embedded database has one owner).
    await server.stop();
    const handle = await openDatabase(
      databaseEnv.DATABASE_URL ? { kind: "postgres", url: databaseEnv.DATABASE_URL } : { kind: "pglite", dataDir: databaseEnv.PGLITE_DATA_DIR! },
    );
    try {
      expect(await currentPromotionalConsent(handle.db, consenting)).toMatchObject({ granted: true, source: "checkout" });
      expect(await currentPromotionalConsent(handle.db, silent)).toMatchObject({ granted: false, pending: false });
      const anHourLater = new Date(Date.now() + 61 * 60_000);
      expect(await sendAbandonedCartReminders(handle.db, anHourLater, server.baseURL)).toBe(1);
      await deliverPendingEmails(handle.db, folderTransport(mailDir), anHourLater, { siteUrl: server.baseURL });
    } finally {
      await handle.close();
    }
    const reminders = await emailsOfKind(mailDir, "abandoned-cart");
    expect(reminders.map((email) => email.to)).toEqual([consenting]);
    expect(reminders[0]!.subject).toBe("PUBLICIDAD: Tu carrito te está esperando");
    const eml = (await readFile(reminders[0]!.eml, "utf8")).replace(/\r?\n[ \t]+/g, " ");
    expect(eml).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    unsubscribeLink = /Dejar de recibir promociones \(un clic, sin iniciar sesión\): (\S+)/.exec(reminders[0]!.text)![1]!;
    expect(eml).toContain(`List-Unsubscribe: <${unsubscribeLink}>`);
  });

  let unsubscribeLink = "";

  it("revokes from the e-mail's link without signing in: a confirmation page, its button, and RFC 8058's one-click POST", { timeout: 120_000 }, async () => {
    expect(unsubscribeLink).not.toBe("");
    server = await startShopServer({ env: { ...databaseEnv, SESSION_SECRET: sessionSecret } });

    // The link's GET only asks; the button changes. Checked at 360 px and on a desktop.
    const narrow = await openPage(browser, PHONE_360);
    await narrow.page.goto(onServer(unsubscribeLink));
    await narrow.page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
    expect(await seriousAxeViolations(narrow.page, "preferencias, 360 px")).toEqual([]);
    expect(await auditLayout(narrow.page)).toEqual([]);
    expect(narrow.errors).toEqual([]);
    await narrow.close();

    const desktop = await openPage(browser, DESKTOP);
    await desktop.page.goto(onServer(unsubscribeLink));
    await desktop.page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
    expect(await desktop.page.getByText(consenting).isVisible()).toBe(true);
    expect(await desktop.page.getByText(/^Recibes promociones y novedades/).isVisible()).toBe(true);
    expect(await seriousAxeViolations(desktop.page, "preferencias, escritorio")).toEqual([]);
    await desktop.page.getByRole("button", { name: "Dejar de recibir promociones" }).click();
    await desktop.page.getByRole("status").getByText("Listo: ya no recibirás promociones por correo.").waitFor();
    expect(desktop.errors).toEqual([]);
    await desktop.close();

    // Without JavaScript: asking again from the same page (a plain form post) only asks; the opt-out
    // holds until the owner confirms from the new e-mail's link.
    const phone = await openPage(browser, { ...PHONE_360, javaScriptEnabled: false });
    await phone.page.goto(onServer(unsubscribeLink));
    expect(await phone.page.getByText(/^No recibes promociones por correo/).isVisible()).toBe(true);
    await phone.page.getByRole("button", { name: /^Quiero recibir promociones/ }).click();
    await phone.page
      .getByRole("status")
      .getByText(/^Te enviamos un correo para confirmarlo/)
      .waitFor();
    expect(await phone.page.getByText(/^No recibes promociones por correo/).isVisible()).toBe(true);
    // The confirmation works without JavaScript too: a plain form post from a page whose link
    // must not leak (its Referrer-Policy keeps the POST's Origin, which React Router checks).
    await phone.page.goto(await consentConfirmationLink(consenting));
    await phone.page.getByRole("button", { name: "Sí, quiero recibir promociones" }).click();
    await phone.page
      .getByRole("status")
      .getByText(/^Listo: te enviaremos promociones/)
      .waitFor();
    await phone.page.goto(onServer(unsubscribeLink));
    expect(await phone.page.getByRole("button", { name: "Dejar de recibir promociones" }).isVisible()).toBe(true);

    // The mail client's one-click POST: no page, no login, effective at once.
    const oneClick = await fetch(onServer(unsubscribeLink), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    await phone.page.goto(onServer(unsubscribeLink));
    expect(await phone.page.getByText(/^No recibes promociones por correo/).isVisible()).toBe(true);
    expect(phone.errors).toEqual([]);
    await phone.close();

    // A link the shop did not sign changes nothing.
    const forged = new URL(onServer(unsubscribeLink));
    forged.searchParams.set("token", `${Buffer.from(consenting).toString("base64url")}.${"A".repeat(43)}`);
    const refused = await fetch(forged, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(refused.status).toBe(404);
  });

  it("lets a signed-in customer change their own address's choice from the profile", { timeout: 60_000 }, async () => {
    const account = await registerCustomer(server.baseURL);
    const { page, errors, close } = await openPage(browser, DESKTOP);
    await page.context().addCookies(account.cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    await page.goto(`${server.baseURL}/dashboard/perfil`);
    await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
    await page.getByRole("link", { name: "Preferencias de correo" }).click();
    await page.getByRole("heading", { level: 1, name: "Preferencias de correo" }).waitFor();
    expect(await page.locator("#contenido strong").textContent()).toBe(account.email);
    expect(await page.getByText(/^No recibes promociones por correo/).isVisible()).toBe(true);
    await page.getByRole("button", { name: /^Quiero recibir promociones/ }).click();
    await page
      .getByRole("status")
      .getByText(/^Te enviamos un correo para confirmarlo/)
      .waitFor();
    expect(await consentConfirmationLink(account.email)).toContain("/preferencias-de-correo/confirmar?token=");
    expect(errors).toEqual([]);
    await close();
  });
});

async function emailsOfKind(dir: string, kind: string) {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".json"));
  const emails = [];
  for (const name of names) {
    const email = JSON.parse(await readFile(path.join(dir, name), "utf8")) as { to: string; subject: string; text: string; kind: string };
    if (email.kind === kind) emails.push({ ...email, eml: path.join(dir, name.replace(/\.json$/, ".eml")) });
  }
  return emails;
}
