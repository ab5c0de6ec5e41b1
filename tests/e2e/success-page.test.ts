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

  /** Opens /success for the order under a controlled clock, counting the page's requests for fresh data. */
  async function open(orderId: string) {
    const tracked = await shop.open();
    const refreshes: string[] = [];
    tracked.page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/success.data") refreshes.push(request.url());
    });
    await tracked.page.clock.install();
    await tracked.page.goto(`${shop.baseURL()}/success?orderId=${orderId}`);
    await waitForHydration(tracked.page);
    return { ...tracked, refreshes, heading: () => tracked.page.getByRole("heading", { level: 1 }).textContent() };
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
    for (let tick = 0; tick < 3; tick += 1) {
      await Promise.all([page.waitForRequest((request) => new URL(request.url()).pathname === "/success.data"), page.clock.runFor(5_000)]);
    }
    expectClean();
    await close();
  });
});
