import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as AbandonedCartRoute from "~/routes/api/abandoned-cart";
import type * as CartPricesRoute from "~/routes/api/cart-prices";
import type * as CheckoutRoute from "~/routes/checkout/checkout";
import type * as EmailRegisteredRoute from "~/routes/api/email-registered";
import type * as QueueRoute from "~/routes/admin/reparto/confirmaciones";
import type * as DbContextModule from "~/server/db-context.server";
import { abandonedCarts, orders } from "@server/db/schema";
import { DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { checkoutInput } from "../support/checkout-fixture";
import { postToRoute, sessionCookie, type RouteAnswer } from "../support/route-call";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const UNSUPPORTED_JSON = "La solicitud debe enviarse como JSON (Content-Type: application/json).";

/**
 * Issue 39, finding 8: a JSON endpoint reads a body only when it says it is JSON. A text/plain
 * post is what another site's form can send without asking (no CORS preflight), so it is a 415
 * with a Spanish message, and nothing it carried is acted on.
 */
describe("JSON endpoints take only application/json", () => {
  let test: TestDatabase;
  let dbContext: (typeof DbContextModule)["dbContext"];
  let staffArea: readonly unknown[];
  let repartidor: string;
  const routes = {} as {
    cartPrices: typeof CartPricesRoute;
    abandonedCart: typeof AbandonedCartRoute;
    emailRegistered: typeof EmailRegisteredRoute;
    queue: typeof QueueRoute;
    checkout: typeof CheckoutRoute;
  };

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    ({ dbContext } = await import("~/server/db-context.server"));
    staffArea = [(await import("~/server/staff.server")).staffAreaMiddleware];
    routes.cartPrices = await import("~/routes/api/cart-prices");
    routes.abandonedCart = await import("~/routes/api/abandoned-cart");
    routes.emailRegistered = await import("~/routes/api/email-registered");
    routes.queue = await import("~/routes/admin/reparto/confirmaciones");
    routes.checkout = await import("~/routes/checkout/checkout");
    repartidor = await sessionCookie(test.db, DEMO_REPARTIDOR);
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const cart = { items: [{ productId: 6, variantId: null, quantity: 1 }] };
  const abandoned = { email: "texto-plano@prueba.pe", items: cart.items };
  const post = (options: { route: { action: (args: never) => unknown; middleware?: readonly unknown[] }; path: string; body: unknown; contentType?: string }) =>
    postToRoute({ db: test.db, dbContext, route: options.route, path: options.path, body: JSON.stringify(options.body), contentType: options.contentType });
  const errorOf = async (answer: RouteAnswer) => (answer.response ? ((await answer.response.json()) as { error?: string }).error : answer.data);

  it("answers 415 in Spanish to a JSON body posted as text/plain, a form or with no type, on every /api/ JSON route", async () => {
    const endpoints = [
      { route: routes.cartPrices, path: "/api/carrito/precios", body: cart },
      { route: routes.abandonedCart, path: "/api/carrito/abandonado", body: abandoned },
      { route: routes.emailRegistered, path: "/api/cuenta/correo-registrado", body: { email: "texto-plano@prueba.pe" } },
    ];
    for (const endpoint of endpoints) {
      for (const contentType of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded", ""]) {
        const answer = await post({ ...endpoint, contentType });
        expect(answer.status, `${endpoint.path} ${contentType}`).toBe(415);
        expect(await errorOf(answer), endpoint.path).toBe(UNSUPPORTED_JSON);
      }
    }
    // Nothing the refused posts carried was kept.
    expect(await test.db.select().from(abandonedCarts).where(eq(abandonedCarts.email, abandoned.email))).toEqual([]);
    // The same bodies as application/json (with a charset, as browsers may add) are read.
    for (const endpoint of endpoints) {
      expect((await post({ ...endpoint, contentType: "application/json; charset=utf-8" })).status, endpoint.path).toBe(200);
    }
    expect(await test.db.select().from(abandonedCarts).where(eq(abandonedCarts.email, abandoned.email))).toHaveLength(1);
  });

  it("answers 415 to the driver app's queue and to the checkout posted as text/plain, placing nothing", async () => {
    const queued = await postToRoute({
      db: test.db,
      dbContext,
      route: routes.queue,
      outer: staffArea,
      path: "/admin/reparto/confirmaciones",
      body: JSON.stringify({ sentAt: Date.now(), items: [] }),
      cookie: repartidor,
      contentType: "text/plain",
    });
    expect(queued.status).toBe(415);

    const checkout = checkoutInput(new Date(), { correo: "checkout-texto@prueba.pe" });
    const placed = await post({ route: routes.checkout, path: "/checkout", body: checkout, contentType: "text/plain" });
    expect(placed.status).toBe(415);
    expect(await test.db.select().from(orders).where(eq(orders.customerEmail, "checkout-texto@prueba.pe"))).toEqual([]);
  });
});
