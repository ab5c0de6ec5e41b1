/** Issue 12: promotional e-mail only with consent, stored as evidence, revocable at once without a login. */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "@server/accounts/index.server";
import { saveAbandonedCart, sendAbandonedCartReminders } from "@server/cart/index.server";
import { placeOrder } from "@server/checkout/index.server";
import {
  currentPromotionalConsent,
  emailFromPreferencesToken,
  emailPreferencesToken,
  promotionalConsentHistory,
  recordPromotionalConsent,
} from "@server/consent/index.server";
import { getIssuer } from "@server/content/index.server";
import { outboxEmails, promotionalConsentEvents } from "@server/db/schema";
import { deliverPendingEmails, smtpTransport } from "@server/notifications/deliver";
import { enqueueEmail } from "@server/notifications/index.server";
import { PROMOTIONAL_CONSENT_TEXT_VERSION } from "@core/promotional-consent";
import { checkoutInput } from "../support/checkout-fixture";
import { startSmtpCapture, type CapturedEmail, type SmtpCapture } from "../support/smtp-capture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const start = new Date("2026-11-24T15:00:00Z");
const later = (minutes: number, base = start) => new Date(base.getTime() + minutes * 60_000);
const siteUrl = "http://shop.test";
const lines = [{ productId: 6, variantId: null, quantity: 2 }];
const browser = { clientAddress: "203.0.113.7", userAgent: "Mozilla/5.0 (prueba)" };

describe("promotional consent", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("stores each consent and revocation with time, text version, source, address and browser; the latest wins", async () => {
    const email = "Ana@Example.pe";
    expect(await currentPromotionalConsent(test.db, email)).toBeNull();
    expect(await recordPromotionalConsent(test.db, { email, granted: true, source: "checkout", ...browser }, start)).toBe(true);
    // The same choice again (double click, retried POST) writes nothing.
    expect(await recordPromotionalConsent(test.db, { email, granted: true, source: "checkout", ...browser }, later(1))).toBe(false);
    expect(await recordPromotionalConsent(test.db, { email, granted: false, source: "unsubscribe", ...browser }, later(2))).toBe(true);
    expect(await recordPromotionalConsent(test.db, { email, granted: false, source: "preferences" }, later(3))).toBe(false);
    expect(await currentPromotionalConsent(test.db, email)).toEqual({ granted: false, source: "unsubscribe", at: later(2) });
    // Same timestamp: insertion order decides, not the clock.
    await recordPromotionalConsent(test.db, { email, granted: true, source: "preferences" }, later(2));
    expect(await currentPromotionalConsent(test.db, "ana@example.pe")).toMatchObject({ granted: true, source: "preferences" });

    const history = await promotionalConsentHistory(test.db, email);
    expect(history.map(({ granted, source }) => ({ granted, source }))).toEqual([
      { granted: true, source: "preferences" },
      { granted: false, source: "unsubscribe" },
      { granted: true, source: "checkout" },
    ]);
    expect(history.at(-1)).toMatchObject({
      email: "ana@example.pe",
      textVersion: PROMOTIONAL_CONSENT_TEXT_VERSION,
      clientAddress: "203.0.113.7",
      userAgent: "Mozilla/5.0 (prueba)",
      createdAt: start,
    });
  });

  it("keeps the events append-only: the database refuses to rewrite or delete them", async () => {
    await expect(test.db.execute(sql`update promotional_consent_events set granted = true`)).rejects.toThrow();
    await expect(test.db.execute(sql`delete from promotional_consent_events`)).rejects.toThrow();
    expect((await test.db.select().from(promotionalConsentEvents)).length).toBeGreaterThan(0);
  });

  it("records a ticked checkout box with the order, and nothing for an unticked one (the order is placed either way)", async () => {
    const client = { address: "198.51.100.4", userAgent: "Chromium de prueba" };
    const ticked = await placeOrder(test.db, checkoutInput(start, { correo: "si@example.pe", promociones: true }), { now: start, provider: "sandbox", client });
    const unticked = await placeOrder(test.db, checkoutInput(start, { correo: "no@example.pe" }), { now: start, provider: "sandbox", client });
    expect(ticked.ok && unticked.ok).toBe(true);
    const [event] = await promotionalConsentHistory(test.db, "si@example.pe");
    expect(event).toMatchObject({ granted: true, source: "checkout", clientAddress: "198.51.100.4", userAgent: "Chromium de prueba" });
    expect(await promotionalConsentHistory(test.db, "no@example.pe")).toEqual([]);
  });

  it("records a sign-up's consent only when the box was ticked", async () => {
    const password = "Segura123";
    const account = { firstName: "Rosa", lastName: "Quispe", password, client: "signup-test" };
    expect((await register(test.db, { ...account, email: "conpromos@example.pe", promotionsConsent: browser })).ok).toBe(true);
    expect((await register(test.db, { ...account, email: "sinpromos@example.pe", promotionsConsent: null })).ok).toBe(true);
    expect(await currentPromotionalConsent(test.db, "conpromos@example.pe")).toMatchObject({ granted: true, source: "signup" });
    expect(await currentPromotionalConsent(test.db, "sinpromos@example.pe")).toBeNull();
  });

  it("sends the abandoned-cart reminder only to addresses whose latest choice is consent", async () => {
    const base = new Date("2027-04-10T15:00:00Z");
    const [never, yes, revoked] = ["never@example.pe", "yes@example.pe", "revoked@example.pe"];
    await recordPromotionalConsent(test.db, { email: yes, granted: true, source: "checkout" }, base);
    await recordPromotionalConsent(test.db, { email: revoked, granted: true, source: "checkout" }, base);
    await recordPromotionalConsent(test.db, { email: revoked, granted: false, source: "unsubscribe" }, later(5, base));
    for (const email of [never, yes, revoked]) await saveAbandonedCart(test.db, { email, items: lines, client: email }, base);

    expect(await sendAbandonedCartReminders(test.db, later(61, base), siteUrl)).toBe(1);
    const reminders = await test.db.select().from(outboxEmails).where(eq(outboxEmails.kind, "abandoned-cart"));
    expect(reminders.map((email) => email.toAddress)).toEqual([yes]);
    const issuer = await getIssuer(test.db);
    const [reminder] = reminders;
    expect(reminder!.subject).toMatch(/^PUBLICIDAD/);
    for (const body of [reminder!.text, reminder!.html]) {
      expect(body).toContain(issuer.legalName);
      expect(body).toContain(`RUC ${issuer.ruc}`);
      expect(body).toContain(`${siteUrl}/preferencias-de-correo?token=${emailPreferencesToken(yes)}`);
    }
    // Consent given later, while the cart is recent, lets its reminder go.
    await recordPromotionalConsent(test.db, { email: never, granted: true, source: "preferences" }, later(90, base));
    expect(await sendAbandonedCartReminders(test.db, later(91, base), siteUrl)).toBe(1);
  });

  it("signs the preferences link: the address comes back only from a token the shop made", () => {
    const token = emailPreferencesToken("Rosa@Example.pe");
    expect(emailFromPreferencesToken(token)).toBe("rosa@example.pe");
    const [encoded, signature] = token.split(".");
    const forged = `${Buffer.from("otra@example.pe").toString("base64url")}.${signature}`;
    expect(emailFromPreferencesToken(forged)).toBeNull();
    expect(emailFromPreferencesToken(`${encoded}.${"A".repeat(43)}`)).toBeNull();
    expect(emailFromPreferencesToken("basura")).toBeNull();
    expect(emailFromPreferencesToken(null)).toBeNull();
  });
});

