import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { subscriptionPeriods, subscriptions, users } from "@server/db/schema";
import { createCulqiClient } from "@server/payments/culqi";
import { culqiCardProvider } from "@server/payments/cards";
import { activateSubscription, renewDueSubscriptions } from "@server/subscriptions/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { startCulqiMock, type CulqiMock } from "../support/culqi-mock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const holder = { email: "rosa@example.pe", firstName: "Rosa", lastName: "Quispe", phone: "987654321", address: "Av. Larco 123" };
const siteUrl = "http://localhost:3000";

describe("saved cards with Culqi (customers, cards, charges by card id)", () => {
  let culqi: CulqiMock;
  let test: TestDatabase;
  beforeAll(async () => {
    culqi = await startCulqiMock();
    test = await createTestDatabase("seeded");
  });
  afterAll(async () => {
    await culqi.close();
    await test.close();
  });
  const provider = (timeoutMs = 2000) => culqiCardProvider(createCulqiClient({ secretKey: culqi.secretKey, apiBase: culqi.apiBase, timeoutMs }));

  it("saves a card on a new Culqi customer, reuses the customer for the next card, and refuses a declined card", async () => {
    const saved = await provider().saveCard({ holder, token: await culqi.tokenize("4111111111111111"), existingCustomerId: null });
    expect(saved).toMatchObject({ ok: true, brand: "Visa", last4: "1111" });
    if (!saved.ok) throw new Error("not saved");
    expect(saved.customerId).toMatch(/^cus_test_/);
    expect(saved.cardId).toMatch(/^crd_test_/);
    const second = await provider().saveCard({ holder, token: await culqi.tokenize("5111111111111118"), existingCustomerId: saved.customerId });
    expect(second).toMatchObject({ ok: true, customerId: saved.customerId, last4: "1118" });
    const refused = await provider().saveCard({
      holder: { ...holder, email: "otra@example.pe" },
      token: await culqi.tokenize("4000040000000008"),
      existingCustomerId: null,
    });
    expect(refused).toEqual({ ok: false, message: expect.stringContaining("fondos suficientes") });
  });

  it("charges the saved card with the attempt's key in the metadata, finds it by that key, and reports declines", async () => {
    const saved = await provider().saveCard({
      holder: { ...holder, email: "cobros@example.pe" },
      token: await culqi.tokenize("4111111111111111"),
      existingCustomerId: null,
    });
    if (!saved.ok) throw new Error("not saved");
    const since = new Date(Date.now() - 1000);
    const charge = await provider().chargeCard({
      customerId: saved.customerId,
      cardId: saved.cardId,
      amountCents: 5700,
      email: "cobros@example.pe",
      chargeKey: "sub-1:2:1",
      description: "Renovación",
    });
    expect(charge).toMatchObject({ outcome: "paid" });
    expect(culqi.chargeRequests.at(-1)!.body).toMatchObject({ source_id: saved.cardId, amount: 5700, metadata: { charge_key: "sub-1:2:1" } });
    expect(await provider().findCharge({ chargeKey: "sub-1:2:1", email: "cobros@example.pe", since })).toMatchObject({ paid: true });
    expect(await provider().findCharge({ chargeKey: "sub-1:3:1", email: "cobros@example.pe", since })).toBeNull();

    culqi.declineSavedCard(saved.cardId);
    expect(
      await provider().chargeCard({
        customerId: saved.customerId,
        cardId: saved.cardId,
        amountCents: 5700,
        email: "cobros@example.pe",
        chargeKey: "sub-1:3:1",
        description: "Renovación",
      }),
    ).toMatchObject({ outcome: "declined" });
  });

  it("treats a charge whose answer never came as unknown, and finds it paid afterwards", async () => {
    const saved = await provider().saveCard({
      holder: { ...holder, email: "lento@example.pe" },
      token: await culqi.tokenize("4111111111111111"),
      existingCustomerId: null,
    });
    if (!saved.ok) throw new Error("not saved");
    culqi.delayNextCharge(800);
    const since = new Date(Date.now() - 1000);
    const charge = await provider(200).chargeCard({
      customerId: saved.customerId,
      cardId: saved.cardId,
      amountCents: 5700,
      email: "lento@example.pe",
      chargeKey: "sub-2:2:1",
      description: "Renovación",
    });
    expect(charge.outcome).toBe("unknown");
    await expect.poll(() => provider().findCharge({ chargeKey: "sub-2:2:1", email: "lento@example.pe", since })).toMatchObject({ paid: true });
  });

  it("subscribes and renews through Culqi end to end", async () => {
    const userId = "user-culqi";
    await test.db
      .insert(users)
      .values({ id: userId, name: "Rosa Quispe", email: "suscrita@example.pe", emailVerified: true, firstName: "Rosa", lastName: "Quispe" });
    const now = new Date("2026-11-23T15:00:00Z");
    const placed = await placeOrder(
      test.db,
      checkoutInput(now, {
        purchaseType: "subscription",
        correo: "suscrita@example.pe",
        items: [{ productId: 1, variantId: 1, quantity: 2 }],
        clientSubtotalCents: 6000,
      }),
      { now, provider: "culqi", userId },
    );
    if (!placed.ok || placed.nextStep !== "tokenize_card") throw new Error("not placed");
    const result = await activateSubscription(test.db, {
      subscriptionId: placed.subscriptionId,
      userId,
      token: await culqi.tokenize("4111111111111111", "suscrita@example.pe"),
      cards: provider(),
      now,
      siteUrl,
    });
    expect(result).toMatchObject({ ok: true });
    await renewDueSubscriptions(test.db, { now: new Date("2026-12-23T17:00:00Z"), siteUrl, cardsFor: () => provider() });
    const periods = await test.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, placed.subscriptionId));
    expect(periods.map((period) => period.status).sort()).toEqual(["paid", "paid"]);
    const [subscription] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, placed.subscriptionId));
    expect(subscription).toMatchObject({ status: "active", paymentProvider: "culqi", nextPeriodNumber: 3 });
    const keys = culqi.chargeRequests.filter((request) =>
      String((request.body.metadata as Record<string, string> | undefined)?.charge_key ?? "").startsWith(placed.subscriptionId),
    );
    expect(keys.map((request) => (request.body.metadata as Record<string, string>).charge_key)).toEqual([
      `${placed.subscriptionId}:1:1`,
      `${placed.subscriptionId}:2:1`,
    ]);
    expect(
      await test.db
        .select()
        .from(subscriptionPeriods)
        .where(like(subscriptionPeriods.chargeKey, `${placed.subscriptionId}:%`)),
    ).toHaveLength(2);
  });
});
