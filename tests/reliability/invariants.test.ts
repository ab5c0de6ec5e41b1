import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applySandboxAction } from "@server/order-flows/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { findInvariantViolations } from "../support/invariants";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/** The shared check itself: silent on whole books, and it names each kind of loss or double. */
describe("the invariants check", () => {
  let test: TestDatabase;
  let orderNumber: string;
  let orderId: string;

  beforeEach(async () => {
    test = await createTestDatabase();
    const now = new Date("2026-11-23T15:00:00Z");
    const placed = await placeOrder(test.db, checkoutInput(now), { now, provider: "sandbox" });
    if (!placed.ok) throw new Error("not placed");
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now, siteUrl: "http://shop.test" });
    orderNumber = placed.orderNumber;
    orderId = placed.orderId;
  });
  afterEach(() => test.close());

  it("finds nothing wrong with the seeded shop and a paid order", async () => {
    expect(await findInvariantViolations(test.db)).toEqual([]);
  });

  it("names a paid order that lost its delivery or its invoice, and a skipped invoice number", async () => {
    await test.db.execute(sql`delete from deliveries where order_id = ${orderId}::uuid`);
    await test.db.execute(sql`update invoices set number = number + 1 where order_id = ${orderId}::uuid`);
    const violations = await findInvariantViolations(test.db);
    expect(violations).toContain(`${orderNumber} is paid but has no delivery`);
    expect(violations.some((line) => /^series B001: .*numbers skipped/.test(line))).toBe(true);
    await test.db.execute(sql`delete from invoices where order_id = ${orderId}::uuid`);
    expect(await findInvariantViolations(test.db)).toContain(`${orderNumber} is paid but has 0 invoices`);
  });

  it("names a second settled payment and a provider charge kept for an order that is not paid", async () => {
    await test.db.execute(
      sql`insert into payments (order_id, provider, status, amount_cents) select order_id, provider, 'succeeded', amount_cents from payments where order_id = ${orderId}::uuid`,
    );
    expect(await findInvariantViolations(test.db)).toContain(`${orderNumber} is paid but has 2 settled payments`);

    const other = await placeOrder(test.db, checkoutInput(new Date("2026-11-23T15:00:00Z"), { correo: "otra@example.pe" }), {
      now: new Date("2026-11-23T15:00:00Z"),
      provider: "sandbox",
    });
    if (!other.ok) throw new Error("not placed");
    const violations = await findInvariantViolations(test.db, { providerCharges: [{ id: "chr_test_perdido", paymentId: other.paymentId }] });
    expect(violations.some((line) => line.startsWith("provider charge chr_test_perdido was kept but"))).toBe(true);
  });
});