/** A fresh database, so only this test's emails are due. */
describe("promotional e-mails at sending time", () => {
  let test: TestDatabase;
  let smtp: SmtpCapture;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    smtp = await startSmtpCapture();
  });
  afterAll(async () => {
    await smtp.close();
    await test.close();
  });

  it("withholds a queued promotion whose address revoked before it left, and sends the rest with List-Unsubscribe headers", async () => {
    const at = new Date("2027-05-10T15:00:00Z");
    const [stays, leaves] = ["stays@example.pe", "leaves@example.pe"];
    for (const email of [stays, leaves]) {
      await recordPromotionalConsent(test.db, { email, granted: true, source: "checkout" }, at);
      await saveAbandonedCart(test.db, { email, items: lines, client: email }, at);
    }
    expect(await sendAbandonedCartReminders(test.db, later(61, at), siteUrl)).toBe(2);
    // Revoked after the reminder was queued, before it was sent.
    await recordPromotionalConsent(test.db, { email: leaves, granted: false, source: "unsubscribe" }, later(62, at));
    // A transactional email to the same address is not a promotion and still leaves.
    await enqueueEmail(
      test.db,
      { dedupeKey: "order:leaves", kind: "order-confirmation", to: leaves, subject: "Tu pedido", html: "<p>x</p>", text: "x" },
      later(62, at),
    );

    const report = await deliverPendingEmails(test.db, smtpTransport(smtp.url), later(63, at), { siteUrl });
    expect(report).toEqual({ sent: 2, failed: 0, dead: 0, withheld: 1 });
    expect(smtp.messages.map((message) => [message.to[0], subjectOf(message)])).toEqual(
      expect.arrayContaining([
        [stays, "PUBLICIDAD: Tu carrito te está esperando"],
        [leaves, "Tu pedido"],
      ]),
    );
    expect(smtp.messages.filter((message) => message.to[0] === leaves && subjectOf(message).startsWith("PUBLICIDAD"))).toEqual([]);
    expect(await statusOfPromotionTo(test, leaves)).toBe("withheld");

    const promotion = smtp.messages.find((message) => message.to[0] === stays)!.data.replace(/\r\n[ \t]+/g, " ");
    const url = `${siteUrl}/preferencias-de-correo?token=${emailPreferencesToken(stays)}`;
    expect(promotion).toContain(`List-Unsubscribe: <${url}>`);
    expect(promotion).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    const transactional = smtp.messages.find((message) => message.to[0] === leaves)!.data;
    expect(transactional).not.toContain("List-Unsubscribe");
    // Withheld for good: a later pass sends nothing.
    expect(await deliverPendingEmails(test.db, smtpTransport(smtp.url), later(200, at), { siteUrl })).toEqual({ sent: 0, failed: 0, dead: 0 });
  });
});

/** The decoded Subject of a captured message (RFC 2047 Q-encoded words, folded lines). */
function subjectOf(message: CapturedEmail): string {
  const unfolded = message.data.replace(/\r?\n[ \t]+/g, " ");
  const raw = /^Subject: (.*)$/im.exec(unfolded)?.[1] ?? "";
  return raw
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=\s*/gi, (_, encoded: string) =>
      Buffer.from(
        encoded.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        "latin1",
      ).toString("utf8"),
    )
    .trim();
}

async function statusOfPromotionTo(test: TestDatabase, email: string): Promise<string | undefined> {
  const [row] = await test.db
    .select({ status: outboxEmails.status })
    .from(outboxEmails)
    .where(sql`${outboxEmails.toAddress} = ${email} and ${outboxEmails.kind} = 'abandoned-cart'`);
  return row?.status;
}
