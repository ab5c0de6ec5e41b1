import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getStaffHome } from "@server/accounts/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { forEachRowOnItsOwn, recordRowFailure, rowFailures } from "@server/db/row-failures";
import { orders, users } from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { applySandboxAction, expireUnpaidOrders } from "@server/order-flows/index.server";
import { limaToday } from "@core/lima-dates";
import { checkoutInput, uniqueContact } from "../support/checkout-fixture";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 2026-11-24, 10:00 in Lima; the checkout fixture's delivery is Wednesday the 25th.
const now = new Date("2026-11-24T15:00:00Z");

/** Issue 42: a row that failed on one pass and went through on a later one leaves the staff home's alarms. */
describe("a job row's failure line clears when a later pass handles the row", () => {
  let test: TestDatabase;
  let adminId = "";
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    adminId = (await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email)))[0]!.id;
  });
  afterAll(() => test.close());

  const alarmRows = async () =>
    (await getStaffHome(test.db, { id: adminId, role: "admin" }, limaToday(now))).alarms!.rowFailures.map((row) => `${row.job}:${row.rowId}`);

  it("clears an unpaid order's failure once the expiry pass cancels it", async () => {
    const placed = await placeOrder(
      test.db,
      checkoutInput(now, { ...uniqueContact(), items: [{ productId: 6, variantId: null, quantity: 1 }], clientSubtotalCents: 5990 }),
      {
        now,
        provider: "sandbox",
      },
    );
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
    await applySandboxAction(test.db, placed.paymentId, "issue_code", { now, siteUrl: "http://shop.test" });
    const [order] = await test.db.select({ expiresAt: orders.expiresAt }).from(orders).where(eq(orders.id, placed.orderId));
    expectConsoleError(/could not handle/);
    await recordRowFailure(test.db, "expire unpaid orders", placed.orderId, new Error("lock timeout"), now);
    expect(await alarmRows()).toContain(`expire unpaid orders:${placed.orderId}`);

    expect(await expireUnpaidOrders(test.db, new Date(order!.expiresAt!.getTime() + 1000))).toBeGreaterThanOrEqual(1);
    expect(await alarmRows()).not.toContain(`expire unpaid orders:${placed.orderId}`);
  });

  it("keeps the line of a row that still fails and clears the one that went through", async () => {
    expectConsoleError(/could not handle/);
    let pass = 1;
    const work = async (row: string) => {
      if (row === "always-bad" || (row === "bad-once" && pass === 1)) throw new Error(`falla ${row}`);
    };
    expect(await forEachRowOnItsOwn(test.db, "test job", ["bad-once", "always-bad", "fine"], (row) => row, now, work)).toBe(2);
    expect((await rowFailures(test.db, "test job")).map((row) => row.rowId).sort()).toEqual(["always-bad", "bad-once"]);
    pass = 2;
    expect(await forEachRowOnItsOwn(test.db, "test job", ["bad-once", "always-bad", "fine"], (row) => row, now, work)).toBe(1);
    expect((await rowFailures(test.db, "test job")).map((row) => [row.rowId, row.failures])).toEqual([["always-bad", 2]]);
  });
});
