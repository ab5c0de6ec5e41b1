import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCartByRecoveryToken, REMINDER_QUIET_DAYS, SAVE_LIMITS, saveAbandonedCart, sendAbandonedCartReminders } from "@server/cart/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { confirmedConsent } from "../support/promotional-consent";
import { abandonedCarts, outboxEmails } from "@server/db/schema";
import { DEMO_CUSTOMER } from "@server/db/seed/demo-accounts";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const start = new Date("2026-11-24T15:00:00Z");
const later = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
const siteUrl = "http://shop.test";
const lines = [{ productId: 6, variantId: null, quantity: 2 }];

async function recoveryEmails(test: TestDatabase, to: string) {
  return (await test.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, to))).filter((email) => email.kind === "abandoned-cart");
}

/** The reminder is a promotion (issue 12): these addresses said yes first. */
const consent = (test: TestDatabase, email: string) => confirmedConsent(test.db, email, start);

describe("abandoned cart recovery", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("emails a recovery link once, an hour after the cart was left, even with two workers", async () => {
    await consent(test, "carla@example.pe");
    await saveAbandonedCart(test.db, { email: "carla@example.pe", items: lines, client: "test" }, start);
    expect(await sendAbandonedCartReminders(test.db, later(59), siteUrl)).toBe(0);
    const [a, b] = await Promise.all([sendAbandonedCartReminders(test.db, later(61), siteUrl), sendAbandonedCartReminders(test.db, later(61), siteUrl)]);
    expect(a + b).toBe(1);
    expect(await sendAbandonedCartReminders(test.db, later(200), siteUrl)).toBe(0);
    const emails = await recoveryEmails(test, "carla@example.pe");
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toBe("PUBLICIDAD: Tu carrito te está esperando");
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
    await consent(test, "dario@example.pe");
    await saveAbandonedCart(test.db, { email: "dario@example.pe", items: lines, client: "test" }, start);
    const placed = await placeOrder(test.db, checkoutInput(later(10), { correo: "dario@example.pe", items: lines, clientSubtotalCents: 11980 }), {
      now: later(10),
      provider: "sandbox",
    });
    expect(placed.ok).toBe(true);
    expect(await sendAbandonedCartReminders(test.db, later(120), siteUrl)).toBe(0);
    expect(await recoveryEmails(test, "dario@example.pe")).toHaveLength(0);
  });

  it("restarts the hour when the cart is saved again", async () => {
    await consent(test, "elena@example.pe");
    await saveAbandonedCart(test.db, { email: "elena@example.pe", items: lines, client: "test" }, start);
    await saveAbandonedCart(test.db, { email: "elena@example.pe", items: [{ productId: 1, variantId: 2, quantity: 1 }], client: "test" }, later(50));
    expect(await sendAbandonedCartReminders(test.db, later(70), siteUrl)).toBe(0);
    expect(await sendAbandonedCartReminders(test.db, later(111), siteUrl)).toBe(1);
  });
});

/** Issue 9: the endpoint is anonymous, so nobody can use it to mail strangers or replace a customer's cart. */
describe("abandoned carts saved from an anonymous endpoint", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());
  const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000);

  it(`never re-arms a reminder sent to the same address in the last ${REMINDER_QUIET_DAYS} days`, async () => {
    const base = new Date("2027-01-10T15:00:00Z");
    const email = "quiet@example.pe";
    await consent(test, email);
    expect(await saveAbandonedCart(test.db, { email, items: lines, client: "a" }, base)).toEqual({ saved: true });
    await sendAbandonedCartReminders(test.db, at(base, 61), siteUrl);
    expect(await recoveryEmails(test, email)).toHaveLength(1);

    // Saved again (by anyone) after the reminder: kept as it was, and no second reminder.
    expect(await saveAbandonedCart(test.db, { email, items: [{ productId: 6, variantId: null, quantity: 5 }], client: "b" }, at(base, 120))).toEqual({
      saved: false,
      reason: "kept",
    });
    await sendAbandonedCartReminders(test.db, at(base, 300), siteUrl);
    expect(await recoveryEmails(test, email)).toHaveLength(1);

    // After the quiet window, a new cart gets its own reminder.
    const nextWeek = at(base, REMINDER_QUIET_DAYS * 24 * 60 + 120);
    expect(await saveAbandonedCart(test.db, { email, items: lines, client: "a" }, nextWeek)).toEqual({ saved: true });
    await sendAbandonedCartReminders(test.db, at(nextWeek, 61), siteUrl);
    expect(await recoveryEmails(test, email)).toHaveLength(2);
  });

  it("never replaces the saved cart of an address with an account from an anonymous request", async () => {
    const base = new Date("2027-02-10T15:00:00Z");
    const email = DEMO_CUSTOMER.email;
    const own = [{ productId: 6, variantId: null, quantity: 3 }];
    expect(await saveAbandonedCart(test.db, { email, items: own, client: "home", signedInEmail: email }, base)).toEqual({ saved: true });
    expect(await saveAbandonedCart(test.db, { email, items: lines, client: "elsewhere" }, at(base, 5))).toEqual({ saved: false, reason: "kept" });
    expect(await saveAbandonedCart(test.db, { email, items: lines, client: "elsewhere", signedInEmail: "otra@example.pe" }, at(base, 6))).toEqual({
      saved: false,
      reason: "kept",
    });
    const [row] = await test.db.select().from(abandonedCarts).where(eq(abandonedCarts.email, email));
    expect(row!.items).toEqual(own);
    // The customer, signed in, still replaces it.
    expect(await saveAbandonedCart(test.db, { email, items: lines, client: "home", signedInEmail: email }, at(base, 7))).toEqual({ saved: true });
  });

  it("limits saves per address and per client", async () => {
    const base = new Date("2027-03-10T15:00:00Z");
    const email = "limited@example.pe";
    for (let index = 0; index < SAVE_LIMITS.perAddress.limit; index++) {
      expect((await saveAbandonedCart(test.db, { email, items: lines, client: `client-${index}` }, at(base, index))).saved).toBe(true);
    }
    expect(await saveAbandonedCart(test.db, { email, items: lines, client: "client-new" }, at(base, 20))).toEqual({ saved: false, reason: "rate_limited" });

    const results = [];
    for (let index = 0; index <= SAVE_LIMITS.perClient.limit; index++) {
      results.push(await saveAbandonedCart(test.db, { email: `recipient-${index}@example.pe`, items: lines, client: "one-machine" }, at(base, 30)));
    }
    expect(results.filter((result) => result.saved)).toHaveLength(SAVE_LIMITS.perClient.limit);
    expect(results.at(-1)).toEqual({ saved: false, reason: "rate_limited" });
    const saved = await test.db.select().from(abandonedCarts);
    expect(saved.filter((row) => row.email.startsWith("recipient-"))).toHaveLength(SAVE_LIMITS.perClient.limit);
  });
});
