import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCartByRecoveryToken, saveAbandonedCart, sendAbandonedCartReminders } from "@server/cart/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { outboxEmails } from "@server/db/schema";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const start = new Date("2026-11-24T15:00:00Z");
const later = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
const siteUrl = "http://shop.test";
const lines = [{ productId: 6, variantId: null, quantity: 2 }];

async function recoveryEmails(test: TestDatabase, to: string) {
  return (await test.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, to))).filter((email) => email.kind === "abandoned-cart");
}

describe("abandoned cart recovery", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("emails a recovery link once, an hour after the cart was left, even with two workers", async () => {
    await saveAbandonedCart(test.db, { email: "carla@example.pe", items: lines, client: "test" }, start);
    expect(await sendAbandonedCartReminders(test.db, later(59), siteUrl)).toBe(0);
    const [a, b] = await Promise.all([sendAbandonedCartReminders(test.db, later(61), siteUrl), sendAbandonedCartReminders(test.db, later(61), siteUrl)]);
    expect(a + b).toBe(1);
    expect(await sendAbandonedCartReminders(test.db, later(200), siteUrl)).toBe(0);
    const emails = await recoveryEmails(test, "carla@example.pe");
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toBe("Tu carrito te está esperando");
    expect(emails[0]!.text).toContain("S/ 119.80");

    const token = /token=([A-Za-z0-9_-]+)/.exec(emails[0]!.text)![1]!;
    expect(await findCartByRecoveryToken(test.db, token, later(62))).toEqual({ ok: true, items: lines });
    // The link expires after a week.
    expect(await findCartByRecoveryToken(test.db, token, later(61 + 7 * 24 * 60 + 1))).toEqual({ ok: false, reason: "not_found" });
  });

  it("opens only the cart its token belongs to, and refuses malformed or unknown tokens", async () => {
    expect(await findCartByRecoveryToken(test.db, null, start)).toEqual({ ok: false, reason: "invalid_token" });
    expect(await findCartByRecoveryToken(test.db, "short", start)).toEqual({ ok: false, reason: "invalid_token" });
    expect(await findCartByRecoveryToken(test.db, "A".repeat(43), start)).toEqual({ ok: false, reason: "not_found" });
  });

  it("sends nothing when the customer places the order", async () => {
    await saveAbandonedCart(test.db, { email: "dario@example.pe", items: lines, client: "test" }, start);
    const placed = await placeOrder(
      test.db,
      checkoutInput({ correo: "dario@example.pe", items: lines, clientSubtotalCents: 11980 }),
      { now: later(10), provider: "sandbox" },
    );
    expect(placed.ok).toBe(true);
    expect(await sendAbandonedCartReminders(test.db, later(120), siteUrl)).toBe(0);
    expect(await recoveryEmails(test, "dario@example.pe")).toHaveLength(0);
  });

  it("restarts the hour when the cart is saved again", async () => {
    await saveAbandonedCart(test.db, { email: "elena@example.pe", items: lines, client: "test" }, start);
    await saveAbandonedCart(test.db, { email: "elena@example.pe", items: [{ productId: 1, variantId: 2, quantity: 1 }], client: "test" }, later(50));
    expect(await sendAbandonedCartReminders(test.db, later(70), siteUrl)).toBe(0);
    expect(await sendAbandonedCartReminders(test.db, later(111), siteUrl)).toBe(1);
  });
});
