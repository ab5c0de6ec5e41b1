import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShopDatabase, startShopProcess, type ShopDatabase, type ShopProcess } from "../support/shop-process";

/**
 * A TCP relay between the shop and its PostgreSQL that can fall silent: from `silence()` on it
 * still accepts connections and keeps the open ones, but passes nothing either way, as a database
 * host that hangs (a frozen VM, a black-holed network) rather than refusing.
 */
async function startSilenceableRelay(target: { host: string; port: number }) {
  let silent = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    if (silent) return;
    const upstream = net.connect(target);
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("data", (chunk) => !silent && upstream.write(chunk));
    upstream.on("data", (chunk) => !silent && client.write(chunk));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    silence: () => (silent = true),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Issue 27 (PostgreSQL only): the pool's timeouts turn a hung database into a quick Spanish 503. */
describe("a PostgreSQL server that accepts connections and never answers", () => {
  let database: ShopDatabase;
  let relay: Awaited<ReturnType<typeof startSilenceableRelay>>;
  let server: ShopProcess | undefined;

  beforeAll(async () => {
    database = await createShopDatabase();
    const url = new URL(database.env.DATABASE_URL!);
    relay = await startSilenceableRelay({ host: url.hostname, port: Number(url.port) });
    url.host = `127.0.0.1:${relay.port}`;
    server = await startShopProcess({
      database: { ...database, env: { DATABASE_URL: url.toString() } },
      env: { PG_CONNECT_TIMEOUT_SECONDS: "1", PG_STATEMENT_TIMEOUT_SECONDS: "1", STOREFRONT_CACHE_SECONDS: "0" },
    });
  });
  afterAll(async () => {
    await server?.kill();
    await relay?.close();
    await database?.drop();
  });

  it("answers the Spanish 503 page within seconds instead of hanging, says it is not ready, and stays alive", async () => {
    const { baseURL } = server!;
    expect((await fetch(`${baseURL}/tienda`)).status).toBe(200);
    relay.silence();

    const asked = performance.now();
    const page = await fetch(`${baseURL}/tienda`, { signal: AbortSignal.timeout(20_000) });
    const seconds = (performance.now() - asked) / 1000;
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("Servicio no disponible, intenta en unos minutos");
    // One statement's timeout (1 s) and the client's grace (2 s), with room for a loaded machine.
    expect(seconds).toBeLessThan(8);

    const readyAsked = performance.now();
    const ready = await fetch(`${baseURL}/readyz`, { signal: AbortSignal.timeout(20_000) });
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "not ready", reason: expect.any(String) });
    expect((performance.now() - readyAsked) / 1000).toBeLessThan(4);
    expect((await fetch(`${baseURL}/healthz`)).status).toBe(200);
    expect(server!.running()).toBe(true);
  });
});
