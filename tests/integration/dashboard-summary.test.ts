import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDashboard } from "@server/accounts/index.server";
import { deliveries, orders } from "@server/db/schema";
import { newCustomer, start, subscribe } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Issue 13: the dashboard reads the profile and its whole summary in one statement; these pin what
// that statement answers (counts, the JSON-carried rows and their types) against rows read here.
describe("customer dashboard in one read", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("counts a subscriber's order and delivery and lists them with the subscription", async () => {
    const customer = await newCustomer(test.db, "panel");
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    const [order] = await test.db.select().from(orders).where(eq(orders.userId, customer.id));
    const own = await test.db.select().from(deliveries).where(eq(deliveries.orderId, order!.id));

    const dashboard = await getDashboard(test.db, customer.id, start);
    expect(dashboard?.profile).toMatchObject({ id: customer.id, email: customer.email, fullName: "Rosa Quispe", districtName: null });
    const summary = dashboard!.summary;
    expect(summary.orderCount).toBe(1);
    expect(summary.deliveryCount).toBe(own.length);
    expect(summary.pendingInvoiceCount).toBe(0);
    expect(summary.recentOrders).toEqual([
      {
        id: order!.id,
        orderNumber: order!.orderNumber,
        createdAt: order!.createdAt.toISOString(),
        orderType: "subscription",
        status: order!.status,
        totalCents: 5700, // S/ 60.00 less the subscription discount
      },
    ]);
    expect(summary.subscription).toMatchObject({ id: subscriptionId, status: "active", frequency: "mensual" });
    // The first delivery (Wednesday 25 November) is upcoming on the Monday the fixture subscribes…
    const upcoming = own.filter((delivery) => delivery.deliveryDate >= "2026-11-23" && delivery.status !== "cancelled");
    expect(summary.upcomingDeliveryCount).toBe(upcoming.length);
    expect(summary.upcomingDeliveries.map((delivery) => delivery.deliveryDate)).toEqual(
      upcoming
        .map((delivery) => delivery.deliveryDate)
        .sort()
        .slice(0, 3),
    );
    expect(summary.upcomingDeliveries[0]).toMatchObject({ deliveryDate: "2026-11-25", deliveryWindow: own[0]!.deliveryWindow });
    // …and no longer a month later.
    const later = await getDashboard(test.db, customer.id, new Date("2026-12-26T15:00:00Z"));
    expect(later?.summary.upcomingDeliveryCount).toBe(0);
    expect(later?.summary.upcomingDeliveries).toEqual([]);
    expect(later?.summary.orderCount).toBe(1);
  });

  it("answers zeros and empty lists for a new customer, and null for an unknown one", async () => {
    const customer = await newCustomer(test.db, "nuevo");
    expect((await getDashboard(test.db, customer.id, start))?.summary).toEqual({
      orderCount: 0,
      deliveryCount: 0,
      upcomingDeliveryCount: 0,
      pendingInvoiceCount: 0,
      subscription: null,
      recentOrders: [],
      upcomingDeliveries: [],
    });
    expect(await getDashboard(test.db, "user-nobody", start)).toBeNull();
  });
});
