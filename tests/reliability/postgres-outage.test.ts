import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@server/db/client";
import { expectShopInvariants } from "../support/invariants";
import { checkoutBody, postCheckout, postSandboxAction, startShopProcess, type ShopDatabase, type ShopProcess } from "../support/shop-process";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../support/throwaway-postgres";

/** Keeps a few customers browsing and buying until told to stop; counts what they were answered. */
function backgroundLoad(baseURL: string) {
  const statuses = new Map<number | string, number>();
  let running = true;
  const count = (key: number | string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  const customer = async (index: number) => {
    while (running) {
      try {
        count((await fetch(`${baseURL}/tienda`)).status);
        const checkout = await postCheckout(baseURL, checkoutBody({ correo: `carga${index}@rel.example.pe` }));
        count(checkout.status);
        if (checkout.status === 302) count((await postSandboxAction(baseURL, checkout.headers.get("location")!, "approve_card")).status);
      } catch {
        // A refused connection would mean the shop itself went down.
        count("connection-error");
      }
    }
  };
  const customers = Promise.all([0, 1, 2, 3].map(customer));
  return {
    statuses,
    async stop() {
      running = false;
      await customers;
    },
  };
}

/**
 * PostgreSQL stops while customers are using the shop, then comes back. Meanwhile the shop stays
 * up and answers a Spanish 503 page; afterwards it serves and sells again without a restart.
 */
describe("PostgreSQL stopped and started under load", () => {
  let postgres: ThrowawayPostgres;
  let server: ShopProcess | undefined;

  beforeAll(async () => {
    postgres = await startThrowawayPostgres();
  });
  afterAll(async () => {
    await server?.kill();
    await postgres?.destroy();
  });

  it("answers 503 in Spanish while the database is down and recovers without a restart", async () => {
    const database: ShopDatabase = {
      kind: "postgres",
      env: { DATABASE_URL: postgres.url },
      open: () => openDatabase({ kind: "postgres", url: postgres.url }),
      drop: async () => {},
    };
    // The shop's first start creates, migrates and seeds the database; jobs run every second, as in production.
    server = await startShopProcess({ database, env: { SEED_DEMO_DATA: "true", JOBS_INTERVAL_SECONDS: "1", STOREFRONT_CACHE_SECONDS: "0" } });
    const shop = server;
    expect((await fetch(`${shop.baseURL}/tienda`)).status).toBe(200);

    const load = backgroundLoad(shop.baseURL);
    // Let the customers get going, then take the database away under them.
    const started = Date.now() + 30_000;
    while ((load.statuses.get(302) ?? 0) < 6 && Date.now() < started) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(load.statuses.get(302) ?? 0, "customers were buying before the outage").toBeGreaterThanOrEqual(6);
    await postgres.stop("fast");

    const page = await fetch(`${shop.baseURL}/tienda`);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    const html = await page.text();
    expect(html).toContain("Servicio no disponible, intenta en unos minutos");
    expect(html).toContain('lang="es-PE"');
    expect(html).not.toMatch(/error:|at .*\.js:\d+/i);
    const checkout = await postCheckout(shop.baseURL, checkoutBody({ correo: "caida-bd@rel.example.pe" }));
    expect(checkout.status).toBe(503);
    // A few seconds down, with the customers and the jobs still knocking: the process holds.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(shop.running()).toBe(true);

    await postgres.start();
    // Back without a restart: the same process serves the shop again.
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await fetch(`${shop.baseURL}/tienda`)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
    await load.stop();
    expect(shop.running()).toBe(true);
    expect(load.statuses.get("connection-error") ?? 0).toBe(0);
    // While it was down the customers were told to come back later, never shown a bare 500.
    expect(load.statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(load.statuses.get(500) ?? 0).toBe(0);

    const after = await postCheckout(shop.baseURL, checkoutBody({ correo: "vuelta@rel.example.pe" }));
    expect(after.status).toBe(302);
    const paid = await postSandboxAction(shop.baseURL, after.headers.get("location")!, "approve_card");
    expect(paid.headers.get("location")).toMatch(/^\/success/);

    await shop.stop();
    server = undefined;
    const handle = await database.open();
    try {
      await expectShopInvariants(handle.db);
    } finally {
      await handle.close();
    }
  });
});
