/**
 * Issue 26's new actions, as the routes guard them: each route module runs with its own middleware
 * (and its layout's) against the real database, as the server would run it. For every new action,
 * an anonymous visitor, a customer (or another customer) and a staff member of the wrong role are
 * refused and nothing is written; the role allowed gets through.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register, signIn } from "@server/accounts/index.server";
import { deliveries, districts, orders, routeOptimisations, users } from "@server/db/schema";
import { DEMO_ADMIN, DEMO_CUSTOMER, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { DEMO_CUSTOMER_POINT } from "@server/db/seed/demo-accounts";
import { loadRouteSettings } from "@server/deliveries/index.server";
import { receiptToken } from "@server/orders/index.server";
import { ROUTE_SETTING_DEFAULTS } from "@core/route-schemas";
import { OUTSIDE_LIMA } from "@core/geo";
import { limaToday } from "@core/lima-dates";
import { dbContext } from "~/server/db-context.server";
import * as accountLayout from "~/routes/account/layout";
import * as adminLayout from "~/routes/admin/layout";
import * as despacho from "~/routes/admin/despacho/despacho";
import * as district from "~/routes/admin/catalog/district";
import * as orderDetail from "~/routes/admin/orders/order-detail";
import * as settings from "~/routes/admin/settings/settings";
import * as tracking from "~/routes/api/delivery-tracking";
import * as profile from "~/routes/account/profile";
import * as registerPage from "~/routes/account/register";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const origin = "http://shop.test";
type Who = "anonymous" | "customer" | "otherCustomer" | "repartidor" | "operaciones" | "admin";
type Module = { middleware?: unknown[]; loader?: unknown; action?: unknown };
type Handler = (args: { request: Request; params: Record<string, string>; context: RouterContextProvider }) => unknown;
type Middleware = (args: { request: Request; params: Record<string, string>; context: RouterContextProvider }, next: () => Promise<unknown>) => unknown;

/** What a loader or action answered, returned or thrown: its status and its data. */
async function outcome(value: unknown): Promise<{ status: number; location: string | null; body: unknown }> {
  if (value instanceof Response) {
    const text = await value.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the text is the body.
    }
    return { status: value.status, location: value.headers.get("location"), body };
  }
  if (value && typeof value === "object" && (value as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = value as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, location: null, body: data };
  }
  if (value instanceof Error) throw value;
  return { status: 200, location: null, body: value };
}

