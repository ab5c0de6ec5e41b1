import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveries } from "@server/db/schema";
import { findSubscriptionForUser, pauseSubscription } from "@server/subscriptions/index.server";
import { limaNoon, newCustomer, runJobs, siteUrl, subscribe, subscriptionRow } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * A pause means no charge and no delivery until it ends (issue 5). Fixture: subscribed Monday
 * 23 November 2026, first delivery Wednesday the 25th (created at once), next charge 23 December,
 * Miraflores served on Monday, Wednesday and Friday.
 */
describe("a paused subscription's dates", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  const deliveriesOf = (subscriptionId: string) =>
    test.db.select().from(deliveries).where(eq(deliveries.subscriptionId, subscriptionId)).orderBy(asc(deliveries.deliveryDate));
  const pause = (customer: { id: string }, subscriptionId: string, until: string, day: string) =>
    pauseSubscription(test.db, { userId: customer.id, subscriptionId, requestKey: randomUUID(), now: limaNoon(day), siteUrl, until });

  it("hands back a delivery created inside the pause and brings it after the pause, where the page shows it", async () => {
    const customer = await newCustomer(test.db, "pausa");
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    expect((await deliveriesOf(subscriptionId)).map((row) => [row.deliveryDate, row.status])).toEqual([["2026-11-25", "pending"]]);

    expect(await pause(customer, subscriptionId, "2026-11-28", "2026-11-24")).toMatchObject({ ok: true });
    const [handedBack] = await deliveriesOf(subscriptionId);
    expect(handedBack).toMatchObject({ deliveryDate: "2026-11-25", status: "cancelled", subscriptionSequence: null });
    expect(handedBack!.statusHistory.map((entry) => entry.status)).toEqual(["pending", "cancelled"]);

    const view = (await findSubscriptionForUser(test.db, customer.id, subscriptionId, limaNoon("2026-11-24")))!;
    expect(view).toMatchObject({
      status: "paused",
      pausedUntil: "2026-11-28",
      nextBillingDate: "2026-12-23",
      nextDeliveryDate: "2026-11-30",
      upcomingDeliveryDate: "2026-11-30",
    });

    // The pause ends on the 28th: the delivery paid for comes on Monday the 30th, as the page said.
    await runJobs(test.db, "2026-11-25", "2026-12-01");
    const open = (await deliveriesOf(subscriptionId)).filter((row) => row.status !== "cancelled");
    expect(open.map((row) => [row.deliveryDate, row.subscriptionSequence])).toEqual([["2026-11-30", 1]]);
    expect(await subscriptionRow(test.db, subscriptionId)).toMatchObject({ status: "active", nextBillingDate: "2026-12-23", deliveriesMade: 1 });
  });

  it("shows the charge and the delivery a pause over the billing date really gives, never a date inside the pause", async () => {
    const customer = await newCustomer(test.db, "pausa");
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    await runJobs(test.db, "2026-11-24", "2026-11-26");
    expect(await pause(customer, subscriptionId, "2026-12-26", "2026-12-09")).toMatchObject({ ok: true });

    const view = (await findSubscriptionForUser(test.db, customer.id, subscriptionId, limaNoon("2026-12-09")))!;
    // Stored before the pause: charge 23 December, delivery Wednesday 30 December. The charge
    // waits for the resume on the 26th; the delivery after it stays as planned.
    expect(view).toMatchObject({ nextBillingDate: "2026-12-26", nextDeliveryDate: "2026-12-30", upcomingDeliveryDate: "2026-12-30" });

    await runJobs(test.db, "2026-12-10", "2026-12-31");
    const charged = await subscriptionRow(test.db, subscriptionId);
    expect(charged).toMatchObject({ status: "active", nextBillingDate: "2027-01-26" });
    const made = (await deliveriesOf(subscriptionId)).filter((row) => row.status !== "cancelled").map((row) => row.deliveryDate);
    expect(made).toEqual(["2026-11-25", "2026-12-30"]);
    expect(made.some((date) => date > "2026-12-09" && date <= "2026-12-26")).toBe(false);
    expect(
      await test.db
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.subscriptionId, subscriptionId), eq(deliveries.status, "cancelled"))),
    ).toEqual([]);
  });
});
