import { readdir, readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { cookieHeader, openSignedIn, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP } from "../support/browser";
import { useBrowser, waitForEmail, waitForHydration } from "../support/e2e";
import { auditLayout } from "../support/layout-audit";
import { newSubscriber } from "../support/subscription-page";

const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true };

/** The "we changed your subscription" e-mails that reached a customer so far (the server's local outbox). */
async function changeEmailsTo(outboxDir: string, to: string) {
  const emails = [];
  for (const name of (await readdir(outboxDir)).filter((file) => file.endsWith(".json"))) {
    const email = JSON.parse(await readFile(`${outboxDir}/${name}`, "utf8")) as { to: string; kind: string; text: string };
    if (email.to === to && email.kind === "subscription_changed") emails.push(email);
  }
  return emails;
}

async function expectAccessible(page: Page, label: string) {
  expect(await seriousAxeViolations(page, label)).toEqual([]);
  expect(await auditLayout(page)).toEqual([]);
}

describe("subscriptions console", () => {
  const shop = useBrowser();

  it("a skip done by staff shows in the customer's account and history, with exactly one e-mail; the console passes axe at desktop and 360 px", async () => {
    const subscriber = await newSubscriber(shop);
    const staffCookies = await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
    const { page, expectClean, close } = await openSignedIn(shop, staffCookies, DESKTOP);
    await page.goto(`${shop.baseURL()}/admin/suscripciones`);
    await waitForHydration(page);
    await page.getByLabel("Buscar", { exact: true }).fill(subscriber.email);
    await page.getByRole("button", { name: "Buscar", exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === subscriber.email);
    const results = page.getByTestId("staff-subscription");
    await expect.poll(() => results.count()).toBe(1);
    await expectAccessible(page, "desktop /admin/suscripciones");

    await results.first().getByRole("link").click();
    await page.waitForURL((url) => url.pathname === `/admin/suscripciones/${subscriber.subscriptionId}`);
    await waitForHydration(page);
    await expectAccessible(page, "desktop /admin/suscripciones/:id");
    await page.locator("summary", { hasText: "Saltar la próxima entrega" }).click();
    const skipForm = page.locator("form", { has: page.getByRole("button", { name: "Saltar esta entrega" }) });
    const requestKey = (await skipForm.locator('input[name="requestKey"]').inputValue())!;
    await page.getByRole("button", { name: "Saltar esta entrega" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /saltada.*nuestro equipo/ })
      .waitFor();

    // A second submit of the same form (a double click that got through) changes nothing more.
    const repeat = await fetch(`${shop.baseURL()}/admin/suscripciones/${subscriber.subscriptionId}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: shop.baseURL(), "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(staffCookies) },
      body: new URLSearchParams({ intent: "skip", requestKey }),
    });
    expect(repeat.status).toBe(302);

    for (const path of ["/admin/suscripciones/pagos-fallidos", "/admin/suscripciones/pronostico"]) {
      await page.goto(`${shop.baseURL()}${path}`);
      await waitForHydration(page);
      await expectAccessible(page, `desktop ${path}`);
    }
    expectClean();
    await close();

    const phone = await openSignedIn(shop, staffCookies, PHONE);
    for (const path of [
      `/admin/suscripciones?q=${encodeURIComponent(subscriber.email)}`,
      `/admin/suscripciones/${subscriber.subscriptionId}`,
      "/admin/suscripciones/pagos-fallidos",
      "/admin/suscripciones/pronostico",
    ]) {
      await phone.page.goto(`${shop.baseURL()}${path}`);
      await waitForHydration(phone.page);
      await expectAccessible(phone.page, `360 px ${path}`);
    }
    phone.expectClean();
    await phone.close();

    const customer = await openSignedIn(shop, subscriber.cookies);
    await customer.page.goto(`${shop.baseURL()}${subscriber.detailPath}`);
    await waitForHydration(customer.page);
    const history = customer.page.locator("section", { has: customer.page.getByRole("heading", { name: "Historial" }) });
    await expect.poll(() => history.getByText(/^Entrega del .* saltada: .*nuestro equipo/).count()).toBe(1);
    customer.expectClean();
    await customer.close();

    await waitForEmail(shop.outboxDir(), (email) => email.to === subscriber.email && email.kind === "subscription_changed");
    // A later e-mail to the same customer as a marker: the outbox sends oldest first, so once it is out any second copy would be too.
    const marker = await fetch(`${shop.baseURL()}/admin/suscripciones/${subscriber.subscriptionId}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: shop.baseURL(), "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(staffCookies) },
      body: new URLSearchParams({ intent: "frequency", frequency: "anual", requestKey: crypto.randomUUID() }),
    });
    expect(marker.status).toBe(302);
    await waitForEmail(shop.outboxDir(), (email) => email.to === subscriber.email && email.text.includes("Plan cambiado a anual"));
    const skips = (await changeEmailsTo(shop.outboxDir(), subscriber.email)).filter((email) => email.text.includes("saltada"));
    expect(skips).toHaveLength(1);
    expect(skips[0]!.text).toContain("nuestro equipo");
  });

  // Issue 24, defect 6 (decision 0071): "Cobrar ahora" read its request key unchecked, and a NUL byte in it answered 500.
  it("answers a staff form holding a NUL byte or another control character with a Spanish 400, changing nothing", async () => {
    const subscriber = await newSubscriber(shop);
    const staffCookies = await signInCookies(shop.baseURL(), DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
    const post = (fields: Record<string, string>) =>
      fetch(`${shop.baseURL()}/admin/suscripciones/${subscriber.subscriptionId}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: shop.baseURL(), "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(staffCookies) },
        body: new URLSearchParams(fields),
      });
    const hostile: Record<string, string>[] = [
      { intent: "charge-now", requestKey: "a\u0000b" },
      { intent: "charge-now", requestKey: "a\u0007b" },
      { intent: "skip", requestKey: crypto.randomUUID(), note: "\u0000" },
    ];
    for (const fields of hostile) {
      const answer = await post(fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(await answer.text()).toContain("caracteres no permitidos");
    }
    const page = await fetch(`${shop.baseURL()}/admin/suscripciones/${subscriber.subscriptionId}`, { headers: { cookie: cookieHeader(staffCookies) } });
    expect(await page.text()).not.toContain("saltada");
  });
});
