import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as DespachoRoute from "~/routes/admin/despacho/despacho";
import type * as DbContextModule from "~/server/db-context.server";
import { deliveries, routeOptimisations, users } from "@server/db/schema";
import { DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { limaToday } from "@core/lima-dates";
import { postToRoute, sessionCookie } from "../support/route-call";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

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
  let test: TestDatabase;
  let route: typeof DespachoRoute;
  let staffArea: readonly unknown[];
  let dbContext: (typeof DbContextModule)["dbContext"];
  let operaciones: string;
  let driverId: string;

  beforeAll(async () => {
    // Before this file's modules first read the environment (each file has its own, decision 0068).
    vi.stubEnv("ROUTING_URL", `http://127.0.0.1:${await closedPort()}/`);
    test = await createTestDatabase("seeded");
    ({ dbContext } = await import("~/server/db-context.server"));
    route = await import("~/routes/admin/despacho/despacho");
    staffArea = [(await import("~/server/staff.server")).staffAreaMiddleware];
    operaciones = await sessionCookie(test.db, DEMO_OPERACIONES);
    driverId = (await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email)))[0]!.id;
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await test.close();
  });

  it("answers the Spanish message, keeps the vans typed, and writes no route", async () => {
    const today = limaToday(new Date());
    const before = await test.db.select({ id: deliveries.id, driver: deliveries.assignedDriverId, position: deliveries.routePosition }).from(deliveries);
    const body = new URLSearchParams({
      intent: "optimizar",
      clave: randomUUID(),
      vans: driverId,
      [`capacidad-${driverId}`]: "45",
      [`unidad-${driverId}`]: "bidones",
      [`inicio-${driverId}`]: "08:30",
      [`fin-${driverId}`]: "17:00",
    });
    const answer = await postToRoute({ db: test.db, dbContext, route, outer: staffArea, path: `/admin/despacho?fecha=${today}`, body, cookie: operaciones });
    expect(answer.status).toBe(502);
    expect(answer.data).toMatchObject({
      ok: false,
      message: "No se pudo optimizar: el servidor de rutas no respondió. No se cambió ninguna ruta; inténtalo de nuevo en unos minutos.",
      vans: { [driverId]: { selected: true, capacity: "45", unit: "bidones", start: "08:30", end: "17:00" } },
    });
    expect(await test.db.select({ id: deliveries.id, driver: deliveries.assignedDriverId, position: deliveries.routePosition }).from(deliveries)).toEqual(
      before,
    );
    expect(await test.db.select().from(routeOptimisations)).toEqual([]);
  });
});
