import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { invoices, orders, paymentMethods, subscriptionPeriods, subscriptions, users } from "@server/db/schema";
import { flowCardProvider, FLOW_REGISTRATION_FAILED, sandboxCardProvider } from "@server/payments/index.server";
import { createFlowClient, startFlowCardRegistration, type FlowClient } from "@server/payments/flow";
import { completeFlowCardRegistration, renewDueSubscriptions } from "@server/subscriptions/index.server";
import { sameOriginMiddleware } from "~/server/csrf.server";
import { action as flowReturnPost } from "~/routes/api/flow-register-return";
import { checkoutInput } from "../support/checkout-fixture";
import { FLOW_TEST_CARD, startFlowMock, type FlowMock } from "../support/flow-mock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-23T15:00:00Z");
const siteUrl = "http://shop.test";

interface Customer {
  id: string;
  email: string;
  fullName: string;
}

describe("Flow adapter against a local Flow API", () => {
  let test: TestDatabase;
  let flow: FlowMock;
  let client: FlowClient;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    flow = await startFlowMock();
    client = createFlowClient({ apiKey: flow.apiKey, secretKey: flow.secretKey, apiBase: flow.apiBase, timeoutMs: 1000 });
  });
  afterAll(async () => {
    await flow.close();
    await test.close();
  });

  async function newCustomer(): Promise<Customer> {
    const id = randomUUID();
    const email = `flow-${id.slice(0, 8)}@prueba.pe`;
    await test.db.insert(users).values({ id, name: "Rosa Quispe", email, emailVerified: true, firstName: "Rosa", lastName: "Quispe" });
    return { id, email, fullName: "Rosa Quispe" };
  }

  /** A mensual subscription of two packs of 12 × 625 ml (S/ 60.00; first charge S/ 57.00), waiting for its card. */
  async function subscribe(customer: Customer) {
    const placed = await placeOrder(
      test.db,
      checkoutInput(now, {
        purchaseType: "subscription",
        subscriptionFrequency: "mensual",
        correo: customer.email,
        items: [{ productId: 1, variantId: 1, quantity: 2 }],
        clientSubtotalCents: 6000,
        // Issue 41: a second subscription of the same account (a test below) is one the customer confirmed.
        otraSuscripcion: true,
      }),
      { now, provider: "sandbox", userId: customer.id },
    );
    if (!placed.ok || placed.nextStep !== "tokenize_card") throw new Error(`not a subscription checkout: ${JSON.stringify(placed)}`);
    return placed;
  }

  /** The customer goes to Flow's page from the shop and decides there; the token is what Flow posts back. */
  async function registerAtFlow(customer: Customer, decision: "approve" | "reject") {
    const started = await startFlowCardRegistration(test.db, client, { user: customer, siteUrl });
    if (!started.ok) throw new Error(started.message);
    const url = new URL(started.redirectUrl);
    const token = url.searchParams.get("token")!;
    flow.decide(token, decision);
    return { token, url };
  }

  const subscriptionRow = async (id: string) => (await test.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  const holderOf = (customer: Customer) => ({ email: customer.email, firstName: "Rosa", lastName: "Quispe", phone: "987654321", address: "Av. Larco 123" });

  describe("the client", () => {
    it("signs every request: a form-encoded POST and a GET with the parameters in the query", async () => {
      const created = await client.createCustomer({ name: "Rosa Quispe", email: "firma@prueba.pe", externalId: "ext-1" });
      expect(created).toMatchObject({ kind: "ok", body: { email: "firma@prueba.pe", externalId: "ext-1", status: "1" } });
      const customerId = created.kind === "ok" ? created.body.customerId : "";
      expect(await client.getCustomer(customerId)).toMatchObject({ kind: "ok", body: { customerId } });
      const [post, get] = flow.requests.slice(-2);
      expect(post).toMatchObject({
        method: "POST",
        path: "/customer/create",
        status: 200,
        params: { apiKey: flow.apiKey, name: "Rosa Quispe", email: "firma@prueba.pe", externalId: "ext-1" },
      });
      expect(get).toMatchObject({ method: "GET", path: "/customer/get", status: 200, params: { apiKey: flow.apiKey, customerId } });
      expect(post!.params.s).toMatch(/^[0-9a-f]{64}$/);
    });

    it("gets a 401 with Flow's code and message when the signature is wrong", async () => {
      const forger = createFlowClient({ apiKey: flow.apiKey, secretKey: "not-the-secret-key-0000", apiBase: flow.apiBase, timeoutMs: 1000 });
      expect(await forger.createCustomer({ name: "Intruso", email: "intruso@prueba.pe", externalId: "x" })).toEqual({
        kind: "refused",
        status: 401,
        code: 109,
        message: "Firma inválida",
      });
      expect(flow.requests.at(-1)).toMatchObject({ path: "/customer/create", status: 401 });
    });

    it("reports no answer when Flow is slower than the timeout", async () => {
      const impatient = createFlowClient({ apiKey: flow.apiKey, secretKey: flow.secretKey, apiBase: flow.apiBase, timeoutMs: 100 });
      flow.delayNextResponse(400);
      expect(await impatient.createCustomer({ name: "Lenta", email: "lenta@prueba.pe", externalId: "y" })).toMatchObject({ kind: "unavailable" });
    });

    it("reads a registration as not registered until the customer approves, and as registered after", async () => {
      const customer = await newCustomer();
      const started = await startFlowCardRegistration(test.db, client, { user: customer, siteUrl });
      if (!started.ok) throw new Error(started.message);
      const url = new URL(started.redirectUrl);
      expect(url.origin + url.pathname).toBe(`${flow.hostedOrigin}/app/webpay/disclaimer.php`);
      const token = url.searchParams.get("token")!;
      expect(flow.requests.at(-1)).toMatchObject({ path: "/customer/register", params: { url_return: `${siteUrl}/api/pagos/flow/registro` } });

      const before = await client.getRegisterStatus(token);
      expect(before).toMatchObject({ kind: "ok", body: { status: "0" } });
      flow.decide(token, "approve");
      expect(await client.getRegisterStatus(token)).toEqual({
        kind: "ok",
        body: { status: "1", customerId: before.kind === "ok" ? before.body.customerId : "", creditCardType: "Visa", last4CardDigits: FLOW_TEST_CARD.last4 },
      });
    });

    it("reads a rejected registration as not registered", async () => {
      const { token } = await registerAtFlow(await newCustomer(), "reject");
      expect(await client.getRegisterStatus(token)).toMatchObject({ kind: "ok", body: { status: "0", creditCardType: null, last4CardDigits: null } });
    });
  });

  describe("the card provider", () => {
    it("saves the card Flow registered: the customer, brand and last four digits", async () => {
      const customer = await newCustomer();
      const { token } = await registerAtFlow(customer, "approve");
      const saved = await flowCardProvider(client).saveCard({ holder: holderOf(customer), token, existingCustomerId: null });
      const customerId = [...flow.customers.values()].find((candidate) => candidate.email === customer.email)!.customerId;
      expect(saved).toEqual({ ok: true, customerId, cardId: `${customerId}:${token}`, brand: "Visa", last4: FLOW_TEST_CARD.last4 });
    });

    it("refuses a registration Flow reports as not done, and one made by another account", async () => {
      const cards = flowCardProvider(client);
      const rejected = await registerAtFlow(await newCustomer(), "reject");
      expect(await cards.saveCard({ holder: holderOf(await newCustomer()), token: rejected.token, existingCustomerId: null })).toEqual({
        ok: false,
        message: FLOW_REGISTRATION_FAILED,
      });
      const someoneElses = await registerAtFlow(await newCustomer(), "approve");
      expect(await cards.saveCard({ holder: holderOf(await newCustomer()), token: someoneElses.token, existingCustomerId: null })).toEqual({
        ok: false,
        message: "Este registro de tarjeta no pertenece a tu cuenta.",
      });
    });

    it("charges the registered card in soles under the shop's key, and finds the charge again by that key", async () => {
      const customer = await newCustomer();
      const { token } = await registerAtFlow(customer, "approve");
      const cards = flowCardProvider(client);
      const saved = await cards.saveCard({ holder: holderOf(customer), token, existingCustomerId: null });
      if (!saved.ok) throw new Error(saved.message);
      const chargeKey = `${randomUUID()}:2:1`;
      const charge = await cards.chargeCard({
        customerId: saved.customerId,
        cardId: saved.cardId,
        amountCents: 5700,
        email: customer.email,
        chargeKey,
        description: "Suscripción S-1001, periodo 2",
      });
      const payment = flow.payments.get(chargeKey)!;
      expect(charge).toEqual({ outcome: "paid", chargeId: String(payment.flowOrder) });
      expect(payment).toMatchObject({ amount: 57, currency: "PEN", status: 2, customerId: saved.customerId, subject: "Suscripción S-1001, periodo 2" });
      expect(await cards.findCharge({ chargeKey, email: customer.email, since: now })).toEqual({ chargeId: String(payment.flowOrder), paid: true });
      expect(await cards.findCharge({ chargeKey: `${randomUUID()}:2:1`, email: customer.email, since: now })).toBeNull();
    });

    it("reports a rejected charge as declined, and finds it as not paid", async () => {
      const customer = await newCustomer();
      const { token } = await registerAtFlow(customer, "approve");
      flow.declineChargesFor(customer.email);
      const cards = flowCardProvider(client);
      const saved = await cards.saveCard({ holder: holderOf(customer), token, existingCustomerId: null });
      if (!saved.ok) throw new Error(saved.message);
      const chargeKey = `${randomUUID()}:2:1`;
      expect(
        await cards.chargeCard({
          customerId: saved.customerId,
          cardId: saved.cardId,
          amountCents: 5700,
          email: customer.email,
          chargeKey,
          description: "Renovación",
        }),
      ).toMatchObject({ outcome: "declined" });
      expect(await cards.findCharge({ chargeKey, email: customer.email, since: now })).toMatchObject({ paid: false });
    });

    it("calls a charge whose answer never came unknown, and its key finds it paid afterwards", async () => {
      const customer = await newCustomer();
      const { token } = await registerAtFlow(customer, "approve");
      const impatient = flowCardProvider(createFlowClient({ apiKey: flow.apiKey, secretKey: flow.secretKey, apiBase: flow.apiBase, timeoutMs: 100 }));
      const saved = await flowCardProvider(client).saveCard({ holder: holderOf(customer), token, existingCustomerId: null });
      if (!saved.ok) throw new Error(saved.message);
      const chargeKey = `${randomUUID()}:3:1`;
      flow.delayNextResponse(400);
      expect(
        await impatient.chargeCard({
          customerId: saved.customerId,
          cardId: saved.cardId,
          amountCents: 5700,
          email: customer.email,
          chargeKey,
          description: "Renovación",
        }),
      ).toMatchObject({ outcome: "unknown" });
      expect(await flowCardProvider(client).findCharge({ chargeKey, email: customer.email, since: now })).toMatchObject({ paid: true });
      expect([...flow.payments.values()].filter((payment) => payment.commerceOrder === chargeKey)).toHaveLength(1);
    });
  });

  describe("activating a subscription with the card registered at Flow", () => {
    it("charges the first period, activates the subscription and settles its order", async () => {
      const customer = await newCustomer();
      const placed = await subscribe(customer);
      const { token } = await registerAtFlow(customer, "approve");

      const outcome = await completeFlowCardRegistration(test.db, client, { userId: customer.id, token, now, siteUrl });
      expect(outcome).toEqual({ kind: "activated", subscriptionId: placed.subscriptionId, orderId: placed.orderId });

      expect(await subscriptionRow(placed.subscriptionId)).toMatchObject({
        status: "active",
        paymentProvider: "flow",
        cardBrand: "Visa",
        cardLast4: FLOW_TEST_CARD.last4,
        nextPeriodNumber: 2,
      });
      const [order] = await test.db.select().from(orders).where(eq(orders.id, placed.orderId));
      expect(order).toMatchObject({ status: "paid", totalCents: 5700 });
      expect(await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId))).toHaveLength(1);
      const payment = flow.payments.get(`${placed.subscriptionId}:1:1`)!;
      expect(payment).toMatchObject({ amount: 57, currency: "PEN", status: 2 });
      const [period] = await test.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, placed.subscriptionId));
      expect(period).toMatchObject({ periodNumber: 1, status: "paid", providerChargeId: String(payment.flowOrder) });
      const [method] = await test.db.select().from(paymentMethods).where(eq(paymentMethods.userId, customer.id));
      expect(method).toMatchObject({ provider: "flow", providerCustomerId: payment.customerId, last4: FLOW_TEST_CARD.last4 });
    });

    it("renews the subscription by charging the Flow card under the period's key", async () => {
      const customer = await newCustomer();
      const placed = await subscribe(customer);
      const { token } = await registerAtFlow(customer, "approve");
      await completeFlowCardRegistration(test.db, client, { userId: customer.id, token, now, siteUrl });
      const renewal = await renewDueSubscriptions(test.db, {
        now: new Date("2026-12-23T15:00:00Z"),
        siteUrl,
        cardsFor: (provider) => (provider === "flow" ? flowCardProvider(client) : sandboxCardProvider(test.db)),
      });
      expect(renewal.charged).toBeGreaterThanOrEqual(1);
      expect(flow.payments.get(`${placed.subscriptionId}:2:1`)).toMatchObject({ amount: 57, currency: "PEN", status: 2 });
      expect(await subscriptionRow(placed.subscriptionId)).toMatchObject({ status: "active", nextPeriodNumber: 3 });
    });

    it("reuses the account's Flow customer for a second subscription", async () => {
      const customer = await newCustomer();
      const first = await subscribe(customer);
      await completeFlowCardRegistration(test.db, client, { userId: customer.id, token: (await registerAtFlow(customer, "approve")).token, now, siteUrl });
      const second = await subscribe(customer);
      const { token } = await registerAtFlow(customer, "approve");
      expect(await completeFlowCardRegistration(test.db, client, { userId: customer.id, token, now, siteUrl })).toMatchObject({
        kind: "activated",
        subscriptionId: second.subscriptionId,
      });
      expect([...flow.customers.values()].filter((candidate) => candidate.email === customer.email)).toHaveLength(1);
      expect((await subscriptionRow(first.subscriptionId)).status).toBe("active");
      expect(
        await test.db
          .select()
          .from(paymentMethods)
          .where(and(eq(paymentMethods.userId, customer.id), eq(paymentMethods.provider, "flow"))),
      ).toHaveLength(2);
    });

    it("keeps the subscription pending when the registration was rejected; a new registration activates it", async () => {
      const customer = await newCustomer();
      const placed = await subscribe(customer);
      const rejected = await registerAtFlow(customer, "reject");
      expect(await completeFlowCardRegistration(test.db, client, { userId: customer.id, token: rejected.token, now, siteUrl })).toEqual({
        kind: "not_registered",
        subscriptionId: placed.subscriptionId,
      });
      expect((await subscriptionRow(placed.subscriptionId)).status).toBe("pending_payment");
      expect(flow.payments.has(`${placed.subscriptionId}:1:1`)).toBe(false);

      const approved = await registerAtFlow(customer, "approve");
      expect(await completeFlowCardRegistration(test.db, client, { userId: customer.id, token: approved.token, now, siteUrl })).toMatchObject({
        kind: "activated",
      });
    });

    it("reports a declined first charge as an activation failure, without activating", async () => {
      const customer = await newCustomer();
      const placed = await subscribe(customer);
      flow.declineChargesFor(customer.email);
      const { token } = await registerAtFlow(customer, "approve");
      expect(await completeFlowCardRegistration(test.db, client, { userId: customer.id, token, now, siteUrl })).toMatchObject({
        kind: "activation_failed",
        subscriptionId: placed.subscriptionId,
      });
      expect((await subscriptionRow(placed.subscriptionId)).status).toBe("pending_payment");
    });

    it("never charges a card registered by another account", async () => {
      const victim = await newCustomer();
      const intruder = await newCustomer();
      const placed = await subscribe(intruder);
      const { token } = await registerAtFlow(victim, "approve");
      expect(await completeFlowCardRegistration(test.db, client, { userId: intruder.id, token, now, siteUrl })).toMatchObject({ kind: "activation_failed" });
      expect(flow.payments.has(`${placed.subscriptionId}:1:1`)).toBe(false);
      expect((await subscriptionRow(placed.subscriptionId)).status).toBe("pending_payment");
    });

    it("answers no pending subscription for a customer without one", async () => {
      const customer = await newCustomer();
      const { token } = await registerAtFlow(customer, "approve");
      expect(await completeFlowCardRegistration(test.db, client, { userId: customer.id, token, now, siteUrl })).toEqual({ kind: "no_pending" });
    });

    it("reports Flow's refusal of the lookup as a Flow error", async () => {
      const customer = await newCustomer();
      await subscribe(customer);
      expect(
        await completeFlowCardRegistration(test.db, client, { userId: customer.id, token: "0000000000000000000000000000000000000000", now, siteUrl }),
      ).toEqual({ kind: "flow_error" });
    });
  });

  describe("Flow's POST back to the shop (url_return)", () => {
    /** What Flow's page does after the customer decides: a form that POSTs `token` to url_return from Flow's site. */
    async function flowReturnForm(decision: "approve" | "reject") {
      const customer = await newCustomer();
      const started = await startFlowCardRegistration(test.db, client, { user: customer, siteUrl });
      if (!started.ok) throw new Error(started.message);
      const token = new URL(started.redirectUrl).searchParams.get("token")!;
      const html = await (await fetch(`${flow.origin}/app/webpay/decide`, { method: "POST", body: new URLSearchParams({ token, decision }) })).text();
      const action = /<form id="return" method="post" action="([^"]+)">/.exec(html)?.[1];
      const posted = /name="token" value="([^"]+)"/.exec(html)?.[1];
      return { token, action: action!, posted: posted! };
    }

    const crossSitePost = (url: string, fields: Record<string, string>) =>
      new Request(url, {
        method: "POST",
        headers: { Origin: flow.hostedOrigin, "Sec-Fetch-Site": "cross-site", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });

    async function throughMiddleware(request: Request): Promise<{ passed: boolean; status: number | null }> {
      let passed = false;
      try {
        await sameOriginMiddleware({ request } as Parameters<typeof sameOriginMiddleware>[0], async () => {
          passed = true;
          return new Response(null);
        });
        return { passed, status: null };
      } catch (refusal) {
        return { passed, status: (refusal as { init?: { status?: number } }).init?.status ?? null };
      }
    }

    it("takes the token Flow's page posts from Flow's site and sends the customer to the return page with it", async () => {
      const { token, action, posted } = await flowReturnForm("approve");
      expect(action).toBe(`${siteUrl}/api/pagos/flow/registro`);
      expect(posted).toBe(token);

      const request = crossSitePost(action, { token: posted });
      expect(await throughMiddleware(request.clone())).toEqual({ passed: true, status: null });
      const response = await flowReturnPost({ request, params: {}, context: {} } as unknown as Parameters<typeof flowReturnPost>[0]);
      expect(response.status).toBe(303);
      expect(response.headers.get("Location")).toBe(`/flow/register-return?token=${token}`);
    });

    it("sends a POST without a usable token to the return page, which says no token came", async () => {
      for (const fields of [{}, { token: "" }, { token: "<script>" }] as Record<string, string>[]) {
        const response = await flowReturnPost({
          request: crossSitePost(`${siteUrl}/api/pagos/flow/registro`, fields),
          params: {},
          context: {},
        } as unknown as Parameters<typeof flowReturnPost>[0]);
        expect(response.headers.get("Location")).toBe("/flow/register-return");
      }
    });

    it("still refuses cross-site POSTs everywhere else, the customer's return page included", async () => {
      for (const path of ["/flow/register-return", "/api/pagos/flow/registro/otro", "/suscripcion/tarjeta/x", "/login"]) {
        expect(await throughMiddleware(crossSitePost(`${siteUrl}${path}`, { token: "ABC" }))).toEqual({ passed: false, status: 403 });
      }
    });
  });
});
