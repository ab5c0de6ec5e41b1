import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as CustomerRoute from "~/routes/admin/customers/customer-detail";
import type * as DbContextModule from "~/server/db-context.server";
import { staffActions, users } from "@server/db/schema";
import { DEMO_CUSTOMER, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { postToRoute, sessionCookie } from "../support/route-call";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Decision 0075: "Marcar como devuelta a mano" (`intent=garantia_settle`) on the customer page goes
 * through the staff area's guard and the page's own (admin and operaciones): an anonymous visitor,
 * a customer and a driver never reach the action.
 */
describe("the customer page's garantía devuelta a mano, as a route", () => {
  let test: TestDatabase;
  let route: typeof CustomerRoute;
  let dbContext: (typeof DbContextModule)["dbContext"];
  let staffArea: readonly unknown[];
  let customerId: string;
  const cookies: Record<"customer" | "repartidor" | "operaciones", string> = { customer: "", repartidor: "", operaciones: "" };

  async function post(fields: Record<string, string>, cookie?: string) {
    const path = `/admin/clientes/${customerId}`;
    const answer = await postToRoute({
      db: test.db,
      dbContext,
      route,
      outer: staffArea,
      path,
      params: { customerId },
      body: new URLSearchParams(fields),
      cookie,
    });
    return { ...answer, message: (answer.data as { message?: string } | undefined)?.message };
  }

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    ({ dbContext } = await import("~/server/db-context.server"));
    route = await import("~/routes/admin/customers/customer-detail");
    staffArea = [(await import("~/server/staff.server")).staffAreaMiddleware];
    cookies.customer = await sessionCookie(test.db, DEMO_CUSTOMER);
    cookies.repartidor = await sessionCookie(test.db, DEMO_REPARTIDOR);
    cookies.operaciones = await sessionCookie(test.db, DEMO_OPERACIONES);
    customerId = (await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_CUSTOMER.email)))[0]!.id;
  }, 60_000);
  afterAll(() => test.close());

  it("refuses an anonymous visitor, a customer and a driver before the action, and lets operaciones reach it", async () => {
    const fields = { intent: "garantia_settle", releaseId: randomUUID(), note: "" };
    const anonymous = await post(fields);
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toContain("/login");
    expect((await post(fields, cookies.customer)).status).toBe(404);
    expect((await post(fields, cookies.repartidor)).status).toBe(404);
    // Operaciones reach the action: an empty note is its Spanish 400, and nothing is recorded.
    expect(await post(fields, cookies.operaciones)).toMatchObject({ status: 400, message: expect.stringContaining("Escribe cómo se devolvió") });
    expect(await test.db.select().from(staffActions).where(eq(staffActions.action, "garantias.returned_by_hand"))).toEqual([]);
  });
});
