import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { deliveries, routeOptimisations } from "@server/db/schema";
import { despachoOnRoutingServer } from "../support/route-planning-test-bed";

/** A loopback port nothing listens on: a VROOM server that is down refuses the connection at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Issue 26: with ROUTING_URL pointing at a VROOM server that does not answer, Despacho's
 * "Optimizar rutas" says so in Spanish and changes no route; the staff member can press again.
 */
describe("Optimizar rutas with the VROOM server down", () => {
  const test = despachoOnRoutingServer(async () => `http://127.0.0.1:${await closedPort()}/`);

  it("answers the Spanish message, keeps the vans typed, and writes no route", async () => {
    const before = await test.db.select({ id: deliveries.id, driver: deliveries.assignedDriverId, position: deliveries.routePosition }).from(deliveries);
    const answer = await test.postToDespacho(test.optimiseForm([test.driverId]));
    expect(answer.status).toBe(502);
    expect(answer.data).toMatchObject({
      ok: false,
      message: "No se pudo optimizar: el servidor de rutas no respondió. No se cambió ninguna ruta; inténtalo de nuevo en unos minutos.",
      vans: { [test.driverId]: { selected: true, capacity: "45", unit: "bidones", start: "08:30", end: "17:00" } },
    });
    expect(await test.db.select({ id: deliveries.id, driver: deliveries.assignedDriverId, position: deliveries.routePosition }).from(deliveries)).toEqual(
      before,
    );
    expect(await test.db.select().from(routeOptimisations)).toEqual([]);
  });
});
