import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, orders, outboxEmails, payments, subscriptionPeriods, subscriptions, users } from "@server/db/schema";
import { runDueJobs } from "@server/jobs/index.server";
import type { MailTransport } from "@server/notifications/deliver";
import { sandboxCardProvider, sandboxCardToken } from "@server/payments/index.server";
import { applySandboxAction } from "@server/order-flows/index.server";
import { activateSubscription, changeBillingMethod } from "@server/subscriptions/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const siteUrl = "http://localhost:3000";
const start = new Date("2026-11-23T15:00:00Z");
const limaNoon = (date: string) => new Date(`${date}T17:00:00Z`);
/** Emails stay in the outbox table; this transport only counts what would leave. */
const nowhere: MailTransport = { send: async () => {} };

describe("paying each period through an emailed link (Yape)", () => {
  let test: TestDatabase;
  let userId: string;
  let subscriptionId: string;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    userId = "user-yape";
    await test.db.insert(users).values({ id: userId, name: "Ana Ríos", email: "yape@prueba.pe", emailVerified: true, firstName: "Ana", lastName: "Ríos" });
    const placed = await placeOrder(
      test.db,
      checkoutInput(start, {
        purchaseType: "subscription",
        correo: "yape@prueba.pe",
        items: [{ productId: 1, variantId: 1, quantity: 2 }],
        clientSubtotalCents: 6000,
      }),
      { now: start, provider: "sandbox", userId },
    );
    if (!placed.ok || placed.nextStep !== "tokenize_card") throw new Error("not placed");
    subscriptionId = placed.subscriptionId;
    await activateSubscription(test.db, {
      subscriptionId,
      userId,
      token: sandboxCardToken({ number: "4111111111111111" }),
      cards: sandboxCardProvider(test.db),
      now: start,
      siteUrl,
    });
  });
  afterAll(() => test.close());

  it("sends one link per period instead of charging the card, and a paid link renews the subscription", async () => {
    expect(await changeBillingMethod(test.db, { userId, subscriptionId, method: "payment_link", requestKey: "k1", now: start, siteUrl })).toMatchObject({
      ok: true,
    });
    expect(await changeBillingMethod(test.db, { userId: "someone-else", subscriptionId, method: "card", requestKey: "k2", now: start, siteUrl })).toMatchObject(
      { ok: false, reason: "not_found" },
    );
    await runDueJobs(test.db, { now: limaNoon("2026-12-23"), transport: nowhere, siteUrl });
    await runDueJobs(test.db, { now: limaNoon("2026-12-23"), transport: nowhere, siteUrl });

    const [period] = await test.db
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscriptionId), eq(subscriptionPeriods.periodNumber, 2)));
    expect(period).toMatchObject({ status: "awaiting_payment", amountCents: 5700 });
    const links = await test.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.toAddress, "yape@prueba.pe"), eq(outboxEmails.kind, "renewal_payment_link")));
    expect(links).toHaveLength(1);
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, period!.orderId!));
    expect(links[0]!.text).toContain(`/pago/sandbox/${payment!.id}`);

    await applySandboxAction(test.db, payment!.id, "issue_code", { now: limaNoon("2026-12-24"), siteUrl });
    await applySandboxAction(test.db, payment!.id, "pay_code", { now: limaNoon("2026-12-24"), siteUrl });
    await runDueJobs(test.db, { now: limaNoon("2026-12-24"), transport: nowhere, siteUrl });
    const [paid] = await test.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.id, period!.id));
    expect(paid?.status).toBe("paid");
    const [subscription] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(subscription).toMatchObject({ status: "active", nextPeriodNumber: 3, nextBillingDate: "2027-01-23" });
    await runDueJobs(test.db, { now: limaNoon("2026-12-26"), transport: nowhere, siteUrl });
    const made = await test.db.select().from(deliveries).where(eq(deliveries.subscriptionId, subscriptionId));
    expect(made.map((delivery) => delivery.orderId)).toContain(period!.orderId);
  });

  it("pauses the subscription as past due when a link expires unpaid", async () => {
    await runDueJobs(test.db, { now: limaNoon("2027-01-23"), transport: nowhere, siteUrl });
    const [period] = await test.db
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscriptionId), eq(subscriptionPeriods.periodNumber, 3)));
    expect(period?.status).toBe("awaiting_payment");
    await runDueJobs(test.db, { now: limaNoon("2027-01-31"), transport: nowhere, siteUrl });
    await runDueJobs(test.db, { now: limaNoon("2027-01-31"), transport: nowhere, siteUrl });
    const [order] = await test.db.select().from(orders).where(eq(orders.id, period!.orderId!));
    expect(order?.status).toBe("cancelled");
    const [subscription] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(subscription?.status).toBe("past_due");
    // Never charged to the card meanwhile: no card renewal ran for these periods.
    const cardOrders = await test.db
      .select()
      .from(orders)
      .where(and(eq(orders.subscriptionId, subscriptionId), eq(orders.paymentMethod, "card")));
    expect(cardOrders).toHaveLength(1);
  });
});
