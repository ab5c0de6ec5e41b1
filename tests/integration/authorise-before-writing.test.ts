// Issue 24, defect 1's audit (decision 0071): an action authorises and locks before it writes, and
// a refusal rolls back. These are the frames many actions share; each test names what used to
// commit on a refusal.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscriptionEvents, subscriptions } from "@server/db/schema";
import { changeOwnedSubscription, refuse } from "@server/subscriptions/self-service/change";
import { newCustomer, siteUrl, start, subscribe } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

describe("a refusal writes nothing", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("rolls back what a subscription change wrote before it refused (the self-service frame used to commit it)", async () => {
    const customer = await newCustomer(test.db, "rehusa");
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    const eventsBefore = await test.db.select().from(subscriptionEvents).where(eq(subscriptionEvents.subscriptionId, subscriptionId));
    const result = await changeOwnedSubscription(
      test.db,
      { userId: customer.id, subscriptionId, requestKey: "rehusa-1", now: start, siteUrl },
      "organization",
      async (tx, subscription) => {
        // A change that writes, and only then finds it must refuse.
        await tx.update(subscriptions).set({ address: "Escrito antes de rehusar" }).where(eq(subscriptions.id, subscription.id));
        return refuse("No se puede.", "organizationId");
      },
    );
    expect(result).toEqual({ ok: false, reason: "refused", message: "No se puede.", field: "organizationId" });
    const [row] = await test.db.select({ address: subscriptions.address }).from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(row!.address).not.toBe("Escrito antes de rehusar");
    expect(await test.db.select().from(subscriptionEvents).where(eq(subscriptionEvents.subscriptionId, subscriptionId))).toEqual(eventsBefore);
  });

  it("answers another customer's subscription as a missing one and touches nothing", async () => {
    const owner = await newCustomer(test.db, "duena");
    const stranger = await newCustomer(test.db, "extrana");
    const subscriptionId = await subscribe(test.db, owner, "mensual");
    let applied = false;
    const result = await changeOwnedSubscription(
      test.db,
      { userId: stranger.id, subscriptionId, requestKey: "ajena-1", now: start, siteUrl },
      "organization",
      async () => {
        applied = true;
        return refuse("No debería llegar aquí.");
      },
    );
    expect(result).toEqual({ ok: false, reason: "not_found" });
    expect(applied).toBe(false);
  });
});
