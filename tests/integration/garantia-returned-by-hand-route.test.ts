import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { RouterContextProvider, type MiddlewareFunction } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as CustomerRoute from "~/routes/admin.customer-detail";
import type * as DbContextModule from "~/db-context.server";
import { signIn } from "@server/accounts/index.server";
import { staffActions, users } from "@server/db/schema";
import { DEMO_CUSTOMER, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const origin = "http://shop.test";

/**
 * Decision 0075: "Marcar como devuelta a mano" (`intent=garantia_settle`) on the customer page goes
 * through the staff area's guard and the page's own (admin and operaciones): an anonymous visitor,
 * a customer and a driver never reach the action.
 */
describe("the customer page's garantía devuelta a mano, as a route", () => {
  let test: TestDatabase;
  let route: typeof CustomerRoute;
  let dbContext: (typeof DbContextModule)["dbContext"];
  let middlewares: MiddlewareFunction<Response>[];
  let customerId: string;
  const cookies: Record<"customer" | "repartidor" | "operaciones", string> = { customer: "", repartidor: "", operaciones: "" };

  async function cookieOf(account: { email: string; password: string }) {
    const result = await signIn(test.db, { email: account.email, password: account.password, remember: true, client: `settle-${randomUUID()}` });
    if (!result.ok) throw new Error(`sign-in failed for ${account.email}`);
    return result.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
  }

  async function post(fields: Record<string, string>, cookie?: string): Promise<{ status: number; location?: string | null; message?: string }> {
    const context = new RouterContextProvider();
    context.set(dbContext, test.db);
    const request = new Request(`${origin}/admin/clientes/${customerId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields).toString(),
    });
    const args = { request, params: { customerId }, context, unstable_pattern: "" } as unknown as Parameters<typeof route.action>[0];
    const run = async (index: number): Promise<unknown> =>
      index < middlewares.length ? await middlewares[index]!(args as never, () => run(index + 1) as never) : await route.action(args);
    try {
      const answer = (await run(0)) as { data?: { message?: string }; init?: { status?: number } } | Response;
      if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("location") };
      return { status: answer.init?.status ?? 200, message: answer.data?.message };
    } catch (thrown) {
      if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location") };
      const init = (thrown as { init?: { status?: number } }).init;
      if (init?.status) return { status: init.status };
      throw thrown;
    }
  }

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    ({ dbContext } = await import("~/db-context.server"));
    route = await import("~/routes/admin.customer-detail");
    const { staffAreaMiddleware } = await import("~/staff.server");
    middlewares = [staffAreaMiddleware, ...route.middleware] as MiddlewareFunction<Response>[];
    cookies.customer = await cookieOf(DEMO_CUSTOMER);
    cookies.repartidor = await cookieOf(DEMO_REPARTIDOR);
    cookies.operaciones = await cookieOf(DEMO_OPERACIONES);
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
