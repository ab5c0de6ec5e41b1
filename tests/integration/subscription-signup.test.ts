import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, invoices, orders, paymentMethods, sandboxCharges, subscriptionPeriods, subscriptions, users } from "@server/db/schema";
import { sandboxCardProvider, sandboxCardToken, type CardProvider } from "@server/payments/index.server";
import { activateSubscription, renewDueSubscriptions } from "@server/subscriptions/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-23T15:00:00Z");
const siteUrl = "http://localhost:3000";
const visa = sandboxCardToken({ number: "4111111111111111" });

describe("subscribing with a saved card", () => {
  let test: TestDatabase;
  let userId: string;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [demo] = await test.db.select().from(users).where(eq(users.email, "cliente@demo.pe"));
    userId = demo!.id;
  });
  afterAll(() => test.close());

  async function subscribe(frequency: "mensual" | "anual" = "mensual") {
    // Two packs of 12 × 625 ml (S/ 60.00) a month.
    const placed = await placeOrder(
      test.db,
      checkoutInput(now, {
        purchaseType: "subscription",
        subscriptionFrequency: frequency,
        correo: "cliente@demo.pe",
        items: [{ productId: 1, variantId: 1, quantity: 2 }],
        clientSubtotalCents: 6000,
        organizationId: 1,
        // The demo customer already has SUS-001001 (issue 41: a second one is confirmed).
        otraSuscripcion: true,
      }),
      { now, provider: "sandbox", userId },
    );
    if (!placed.ok || placed.nextStep !== "tokenize_card") throw new Error(`not a subscription checkout: ${JSON.stringify(placed)}`);
    return placed;
  }

  it("refuses a subscription checkout without an account", async () => {
    const placed = await placeOrder(test.db, checkoutInput(now, { purchaseType: "subscription" }), { now, provider: "sandbox" });
    expect(placed).toEqual({ ok: false, reason: "account_required" });
  });

  it("refuses a second live subscription until the customer confirms it, naming the one they have, and writes nothing", async () => {
    const [live] = await test.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(live).toMatchObject({ status: "active" });
    const input = checkoutInput(now, {
      purchaseType: "subscription",
      correo: "cliente@demo.pe",
      items: [{ productId: 1, variantId: 1, quantity: 2 }],
      clientSubtotalCents: 6000,
    });
    const ordersBefore = (await test.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId))).length;
    expect(await placeOrder(test.db, input, { now, provider: "sandbox", userId })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: {
        otraSuscripcion: `Ya tienes la suscripción ${live!.subscriptionNumber}. Si quieres otra además, marca «Sí, quiero otra suscripción»; para cambiar la que tienes, ve a tu suscripción.`,
      },
    });
    expect(await test.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId))).toHaveLength(ordersBefore);
    // A one-time order of the same cart needs no confirmation; the confirmed subscription is placed.
    expect(
      await placeOrder(test.db, { ...input, checkoutKey: crypto.randomUUID(), purchaseType: "one-time" }, { now, provider: "sandbox", userId }),
    ).toMatchObject({ ok: true });
    expect(await placeOrder(test.db, { ...input, otraSuscripcion: true }, { now, provider: "sandbox", userId })).toMatchObject({
      ok: true,
      nextStep: "tokenize_card",
    });
  });

  it("creates the order and a pending subscription, then activates it with the first charge, invoice and delivery", async () => {
    const placed = await subscribe("mensual");
    const [pending] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, placed.subscriptionId));
    expect(pending).toMatchObject({
      status: "pending_payment",
      frequency: "mensual",
      baseAmountCents: 6000,
      amountCents: 5700,
      discountRateBasisPoints: 500,
      organizationId: 1,
    });

    const result = await activateSubscription(test.db, {
      subscriptionId: placed.subscriptionId,
      userId,
      token: visa,
      cards: sandboxCardProvider(test.db),
      now,
      siteUrl,
    });
    expect(result).toEqual({ ok: true, subscriptionId: placed.subscriptionId, alreadyActive: false });

    const [active] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, placed.subscriptionId));
    expect(active).toMatchObject({
      status: "active",
      startDate: "2026-11-23",
      nextBillingDate: "2026-12-23",
      nextPeriodNumber: 2,
      deliveriesMade: 1,
      cardBrand: "Visa",
      cardLast4: "1111",
    });
    // The first delivery is the checkout's Wednesday 25 Nov; the next, the same weekday a month later.
    expect(active!.nextDeliveryDate).toBe("2026-12-30");
    const [order] = await test.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(order).toMatchObject({ status: "paid", totalCents: 5700, orderType: "subscription", subscriptionId: placed.subscriptionId });
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId))).toHaveLength(1);
    const [delivery] = await test.db.select().from(deliveries).where(eq(deliveries.orderId, placed.orderId));
    expect(delivery).toMatchObject({ subscriptionId: placed.subscriptionId, subscriptionSequence: 1, deliveryDate: "2026-11-25" });
    const [period] = await test.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, placed.subscriptionId));
    expect(period).toMatchObject({ periodNumber: 1, status: "paid", orderId: placed.orderId, attempts: 1 });
    expect(await test.db.select().from(paymentMethods).where(eq(paymentMethods.id, active!.paymentMethodId!))).toHaveLength(1);
  });

  it("charges the anual plan 12 months at 85% once", async () => {
    const placed = await subscribe("anual");
    await activateSubscription(test.db, { subscriptionId: placed.subscriptionId, userId, token: visa, cards: sandboxCardProvider(test.db), now, siteUrl });
    const [active] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, placed.subscriptionId));
    expect(active).toMatchObject({ status: "active", amountCents: 61200, nextBillingDate: "2027-11-23" });
    const charges = await test.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.chargeKey, `${placed.subscriptionId}:1:1`));
    expect(charges.map((charge) => charge.amountCents)).toEqual([61200]);
  });

  it("keeps the subscription pending after a refused card, and a second card activates it", async () => {
    const placed = await subscribe();
    const refused = await activateSubscription(test.db, {
      subscriptionId: placed.subscriptionId,
      userId,
      token: sandboxCardToken({ number: "4000040000000008" }),
      cards: sandboxCardProvider(test.db),
      now,
      siteUrl,
    });
    expect(refused).toEqual({ ok: false, reason: "card_refused", message: "Tu tarjeta no tiene fondos suficientes." });
    const declined = await activateSubscription(test.db, {
      subscriptionId: placed.subscriptionId,
      userId,
      token: sandboxCardToken({ number: "4000000000000341" }),
      cards: sandboxCardProvider(test.db),
      now,
      siteUrl,
    });
    expect(declined).toMatchObject({ ok: false, reason: "charge_declined" });
    expect((await test.db.select().from(subscriptions).where(eq(subscriptions.id, placed.subscriptionId)))[0]?.status).toBe("pending_payment");

    expect(
      (await activateSubscription(test.db, { subscriptionId: placed.subscriptionId, userId, token: visa, cards: sandboxCardProvider(test.db), now, siteUrl }))
        .ok,
    ).toBe(true);
    const [period] = await test.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, placed.subscriptionId));
    expect(period).toMatchObject({ status: "paid", attempts: 3 });
  });

  it("charges once when the card form is submitted twice at the same time", async () => {
    const placed = await subscribe();
    const results = await Promise.all(
      [0, 1].map(() =>
        activateSubscription(test.db, { subscriptionId: placed.subscriptionId, userId, token: visa, cards: sandboxCardProvider(test.db), now, siteUrl }),
      ),
    );
    expect(results.filter((result) => result.ok && !result.alreadyActive)).toHaveLength(1);
    const charges = await test.db.select().from(sandboxCharges);
    expect(charges.filter((charge) => charge.chargeKey.startsWith(placed.subscriptionId))).toHaveLength(1);
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId))).toHaveLength(1);
  });

  it("activates a sign-up whose page died after the provider charged, without charging again", async () => {
    const placed = await subscribe();
    const crashing: CardProvider = {
      ...sandboxCardProvider(test.db),
      chargeCard: async (input) => {
        await sandboxCardProvider(test.db).chargeCard(input);
        throw new Error("process killed");
      },
    };
    const result = await activateSubscription(test.db, { subscriptionId: placed.subscriptionId, userId, token: visa, cards: crashing, now, siteUrl });
    expect(result).toEqual({ ok: false, reason: "in_progress" });
    // A second submit right away is told to wait, and charges nothing.
    expect(
      await activateSubscription(test.db, { subscriptionId: placed.subscriptionId, userId, token: visa, cards: sandboxCardProvider(test.db), now, siteUrl }),
    ).toEqual({ ok: false, reason: "in_progress" });

    const report = await renewDueSubscriptions(test.db, { now: new Date(now.getTime() + 5 * 60_000), siteUrl, cardsFor: () => sandboxCardProvider(test.db) });
    expect(report.reconciled).toBe(1);
    const [active] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, placed.subscriptionId));
    expect(active).toMatchObject({ status: "active", cardLast4: "1111" });
    expect(
      await test.db
        .select()
        .from(sandboxCharges)
        .where(like(sandboxCharges.chargeKey, `${placed.subscriptionId}:%`)),
    ).toHaveLength(1);
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId))).toHaveLength(1);
  });

  it("never activates another customer's subscription", async () => {
    const placed = await subscribe();
    const result = await activateSubscription(test.db, {
      subscriptionId: placed.subscriptionId,
      userId: "someone-else",
      token: visa,
      cards: sandboxCardProvider(test.db),
      now,
      siteUrl,
    });
    expect(result).toEqual({ ok: false, reason: "not_found" });
  });
});
