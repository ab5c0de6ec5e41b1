/**
 * Issue 24, defect 2 (decision 0072): guest orders go to an account only once its owner proved the
 * address and chose the password in the same step — on the page of the confirmation link, or
 * with a password-reset link — never because someone signed up with the address and someone
 * (a mail scanner, the confused owner) confirmed it.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  confirmEmailAddress,
  getSignedInUser,
  readConfirmationLink,
  register,
  requestPasswordReset,
  resetPassword,
  signIn,
} from "@server/accounts/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { orders, outboxEmails, sessions, users } from "@server/db/schema";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const STRANGERS_PASSWORD = "Intruso123";
const OWNERS_PASSWORD = "Propia4567";
// placeOrder checks the delivery date against `now`: the fixture's date is a Wednesday two days later.
const now = new Date("2026-11-23T15:00:00Z");

function requestWith(headers: Headers): Request {
  const cookie = headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  return new Request("http://localhost/dashboard", { headers: { cookie } });
}

describe("proof before ownership", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  async function signUp(email: string) {
    const result = await register(test.db, { firstName: "Rosa", lastName: "Quispe", email, password: STRANGERS_PASSWORD, client: `signup-${email}` });
    if (!result.ok) throw new Error(result.message);
    return result.headers;
  }
  async function linkOf(email: string, kind: "email_verification" | "password_reset"): Promise<string> {
    const rows = await test.db
      .select({ text: outboxEmails.text })
      .from(outboxEmails)
      .where(and(eq(outboxEmails.toAddress, email), eq(outboxEmails.kind, kind)));
    const match = /token=([^\s"&]+)/.exec(rows.at(-1)?.text ?? "");
    if (!match) throw new Error(`no ${kind} e-mail for ${email}`);
    return decodeURIComponent(match[1]!);
  }
  async function guestOrder(email: string) {
    const placed = await placeOrder(test.db, checkoutInput(now, { correo: email }), { now, provider: "sandbox" });
    if (!placed.ok) throw new Error("order not placed");
    return placed.orderId;
  }
  const ownerOf = async (orderId: string) => (await test.db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId)))[0]?.userId;
  const account = async (email: string) => (await test.db.select().from(users).where(eq(users.email, email)))[0]!;

  it("reading the link's page changes nothing; confirming without a password confirms the address and attaches nothing", async () => {
    const email = "victima@prueba.pe";
    const earlier = await guestOrder(email);
    await signUp(email);
    const token = await linkOf(email, "email_verification");

    expect(await readConfirmationLink(test.db, token)).toEqual({ valid: true, email, verified: false, guestOrders: 1 });
    expect((await account(email)).emailVerified).toBe(false);

    expect(await confirmEmailAddress(test.db, { token, now })).toMatchObject({ ok: true, attached: 0, passwordSet: false });
    const user = await account(email);
    expect(user).toMatchObject({ emailVerified: true, ownershipProvenAt: null });
    expect(await ownerOf(earlier)).toBeNull();
    // A later guest checkout with the address is not filed under the account either.
    expect(await ownerOf(await guestOrder(email))).toBeNull();
    // Whoever signed up still signs in, and sees none of the address's orders.
    expect(await signIn(test.db, { email, password: STRANGERS_PASSWORD, remember: false, client: "stranger" })).toMatchObject({ ok: true });
  });

  it("choosing the password on the page attaches the orders, ends the signer-up's sessions, and cannot be done twice", async () => {
    const email = "duena@prueba.pe";
    const earlier = await guestOrder(email);
    const strangersSession = await signUp(email);
    const token = await linkOf(email, "email_verification");

    const confirmed = await confirmEmailAddress(test.db, { token, password: OWNERS_PASSWORD, now });
    if (!confirmed.ok) throw new Error(confirmed.reason);
    expect(confirmed).toMatchObject({ attached: 1, passwordSet: true });
    const user = await account(email);
    expect(user.emailVerified).toBe(true);
    expect(user.ownershipProvenAt?.getTime()).toBe(now.getTime());
    expect(await ownerOf(earlier)).toBe(user.id);
    // Issue 39: a guest order placed after the proof stays a guest order; its owner adds it from its e-mail.
    expect(await ownerOf(await guestOrder(email))).toBeNull();

    // The stranger's session and password are gone; the owner is signed in by the answer.
    expect(await getSignedInUser(test.db, requestWith(strangersSession))).toBeNull();
    expect(await signIn(test.db, { email, password: STRANGERS_PASSWORD, remember: false, client: "stranger-2" })).toMatchObject({ ok: false });
    expect((await getSignedInUser(test.db, requestWith(confirmed.headers)))?.email).toBe(email);
    expect(await test.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);

    // The same link cannot set the password again (that is the reset link's job now).
    expect(await confirmEmailAddress(test.db, { token, password: "OtraClave890", now })).toEqual({ ok: false, reason: "password_already_chosen" });
    expect(await signIn(test.db, { email, password: OWNERS_PASSWORD, remember: false, client: "owner" })).toMatchObject({ ok: true });
  });

  it("a password reset from the e-mailed link is proof too: it confirms the address and attaches the orders", async () => {
    const email = "recupera@prueba.pe";
    await signUp(email);
    const earlier = await guestOrder(email);
    await requestPasswordReset(test.db, { email, client: "reset" });
    expect(await resetPassword(test.db, { token: await linkOf(email, "password_reset"), password: OWNERS_PASSWORD })).toMatchObject({ ok: true });
    const user = await account(email);
    expect(user.emailVerified).toBe(true);
    expect(user.ownershipProvenAt).not.toBeNull();
    expect(await ownerOf(earlier)).toBe(user.id);
  });

  it("refuses a link the shop did not sign, and one naming another account", async () => {
    const email = "firmado@prueba.pe";
    await signUp(email);
    const token = await linkOf(email, "email_verification");
    const [header, payload] = token.split(".");
    const forged = `${header}.${payload}.${"A".repeat(43)}`;
    expect(await readConfirmationLink(test.db, forged)).toEqual({ valid: false });
    expect(await confirmEmailAddress(test.db, { token: forged, password: OWNERS_PASSWORD, now })).toEqual({ ok: false, reason: "invalid_link" });
    expect(await confirmEmailAddress(test.db, { token: "no-es-un-token", now })).toEqual({ ok: false, reason: "invalid_link" });
    expect((await account(email)).emailVerified).toBe(false);
  });
});
