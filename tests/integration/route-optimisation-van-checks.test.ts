import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { deliveries, routeOptimisations, routePlans, users } from "@server/db/schema";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-credentials";
import { despachoOnRoutingServer } from "../support/route-planning-test-bed";
import { startVroomStandIn, type VroomStandIn } from "../support/vroom-stand-in";

/**
 * Issue 39, finding 8: Despacho's "Optimizar rutas" checks the chosen vans (active repartidores,
 * each once, a bounded number) before it plans anything. The day is planned by a VROOM server
 * (ROUTING_URL, the stand-in), so whether the solver ran is what that server received.
 */
describe("Optimizar rutas checks the chosen vans before it plans", () => {
  let vroom: VroomStandIn;
  const test = despachoOnRoutingServer(async () => (vroom = await startVroomStandIn()).url);
  afterAll(() => vroom?.close());
  const optimise = (vans: string[]) => test.postToDespacho(test.optimiseForm(vans));
  const routesOfTheDay = () =>
    test.db.select({ id: deliveries.id, driver: deliveries.assignedDriverId, position: deliveries.routePosition }).from(deliveries).orderBy(deliveries.id);

  it("refuses 49 invented van ids beside a real one in Spanish, without asking the solver or writing a plan", async () => {
    const before = await routesOfTheDay();
    const invented = Array.from({ length: 49 }, () => `repartidor-inventado-${randomUUID()}`);
    const answer = await optimise([test.driverId, ...invented]);
    expect(answer.status).toBe(409);
    expect(answer.data).toMatchObject({ ok: false, message: "Elige repartidores activos. No se cambió ninguna ruta." });
    expect(vroom.requests).toEqual([]);
    expect(await routesOfTheDay()).toEqual(before);
    expect(await test.db.select().from(routeOptimisations)).toEqual([]);
    expect(await test.db.select().from(routePlans)).toEqual([]);
  });

  it("refuses a staff member who is not a repartidor, and more vans than one run plans, before the solver too", async () => {
    const asked = vroom.requests.length;
    const staff = (await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_OPERACIONES.email)))[0]!.id;
    expect((await optimise([test.driverId, staff])).data).toMatchObject({ ok: false, message: "Elige repartidores activos. No se cambió ninguna ruta." });
    const tooMany = await optimise(Array.from({ length: 51 }, () => `repartidor-inventado-${randomUUID()}`));
    expect(tooMany.data).toMatchObject({ ok: false, message: "Elige como máximo 50 repartidores a la vez." });
    expect(vroom.requests).toHaveLength(asked);
    expect(await test.db.select().from(routeOptimisations)).toEqual([]);
  });

  it("plans the day with the real repartidor alone, named twice or not: the solver is asked once, with one van", async () => {
    const asked = vroom.requests.length;
    const answer = await optimise([test.driverId, test.driverId]);
    expect(answer.status).toBe(200);
    expect(vroom.requests).toHaveLength(asked + 1);
    expect(vroom.requests[asked]!.vehicles).toHaveLength(1);
    expect(await test.db.select().from(routeOptimisations)).toHaveLength(1);
  });

  it("shows an infeasible VROOM answer as an error and keeps no plan to apply (issue 40)", async () => {
    const before = await routesOfTheDay();
    const plans = (await test.db.select().from(routeOptimisations)).length;
    vroom.mode = "overloads";
    try {
      const form = test.optimiseForm([test.driverId]);
      form.set(`capacidad-${test.driverId}`, "1");
      const answer = await test.postToDespacho(form);
      expect(answer.status).toBe(502);
      expect(answer.data).toMatchObject({ ok: false, message: expect.stringContaining("no cumplen los horarios, la capacidad o los turnos") });
    } finally {
      vroom.mode = "ok";
    }
    expect(await routesOfTheDay()).toEqual(before);
    expect(await test.db.select().from(routeOptimisations)).toHaveLength(plans);
  });
});