describe("who may use issue 26's actions (routes with their middleware)", () => {
  let test: TestDatabase;
  const cookies = {} as Record<Who, string>;
  let customerDelivery: { id: string; orderId: string };
  let demoOrderId: string;
  let districtId: number;
  let client = 0;

  /** Runs a route module's loader or action behind its layouts' and its own middleware, as the server does. */
  async function run(
    modules: Module[],
    kind: "loader" | "action",
    who: Who,
    path: string,
    params: Record<string, string>,
    form?: Record<string, string | string[]>,
  ) {
    const headers: Record<string, string> = {};
    if (cookies[who]) headers.cookie = cookies[who];
    let body: URLSearchParams | undefined;
    if (form) {
      body = new URLSearchParams();
      for (const [name, value] of Object.entries(form)) for (const each of [value].flat()) body.append(name, each);
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const request = new Request(`${origin}${path}`, { method: form ? "POST" : "GET", headers, body });
    const context = new RouterContextProvider();
    context.set(dbContext, test.db);
    const args = { request, params, context };
    const middleware = modules.flatMap((module) => (module.middleware ?? []) as Middleware[]);
    const handler = modules.at(-1)![kind] as Handler;
    const step = async (index: number): Promise<unknown> => (index < middleware.length ? middleware[index]!(args, () => step(index + 1)) : handler(args));
    try {
      return await outcome(await step(0));
    } catch (thrown) {
      return outcome(thrown);
    }
  }

  async function signInAs(email: string, password: string): Promise<string> {
    const result = await signIn(test.db, { email, password, remember: true, client: `route-auth-${(client += 1)}` });
    if (!result.ok) throw new Error(`${email} could not sign in`);
    return result.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
  }

  /** The refusals every staff action must give: the login page, then the role's 404. */
  async function expectStaffRefusals(call: (who: Who) => Promise<{ status: number; location: string | null }>, refused: Who[]) {
    for (const who of refused) {
      const answer = await call(who);
      if (who === "anonymous") {
        expect(answer.status, who).toBe(302);
        expect(answer.location, who).toMatch(/^\/login\?redirectTo=/);
      } else {
        expect(answer.status, who).toBe(404);
      }
    }
  }

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    cookies.anonymous = "";
    cookies.customer = await signInAs(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    cookies.repartidor = await signInAs(DEMO_REPARTIDOR.email, DEMO_REPARTIDOR.password);
    cookies.operaciones = await signInAs(DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
    cookies.admin = await signInAs(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const other = `otra-${randomUUID().slice(0, 8)}@prueba.pe`;
    const registered = await register(test.db, { firstName: "Otra", lastName: "Clienta", email: other, password: "Agua1234", client: "route-auth-register" });
    if (!registered.ok) throw new Error("second customer not registered");
    cookies.otherCustomer = await signInAs(other, "Agua1234");
    // The demo customer's stop on the demo route (demo data, issue 26).
    const [driver] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    const [stop] = await test.db
      .select({ id: deliveries.id, orderId: deliveries.orderId })
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .where(and(eq(orders.customerEmail, DEMO_CUSTOMER.email), eq(deliveries.assignedDriverId, driver!.id)));
    customerDelivery = stop!;
    demoOrderId = stop!.orderId;
    const [miraflores] = await test.db.select({ id: districts.id }).from(districts).where(eq(districts.name, "Miraflores"));
    districtId = miraflores!.id;
  }, 60_000);
  afterAll(() => test.close());

  it("Optimizar rutas (/admin/despacho): operaciones and admin only; a refused press plans nothing", async () => {
    const [driver] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    const date = limaToday(new Date());
    const press = (who: Who, key: string) =>
      run(
        [adminLayout, despacho],
        "action",
        who,
        `/admin/despacho?fecha=${date}`,
        {},
        {
          intent: "optimizar",
          clave: key,
          vans: driver!.id,
          [`capacidad-${driver!.id}`]: "60",
          [`unidad-${driver!.id}`]: "bidones",
          [`inicio-${driver!.id}`]: "08:30",
          [`fin-${driver!.id}`]: "18:30",
        },
      );
    const refusedKey = randomUUID();
    await expectStaffRefusals((who) => press(who, refusedKey), ["anonymous", "customer", "repartidor"]);
    expect(await test.db.select().from(routeOptimisations).where(eq(routeOptimisations.requestKey, refusedKey))).toEqual([]);

    const allowedKey = randomUUID();
    const answer = await press("operaciones", allowedKey);
    expect(answer.status).toBe(200);
    // Computed and kept as a plan; nothing is applied until «Aplicar plan» (issue 40).
    expect(answer.body).toMatchObject({ ok: true, message: expect.stringMatching(/^(Plan calculado|El plan no asigna ninguna parada)/) });
    const [plan] = await test.db.select().from(routeOptimisations).where(eq(routeOptimisations.requestKey, allowedKey));
    expect(plan!.status).toBe("planned");
    // «Aplicar plan» (issue 40): the same roles only; a refused press applies nothing.
    const apply = (who: Who, key: string) =>
      run([adminLayout, despacho], "action", who, `/admin/despacho?fecha=${date}`, {}, { intent: "aplicar", plan: String(plan!.id), clave: key });
    await expectStaffRefusals((who) => apply(who, randomUUID()), ["anonymous", "customer", "repartidor"]);
    expect((await test.db.select().from(routeOptimisations).where(eq(routeOptimisations.id, plan!.id)))[0]!.status).toBe("planned");
    if (plan!.result.plan!.placed > 0) {
      const applied = await apply("admin", randomUUID());
      expect(applied.body).toMatchObject({ ok: true, message: expect.stringContaining("Plan aplicado") });
      expect((await test.db.select().from(routeOptimisations).where(eq(routeOptimisations.id, plan!.id)))[0]!.status).toBe("applied");
    }
    // A van without a shift end is refused with its Spanish message, and nothing runs.
    const badKey = randomUUID();
    const bad = await run(
      [adminLayout, despacho],
      "action",
      "admin",
      `/admin/despacho?fecha=${date}`,
      {},
      {
        intent: "optimizar",
        clave: badKey,
        vans: driver!.id,
        [`capacidad-${driver!.id}`]: "60",
        [`unidad-${driver!.id}`]: "bidones",
        [`inicio-${driver!.id}`]: "18:30",
        [`fin-${driver!.id}`]: "08:30",
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, message: "El turno debe terminar después de empezar" });
    expect(await test.db.select().from(routeOptimisations).where(eq(routeOptimisations.requestKey, badKey))).toEqual([]);
  });

  it("route settings (/admin/ajustes, «Rutas»): the admin only; refusals and bad values change nothing", async () => {
    const values = {
      intent: "routes",
      depotLabel: "Almacén Surco",
      depotLat: "-12.1400",
      depotLng: "-76.9900",
      serviceMinutes: "8",
      detourFactor: "1.4",
      averageSpeedKmh: "16",
      vanCapacity: "50",
      vanCapacityUnit: "bidones",
      shiftStart: "08:00",
      shiftEnd: "17:00",
    };
    const post = (who: Who, form: Record<string, string>) => run([adminLayout, settings], "action", who, "/admin/ajustes", {}, form);
    await expectStaffRefusals((who) => post(who, values), ["anonymous", "customer", "repartidor", "operaciones"]);
    expect(await loadRouteSettings(test.db)).toEqual(ROUTE_SETTING_DEFAULTS);

    const outside = await post("admin", { ...values, depotLat: "-13.5" });
    expect(outside.status).toBe(400);
    expect(outside.body).toMatchObject({ fieldErrors: { depot: OUTSIDE_LIMA }, typed: { depotLat: "-13.5", depotLabel: "Almacén Surco" } });
    expect(await loadRouteSettings(test.db)).toEqual(ROUTE_SETTING_DEFAULTS);

    const saved = await post("admin", values);
    expect([saved.status, saved.location]).toEqual([302, "/admin/ajustes?guardado=rutas"]);
    expect(await loadRouteSettings(test.db)).toMatchObject({
      depotLabel: "Almacén Surco",
      depotLat: -12.14,
      depotLng: -76.99,
      serviceMinutes: 8,
      shiftEnd: "17:00",
    });
  });

  it("an order's pin (/admin/pedidos/{id}): operaciones and admin only; a refusal or a point outside Lima leaves it as it was", async () => {
    const pinOf = async () => {
      const [row] = await test.db.select({ lat: orders.addressLat, lng: orders.addressLng }).from(orders).where(eq(orders.id, demoOrderId));
      return row!;
    };
    const before = await pinOf();
    const post = (who: Who, coordenadas: string) =>
      run([adminLayout, orderDetail], "action", who, `/admin/pedidos/${demoOrderId}`, { orderId: demoOrderId }, { intent: "location", coordenadas });
    await expectStaffRefusals((who) => post(who, "-12.1300, -77.0200"), ["anonymous", "customer", "repartidor"]);
    expect(await pinOf()).toEqual(before);

    const outside = await post("operaciones", "40.4168, -3.7038");
    expect(outside.status).toBe(400);
    expect(outside.body).toMatchObject({ intent: "location", ok: false, typed: "40.4168, -3.7038", message: expect.stringContaining(OUTSIDE_LIMA) });
    expect(await pinOf()).toEqual(before);

    const saved = await post("operaciones", "-12.1300, -77.0200");
    expect(saved.body).toMatchObject({ intent: "location", ok: true });
    expect(await pinOf()).toEqual({ lat: -12.13, lng: -77.02 });
    const [delivery] = await test.db.select({ lat: deliveries.lat, lng: deliveries.lng }).from(deliveries).where(eq(deliveries.id, customerDelivery.id));
    expect(delivery).toEqual({ lat: -12.13, lng: -77.02 });
  });

  it("a district's centre (/admin/distritos/{id}): operaciones and admin only", async () => {
    const centreOf = async () => {
      const [row] = await test.db.select({ lat: districts.centerLat, lng: districts.centerLng }).from(districts).where(eq(districts.id, districtId));
      return row!;
    };
    const before = await centreOf();
    const post = (who: Who, coordenadas: string) =>
      run([adminLayout, district], "action", who, `/admin/distritos/${districtId}`, { districtId: String(districtId) }, { intent: "location", coordenadas });
    await expectStaffRefusals((who) => post(who, "-12.1190, -77.0340"), ["anonymous", "customer", "repartidor"]);
    expect(await centreOf()).toEqual(before);
    const outside = await post("operaciones", "-12.1190");
    expect(outside.status).toBe(400);
    expect(await centreOf()).toEqual(before);
    const saved = await post("operaciones", "-12.1190, -77.0340");
    expect([saved.status, saved.location]).toEqual([302, `/admin/distritos/${districtId}?guardado=centro`]);
    expect(await centreOf()).toEqual({ lat: -12.119, lng: -77.034 });
  });

  it("a delivery's tracking (/api/envios/{id}/seguimiento): its owner only; anyone else, staff included, gets the same 404", async () => {
    const path = (query = "") => `/api/envios/${customerDelivery.id}/seguimiento${query}`;
    const get = (who: Who, query = "") => run([tracking], "loader", who, path(query), { deliveryId: customerDelivery.id });
    for (const who of ["anonymous", "otherCustomer", "repartidor", "operaciones", "admin"] as const) {
      const answer = await get(who);
      expect(answer.status, who).toBe(404);
      expect(answer.body, who).toEqual({ error: "Envío no encontrado" });
    }
    // A receipt token of another order opens nothing.
    const [otherOrder] = await test.db.select({ id: orders.id }).from(orders).where(eq(orders.customerEmail, "lucia.torres@demo.pe"));
    expect((await get("anonymous", `?token=${receiptToken(otherOrder!.id)}`)).status).toBe(404);
    const unknown = randomUUID();
    expect((await run([tracking], "loader", "customer", `/api/envios/${unknown}/seguimiento`, { deliveryId: unknown })).status).toBe(404);

    const own = await get("customer");
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ tracking: { kind: expect.any(String) }, pollSeconds: expect.any(Number) });
    // The answer names no one and nowhere: only counts, times and this stop's own receipt.
    expect(JSON.stringify(own.body)).not.toMatch(/lat|lng|address|direcci|Torres/i);
    // The e-mailed receipt link opens it too, signed out.
    expect((await get("anonymous", `?token=${receiptToken(customerDelivery.orderId)}`)).status).toBe(200);
  });

  it("a customer's own pin (/dashboard/perfil, /register): saved on their account only, refused outside Lima", async () => {
    const pinOf = async (email: string) => {
      const [row] = await test.db.select({ lat: users.addressLat, lng: users.addressLng }).from(users).where(eq(users.email, email));
      return row!;
    };
    const profileForm = (lat: string, lng: string) => ({
      intent: "profile",
      firstName: DEMO_CUSTOMER.firstName,
      lastName: DEMO_CUSTOMER.lastName,
      phone: "",
      documentType: "",
      documentNumber: "",
      districtId: String(districtId),
      address: "Av. Larco 123",
      lat,
      lng,
    });
    const anonymous = await run([accountLayout, profile], "action", "anonymous", "/dashboard/perfil", {}, profileForm("-12.12", "-77.03"));
    expect(anonymous.status).toBe(302);
    const outside = await run([accountLayout, profile], "action", "customer", "/dashboard/perfil", {}, profileForm("-33.45", "-70.66"));
    expect(outside.status).toBe(400);
    expect(outside.body).toMatchObject({ fieldErrors: { ubicacion: OUTSIDE_LIMA } });
    expect(await pinOf(DEMO_CUSTOMER.email)).toEqual(DEMO_CUSTOMER_POINT);
    const saved = await run([accountLayout, profile], "action", "customer", "/dashboard/perfil", {}, profileForm("-12.1211", "-77.0297"));
    expect(saved.status).toBeLessThan(400);
    expect(await pinOf(DEMO_CUSTOMER.email)).toEqual({ lat: -12.1211, lng: -77.0297 });

    const email = `pin-${randomUUID().slice(0, 8)}@prueba.pe`;
    const signUp = (lat: string, lng: string) =>
      run(
        [registerPage],
        "action",
        "anonymous",
        "/register",
        {},
        {
          firstName: "Rosa",
          lastName: "Pin",
          email,
          password: "Agua1234",
          confirmPassword: "Agua1234",
          districtId: String(districtId),
          address: "Calle Berlín 200",
          lat,
          lng,
        },
      );
    const refused = await signUp("-12.12", "");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ fieldErrors: { ubicacion: expect.any(String) }, typed: { address: "Calle Berlín 200", lat: "-12.12" } });
    expect(await test.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    const created = await signUp("-12.118", "-77.036");
    expect(created.status).toBeLessThan(400);
    expect(await pinOf(email)).toEqual({ lat: -12.118, lng: -77.036 });
  });
});
