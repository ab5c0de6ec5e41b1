import type { Page, Request, Route } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_CUSTOMER, openSignedIn, signInCookies } from "../support/accounts";
import { useBrowser, waitForHydration } from "../support/e2e";

/** /success waits for a payment (spec §4, every 5 s); an order past payment has nothing to wait for. */
describe("the payment status page", () => {
  const shop = useBrowser();
  /** The demo customer's orders (server/db/seed/demo-accounts.ts) by status label: one in every status. */
  const orderIdByStatus = new Map<string, string>();

  beforeAll(async () => {
    const { page, close } = await openSignedIn(shop, await signInCookies(shop.baseURL(), DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
    for (const listPage of [1, 2]) {
      await page.goto(`${shop.baseURL()}/dashboard/pedidos?page=${listPage}`);
      const rows = await page
        .getByTestId("order-row")
        .evaluateAll((found) => found.map((row) => ({ href: row.querySelector("a")!.getAttribute("href")!, text: row.textContent! })));
      for (const row of rows) {
        const status = ["Pago iniciado", "Pendiente", "Procesando", "En camino", "Entregado"].find((label) => row.text.includes(label));
        if (status && !orderIdByStatus.has(status)) orderIdByStatus.set(status, row.href.split("/").pop()!);
      }
    }
    await close();
  });

  const isRefresh = (url: string) => new URL(url).pathname === "/success.data";

  /**
   * Opens /success for the order under a clock that stands still between the test's steps (only the
   * test moves it), counting the page's requests for fresh data.
   */
  async function open(orderId: string) {
    const tracked = await shop.open();
    const refreshes: string[] = [];
    tracked.page.on("request", (request) => {
      if (isRefresh(request.url())) refreshes.push(request.url());
    });
    await tracked.page.clock.install();
    await tracked.page.clock.pauseAt(Date.now() + 1_000);
    await tracked.page.goto(`${shop.baseURL()}/success?orderId=${orderId}`);
    await waitForHydration(tracked.page);
    return { ...tracked, refreshes, heading: () => tracked.page.getByRole("heading", { level: 1 }).textContent() };
  }

  /** Lets a held request through and waits until the page has read all of its answer (or dropped the rest). */
  async function answer(page: Page, route: Route) {
    const request = route.request();
    const read = new Promise<void>((resolve) => {
      const done = (ended: Request) => {
        if (ended !== request) return;
        page.off("requestfinished", done);
        page.off("requestfailed", done);
        resolve();
      };
      page.on("requestfinished", done);
      page.on("requestfailed", done);
    });
    await route.continue();
    await read;
  }

  it("shows an order that is processing, on its way or delivered as paid, and stops asking", async () => {
    for (const status of ["Procesando", "En camino", "Entregado"]) {
      const orderId = orderIdByStatus.get(status);
      expect(orderId, status).toBeDefined();
      const { page, refreshes, heading, expectClean, close } = await open(orderId!);
      expect(await heading(), status).toBe("Pago confirmado");
      await page.clock.runFor(30_000);
      expect(refreshes, status).toEqual([]);
      expectClean();
      await close();
    }
  });

  it("keeps asking every 5 seconds while the payment is still awaited", async () => {
    const orderId = orderIdByStatus.get("Pago iniciado") ?? orderIdByStatus.get("Pendiente");
    expect(orderId).toBeDefined();
    const { page, heading, expectClean, close } = await open(orderId!);
    expect(await heading()).toBe("Estamos procesando tu pago, espera un momento…");
    // Each request for fresh data is held until the test lets it through and the page has its answer,
    // so the page starts its next 5 s only from then on: the clock, moved only by the test, measures
    // the wait from there (the page re-arms its timer a moment later, which only makes it longer).
    const held: Route[] = [];
    await page.route(
      (url) => isRefresh(url.href),
      (route) => void held.push(route),
    );
    for (let tick = 1; tick <= 3; tick += 1) {
      let waited = 0;
      while (held.length < tick && waited < 10_000) {
        await page.clock.runFor(500);
        waited += 500;
      }
      expect(held, `request ${tick}`).toHaveLength(tick);
      expect(waited, `request ${tick}`).toBeGreaterThanOrEqual(5_000);
      await answer(page, held[tick - 1]!);
    }
    await page.unrouteAll({ behavior: "wait" });
    expectClean();
    await close();
  });
});
