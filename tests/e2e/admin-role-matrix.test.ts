import type { RouteConfigEntry } from "@react-router/dev/routes";
import { beforeAll, describe, expect, it } from "vitest";
import routeTable from "../../app/routes";
import { STAFF_ROLES, type StaffRole } from "@core/staff-roles";
import { DEMO_STAFF } from "@server/db/seed/demo-credentials";
import { cookieHeader, DEMO_CUSTOMER, signInCookies } from "../support/accounts";
import { sharedShop } from "../support/shared-shop";
import { STAFF_ROUTE_RULES as RULES } from "../support/staff-route-rules";

/**
 * Issue 10: every /admin route of app/routes.ts × anonymous, customer and every staff role. The
 * table in tests/support/staff-route-rules.ts names each route's permission, whose roles
 * (core/staff-permissions.ts, decision 0098) are the rule (the staff menu's unit test reads it too); a route in routes.ts without a row fails the first test, so
 * no page can be added to the staff area without saying who may use it. A refused staff member or
 * customer gets the plain Spanish 404, with nothing of the back office in it; anonymous visitors go
 * to /login and come back. Each request is both a page load (GET) and an action (POST): the
 * route's own middleware guards both.
 */

/** Ids of the demo data, looked up once through the pages, for the `{…}` placeholders of the samples. */
const demoIds: Record<string, string> = {};
const withDemoIds = (sample: string) => sample.replace(/\{(\w+)\}/g, (_match, name: string) => demoIds[name] ?? `{${name}}`);

function adminPatterns(entries: RouteConfigEntry[], prefix = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? prefix : entry.path === undefined ? prefix : `${prefix}/${entry.path}`;
    const own = entry.index || entry.path !== undefined ? [path || "/"] : [];
    return [...own, ...adminPatterns(entry.children ?? [], path)].filter((pattern) => pattern === "/admin" || pattern.startsWith("/admin/"));
  });
}

const baseURL = () => sharedShop().baseURL;
const sessions: Partial<Record<"customer" | StaffRole, string>> = {};

async function request(path: string, method: "GET" | "POST", cookie?: string): Promise<{ status: number; location: string | null; body: string }> {
  const response = await fetch(`${baseURL()}${path}`, {
    method,
    redirect: "manual",
    headers: { ...(cookie ? { cookie } : {}), ...(method === "POST" ? { origin: baseURL(), "content-type": "application/x-www-form-urlencoded" } : {}) },
    ...(method === "POST" ? { body: "intent=nada" } : {}),
  });
  return { status: response.status, location: response.headers.get("location"), body: await response.text() };
}

describe("who may use each page of the staff area", () => {
  beforeAll(async () => {
    for (const [who, account] of [["customer", DEMO_CUSTOMER] as const, ...STAFF_ROLES.map((role) => [role, DEMO_STAFF[role]] as const)]) {
      sessions[who] = cookieHeader(await signInCookies(baseURL(), account.email, account.password));
    }
    // One of the demo customer's orders, as their own order list links it.
    const orders = await request("/dashboard/pedidos", "GET", sessions.customer);
    const orderId = /\/dashboard\/pedidos\/([0-9a-f-]{36})/.exec(orders.body)?.[1];
    if (!orderId) throw new Error("No demo order found on /dashboard/pedidos");
    demoIds.demoOrderId = orderId;
    // One of the demo customer's subscriptions, as their subscription page links it.
    const subscriptions = await request("/dashboard/suscripcion", "GET", sessions.customer);
    const subscriptionId = /\/dashboard\/suscripciones\/([0-9a-f-]{36})/.exec(subscriptions.body)?.[1];
    if (!subscriptionId) throw new Error("No demo subscription found on /dashboard/suscripcion");
    demoIds.demoSubscriptionId = subscriptionId;
    // A sheet of the Libro de Reclamaciones (the demo data has none), filed as anyone files one.
    const filed = await fetch(`${baseURL()}/libro-de-reclamaciones`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: baseURL(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        consumerNames: "Matriz",
        consumerSurnames: "De Roles",
        documentType: "dni",
        documentNumber: "45678912",
        address: "Av. Arequipa 100, Lima",
        email: "matriz@example.pe",
        goodType: "servicio",
        goodDescription: "Delivery",
        kind: "queja",
        detail: "La atención telefónica fue descortés.",
        consumerRequest: "Mejor atención.",
      }),
    });
    expect(filed.status).toBe(303);
    const inbox = await request("/admin/reclamos?estado=todos", "GET", sessions.admin);
    const complaintId = /\/admin\/reclamos\/([0-9a-f-]{36})/.exec(inbox.body)?.[1];
    if (!complaintId) throw new Error("No sheet found on /admin/reclamos");
    demoIds.complaintId = complaintId;
    const customers = await request(`/admin/clientes?q=${encodeURIComponent(DEMO_CUSTOMER.email)}`, "GET", sessions.admin);
    const customerId = /\/admin\/clientes\/([A-Za-z0-9_-]+)"/.exec(customers.body)?.[1];
    if (!customerId) throw new Error("No demo customer found on /admin/clientes");
    demoIds.demoCustomerId = customerId;
  });

  it("has a rule for every /admin route of the route table", () => {
    expect(adminPatterns(routeTable).sort()).toEqual(Object.keys(RULES).sort());
  });

  for (const [pattern, rule] of Object.entries(RULES)) {
    for (const method of ["GET", "POST"] as const) {
      it(`${method} ${pattern}: anonymous to /login, customer and wrong roles to the 404, ${rule.allowed.join(" and ")} in`, async () => {
        const path = withDemoIds(rule.sample ?? pattern);
        const anonymous = await request(path, method);
        expect(anonymous.status).toBe(302);
        expect(anonymous.location).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);

        for (const who of ["customer", ...STAFF_ROLES] as const) {
          const answer = await request(path, method, sessions[who]);
          const allowed = who !== "customer" && rule.allowed.includes(who);
          if (allowed) {
            // An action may refuse a meaningless body (400) or redirect; it must not be the role's 404.
            expect(answer.status, `${who} ${method} ${path}`).not.toBe(404);
            expect(answer.status, `${who} ${method} ${path}`).toBeLessThan(500);
          } else {
            expect(answer.status, `${who} ${method} ${path}`).toBe(404);
            expect(answer.body).toContain("Página no encontrada");
            expect(answer.body).not.toContain("Back office");
          }
        }
      });
    }
  }
});
