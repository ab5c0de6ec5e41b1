/**
 * Issue 39, finding 4 (decision 0072): an e-mail typed at a guest checkout is the order's contact,
 * nothing more. A guest order with a registered, proven account's address stays a guest order; its
 * confirmation e-mail carries "Agregar este pedido a mi cuenta", and the order enters the account
 * only by the POST of that link's page, made by the account of the order's address, signed in.
 * The route module runs behind the account area's middleware, against the real database.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { RouterContextProvider, type MiddlewareFunction } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderClaimToken, register, requestPasswordReset, resetPassword } from "@server/accounts/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { orders, orderStatusChanges, outboxEmails, users } from "@server/db/schema";
import { DEMO_CUSTOMER } from "@server/db/seed/demo-credentials";
import { applySandboxAction } from "@server/order-flows/index.server";
import { listOrdersForUser } from "@server/orders/index.server";
import { dbContext } from "~/server/db-context.server";
import * as accountLayout from "~/routes/account/layout";
import * as addOrder from "~/routes/account/add-order";
import { checkoutInput } from "../support/checkout-fixture";
import { postToRoute, ROUTE_ORIGIN, sessionCookie } from "../support/route-call";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const siteUrl = ROUTE_ORIGIN;

describe("a guest order enters an account only when its owner adds it (issue 39)", () => {
  let test: TestDatabase;
  let owner: { id: string; cookie: string };
  let otherCustomer: string;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    // The demo customer's ownership of the address is proven (the seed, decision 0072).
    const [account] = await test.db.select({ id: users.id, provenAt: users.ownershipProvenAt }).from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    expect(account!.provenAt).not.toBeNull();
    owner = { id: account!.id, cookie: await sessionCookie(test.db, DEMO_CUSTOMER) };
    const other = { email: `otra-${randomUUID().slice(0, 8)}@prueba.pe`, password: "Agua1234x" };
    const registered = await register(test.db, { firstName: "Otra", lastName: "Clienta", ...other, client: "claim-register" });
    if (!registered.ok) throw new Error("second customer not registered");
    otherCustomer = await sessionCookie(test.db, other);
  });
  afterAll(() => test.close());

  /** A guest checkout (nobody signed in) with this address, paid by card: its confirmation e-mail is queued. */
  async function paidGuestOrder(email: string) {
    const now = new Date();
    const placed = await placeOrder(test.db, checkoutInput(now, { correo: email }), { now, provider: "sandbox" });
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now, siteUrl });
    return { id: placed.orderId, orderNumber: placed.orderNumber };
  }
  const ownerOf = async (orderId: string) => (await test.db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId)))[0]!.userId;
  const historyOf = (orderId: string) =>
    test.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, orderId)).orderBy(asc(orderStatusChanges.id));
  const inOwnersList = async (orderId: string) =>
    (await listOrdersForUser(test.db, owner.id, { page: 1, pageSize: 1000 })).rows.some((row) => row.id === orderId);

  /** The link "Agregar este pedido a mi cuenta" of the order's confirmation e-mail, or null. */
  async function claimLinkOf(orderId: string): Promise<URL | null> {
    const [email] = await test.db
      .select({ text: outboxEmails.text, html: outboxEmails.html })
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `order-confirmation:${orderId}`));
    if (!email) throw new Error("no confirmation e-mail");
    const match = /Agregar este pedido a mi cuenta: (\S+)/.exec(email.text);
    if (match) expect(email.html).toContain("Agregar este pedido a mi cuenta");
    return match ? new URL(match[1]!) : null;
  }

  const post = (orderId: string, token: string, cookie?: string) =>
    postToRoute({
      db: test.db,
      dbContext,
      outer: accountLayout.middleware,
      route: addOrder as never,
      path: `/dashboard/agregar-pedido/${orderId}`,
      params: { orderId },
      body: new URLSearchParams({ token }),
      cookie,
    });

  /** The page's GET, behind the account area's middleware, as the server runs it. */
  async function open(orderId: string, token: string, cookie?: string) {
    const context = new RouterContextProvider();
    context.set(dbContext, test.db);
    const path = `/dashboard/agregar-pedido/${orderId}?token=${encodeURIComponent(token)}`;
    const request = new Request(`${ROUTE_ORIGIN}${path}`, { headers: cookie ? { cookie } : {} });
    const args = { request, params: { orderId }, context, unstable_pattern: "" } as never;
    const middleware = accountLayout.middleware as unknown as MiddlewareFunction<unknown>[];
    const step = async (index: number): Promise<unknown> =>
      index < middleware.length ? middleware[index]!(args, () => step(index + 1) as never) : addOrder.loader(args);
    try {
      return { status: 200, data: (await step(0)) as Awaited<ReturnType<typeof addOrder.loader>> };
    } catch (thrown) {
      if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location") };
      const init = (thrown as { init?: { status?: number } }).init;
      if (init?.status) return { status: init.status };
      throw thrown;
    }
  }

  it("leaves a guest checkout with a registered, proven e-mail out of that account, and offers the owner the link by e-mail", async () => {
    const order = await paidGuestOrder(DEMO_CUSTOMER.email);
    expect(await ownerOf(order.id)).toBeNull();
    expect(await inOwnersList(order.id)).toBe(false);

    const link = await claimLinkOf(order.id);
    expect(link?.pathname).toBe(`/dashboard/agregar-pedido/${order.id}`);
    // An address without an account (or whose owner never proved it) gets no such link.
    const unknown = await paidGuestOrder(`nadie-${randomUUID().slice(0, 8)}@prueba.pe`);
    expect(await claimLinkOf(unknown.id)).toBeNull();
  });

  it("sends a visitor who is not signed in to /login and back, on the page and on its button, and changes nothing", async () => {
    const order = await paidGuestOrder(DEMO_CUSTOMER.email);
    const token = (await claimLinkOf(order.id))!.searchParams.get("token")!;
    const page = await open(order.id, token);
    expect(page.status).toBe(302);
    expect(page.location).toBe(`/login?redirectTo=${encodeURIComponent(`/dashboard/agregar-pedido/${order.id}?token=${token}`)}`);
    const posted = await post(order.id, token);
    expect(posted.status).toBe(302);
    expect(posted.location).toMatch(/^\/login\?redirectTo=/);
    expect(await ownerOf(order.id)).toBeNull();
  });

  it("refuses another customer, in Spanish, and changes nothing", async () => {
    const order = await paidGuestOrder(DEMO_CUSTOMER.email);
    const token = (await claimLinkOf(order.id))!.searchParams.get("token")!;
    const page = await open(order.id, token, otherCustomer);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ orderNumber: null, refusal: expect.stringContaining("correo de otra cuenta") });
    const posted = await post(order.id, token, otherCustomer);
    expect(posted).toMatchObject({ status: 403, data: { added: false, error: expect.stringContaining("correo de otra cuenta") } });
    expect(await ownerOf(order.id)).toBeNull();
  });

  it("opening the page changes nothing; the owner's POST adds the order, once, with a line in its history", async () => {
    const order = await paidGuestOrder(DEMO_CUSTOMER.email);
    const token = (await claimLinkOf(order.id))!.searchParams.get("token")!;
    const historyBefore = (await historyOf(order.id)).length;

    const page = await open(order.id, token, owner.cookie);
    expect(page).toMatchObject({ status: 200, data: { orderNumber: order.orderNumber, alreadyInAccount: false, refusal: null } });
    expect(await ownerOf(order.id)).toBeNull();
    expect(await historyOf(order.id)).toHaveLength(historyBefore);

    expect(await post(order.id, token, owner.cookie)).toMatchObject({ status: 200, data: { added: true, error: null } });
    expect(await ownerOf(order.id)).toBe(owner.id);
    expect(await inOwnersList(order.id)).toBe(true);
    const history = await historyOf(order.id);
    expect(history).toHaveLength(historyBefore + 1);
    expect(history.at(-1)).toMatchObject({ actor: "customer", fromStatus: "paid", toStatus: "paid" });
    expect(history.at(-1)!.note).toContain(DEMO_CUSTOMER.email);

    // A second POST (a double click, the back button) changes nothing.
    const updatedAt = (await test.db.select({ updatedAt: orders.updatedAt }).from(orders).where(eq(orders.id, order.id)))[0]!.updatedAt;
    expect(await post(order.id, token, owner.cookie)).toMatchObject({ status: 200, data: { added: true } });
    expect(await historyOf(order.id)).toHaveLength(historyBefore + 1);
    expect((await test.db.select({ updatedAt: orders.updatedAt }).from(orders).where(eq(orders.id, order.id)))[0]!.updatedAt).toEqual(updatedAt);
    expect(await open(order.id, token, owner.cookie)).toMatchObject({ status: 200, data: { alreadyInAccount: true } });
  });

  it("refuses a forged token, another order's token and a token for another address", async () => {
    const order = await paidGuestOrder(DEMO_CUSTOMER.email);
    const another = await paidGuestOrder(DEMO_CUSTOMER.email);
    const anothersToken = (await claimLinkOf(another.id))!.searchParams.get("token")!;
    const forged = "A".repeat(anothersToken.length);
    for (const token of [forged, anothersToken, orderClaimToken(order.id, "otra@prueba.pe"), ""]) {
      expect((await open(order.id, token, owner.cookie)).status, token).toBe(404);
      expect(await post(order.id, token, owner.cookie), token).toMatchObject({ status: 404, data: { added: false } });
    }
    expect(await ownerOf(order.id)).toBeNull();
    expect(await ownerOf(another.id)).toBeNull();
  });

  it("a password reset of an account already proven attaches no guest order placed since (only the first proof does)", async () => {
    const email = `probada-${randomUUID().slice(0, 8)}@prueba.pe`;
    const signedUp = await register(test.db, { firstName: "Luz", lastName: "Ramos", email, password: "Agua1234x", client: "claim-reset" });
    if (!signedUp.ok) throw new Error("not registered");
    const resetWithLink = async (password: string) => {
      await requestPasswordReset(test.db, { email, client: `claim-reset-${password}` });
      const rows = await test.db
        .select({ text: outboxEmails.text })
        .from(outboxEmails)
        .where(and(eq(outboxEmails.toAddress, email), eq(outboxEmails.kind, "password_reset")));
      const token = decodeURIComponent(/token=([^\s"&]+)/.exec(rows.at(-1)!.text)![1]!);
      expect(await resetPassword(test.db, { token, password })).toMatchObject({ ok: true });
    };
    const before = await paidGuestOrder(email);
    await resetWithLink("Primera1234");
    const [account] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    expect(await ownerOf(before.id)).toBe(account!.id);

    const since = await paidGuestOrder(email);
    expect(await ownerOf(since.id)).toBeNull();
    await resetWithLink("Segunda1234");
    expect(await ownerOf(since.id)).toBeNull();
  });
});
