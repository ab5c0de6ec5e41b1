/**
 * Issue 12: promotional e-mail only with consent, stored as evidence, revocable at once without a login.
 * Issue 24 (decision 0072): the consent is a double opt-in — a ticked box asks, the e-mailed link's page confirms.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "@server/accounts/index.server";
import { saveAbandonedCart, sendAbandonedCartReminders } from "@server/cart/index.server";
import { placeOrder } from "@server/checkout/index.server";
import {
  addressesWithPromotionalConsent,
  confirmPromotionalConsent,
  currentPromotionalConsent,
  emailFromPreferencesToken,
  emailPreferencesToken,
  promotionalConsentHistory,
  readPromotionalConsentRequest,
  requestPromotionalConsent,
} from "@server/consent/index.server";
import { getIssuer } from "@server/content/index.server";
import { outboxEmails, promotionalConsentEvents, promotionalConsentRequests } from "@server/db/schema";
import { deliverPendingEmails, smtpTransport } from "@server/notifications/deliver";
import { enqueueEmail } from "@server/notifications/index.server";
import { PROMOTIONAL_CONSENT_TEXT_VERSION, promotionalConsentText } from "@core/promotional-consent";
import { checkoutInput } from "../support/checkout-fixture";
import { confirmedConsent, revokedConsent } from "../support/promotional-consent";
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

  /** The confirmation link queued for an address (the token of its latest one). */
  async function confirmationToken(email: string): Promise<string> {
    const rows = await test.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, email));
    const asks = rows.filter((row) => row.kind === "promotional_consent_confirmation");
    const match = /\/preferencias-de-correo\/confirmar\?token=([\w-]+)/.exec(asks.at(-1)?.text ?? "");
    if (!match) throw new Error(`no confirmation e-mail to ${email}`);
    return match[1]!;
  }

  it("a ticked checkout box only asks: it e-mails a confirmation link and nothing counts until the link's page is confirmed", async () => {
    const client = { address: "198.51.100.4", userAgent: "Chromium de prueba" };
    const ticked = await placeOrder(test.db, checkoutInput(start, { correo: "si@example.pe", promociones: true }), { now: start, provider: "sandbox", client });
    const unticked = await placeOrder(test.db, checkoutInput(start, { correo: "no@example.pe" }), { now: start, provider: "sandbox", client });
    expect(ticked.ok && unticked.ok).toBe(true);
    expect(await promotionalConsentHistory(test.db, "si@example.pe")).toEqual([]);
    expect(await currentPromotionalConsent(test.db, "si@example.pe", start)).toEqual({ granted: false, pending: true, source: null, at: null });
    expect(await addressesWithPromotionalConsent(test.db, ["si@example.pe"])).toEqual(new Set());
    expect(await currentPromotionalConsent(test.db, "no@example.pe", start)).toEqual({ granted: false, pending: false, source: null, at: null });

    const [ask] = await test.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, "si@example.pe"));
    expect(ask).toMatchObject({ kind: "promotional_consent_confirmation", subject: expect.stringMatching(/^Confirma si quieres recibir promociones/) });
    expect(ask!.subject).not.toMatch(/PUBLICIDAD/);

    // The page's GET reads; its POST confirms, recording when, how, the text shown, where it was asked and who confirmed.
    const token = await confirmationToken("si@example.pe");
    const issuer = await getIssuer(test.db);
    expect(await readPromotionalConsentRequest(test.db, token, later(5))).toMatchObject({
      valid: true,
      email: "si@example.pe",
      confirmed: false,
      expired: false,
    });
    expect(await promotionalConsentHistory(test.db, "si@example.pe")).toEqual([]);
    expect(await confirmPromotionalConsent(test.db, { token, ...browser }, later(10))).toEqual({ ok: true, email: "si@example.pe" });
    expect(await confirmPromotionalConsent(test.db, { token, ...browser }, later(11))).toEqual({ ok: true, email: "si@example.pe" });
    const history = await promotionalConsentHistory(test.db, "si@example.pe");
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      granted: true,
      source: "checkout",
      method: "email-confirmation",
      textVersion: PROMOTIONAL_CONSENT_TEXT_VERSION,
      consentText: promotionalConsentText(issuer.brandName, issuer),
      clientAddress: browser.clientAddress,
      userAgent: browser.userAgent,
      createdAt: later(10),
    });
    const [request] = await test.db.select().from(promotionalConsentRequests).where(eq(promotionalConsentRequests.id, history[0]!.requestId!));
    expect(request).toMatchObject({
      source: "checkout",
      clientAddress: "198.51.100.4",
      userAgent: "Chromium de prueba",
      createdAt: start,
      confirmedAt: later(10),
    });
    expect(await currentPromotionalConsent(test.db, "si@example.pe", later(12))).toEqual({ granted: true, pending: false, source: "checkout", at: later(10) });
  });

  it("a sign-up's ticked box asks the same way; an unticked one asks nothing", async () => {
    const account = { firstName: "Rosa", lastName: "Quispe", password: "Segura123", client: "signup-test" };
    expect((await register(test.db, { ...account, email: "conpromos@example.pe", promotionsConsent: browser })).ok).toBe(true);
    expect((await register(test.db, { ...account, email: "sinpromos@example.pe", promotionsConsent: null })).ok).toBe(true);
    expect(await currentPromotionalConsent(test.db, "conpromos@example.pe")).toMatchObject({ granted: false, pending: true });
    expect(await currentPromotionalConsent(test.db, "sinpromos@example.pe")).toMatchObject({ granted: false, pending: false });
    await confirmationToken("conpromos@example.pe");
  });

  it("never lets a ticked box undo an opt-out: only the owner's own confirmation does", async () => {
    const email = "dijo-no@example.pe";
    await confirmedConsent(test.db, email, start);
    expect(await revokedConsent(test.db, email, later(1), browser)).toBe(true);
    // Revoking again writes nothing (double click, retried one-click POST).
    expect(await revokedConsent(test.db, email, later(2))).toBe(false);
    // Someone ticks the box with the address at checkout: an ask, no consent.
    const ticked = await placeOrder(test.db, checkoutInput(later(3), { correo: email, promociones: true }), { now: later(3), provider: "sandbox" });
    expect(ticked.ok).toBe(true);
    expect(await currentPromotionalConsent(test.db, email, later(4))).toMatchObject({ granted: false, pending: true, source: "unsubscribe" });
    expect(await addressesWithPromotionalConsent(test.db, [email])).toEqual(new Set());
    // The owner confirms from the e-mail: consent again, from that confirmation.
    await confirmPromotionalConsent(test.db, { token: await confirmationToken(email) }, later(30));
    expect(await addressesWithPromotionalConsent(test.db, [email])).toEqual(new Set([email]));
  });

  it("sends at most one confirmation e-mail a day to an address, and an expired link confirms nothing", async () => {
    const email = "insistente@example.pe";
    const ask = { email, source: "checkout" as const, consentText: "texto" };
    const first = await requestPromotionalConsent(test.db, ask, start);
    expect(first).not.toBeNull();
    expect(await requestPromotionalConsent(test.db, ask, later(60))).toBeNull();
    expect(await confirmPromotionalConsent(test.db, { token: first!.token }, later(8 * 24 * 60))).toEqual({ ok: false, reason: "expired" });
    expect(await confirmPromotionalConsent(test.db, { token: "no-es-un-token" }, start)).toEqual({ ok: false, reason: "invalid" });
    expect(await promotionalConsentHistory(test.db, email)).toEqual([]);
    expect(await requestPromotionalConsent(test.db, ask, later(25 * 60))).not.toBeNull();
  });

  it("counts a grant recorded straight from a ticked box, before double opt-in, as no consent", async () => {
    const email = "antiguo@example.pe";
    await test.db
      .insert(promotionalConsentEvents)
      .values({ email, granted: true, source: "checkout", textVersion: "promociones-correo-2026-11", createdAt: start });
    expect(await currentPromotionalConsent(test.db, email)).toMatchObject({ granted: false });
    expect(await addressesWithPromotionalConsent(test.db, [email])).toEqual(new Set());
  });

  it("keeps the events append-only: the database refuses to rewrite or delete them", async () => {
    await expect(test.db.execute(sql`update promotional_consent_events set granted = true`)).rejects.toThrow();
    await expect(test.db.execute(sql`update promotional_consent_events set consent_text = 'otro'`)).rejects.toThrow();
    await expect(test.db.execute(sql`delete from promotional_consent_events`)).rejects.toThrow();
    expect((await test.db.select().from(promotionalConsentEvents)).length).toBeGreaterThan(0);
  });

  it("sends the abandoned-cart reminder only to addresses whose latest choice is consent", async () => {
    const base = new Date("2027-04-10T15:00:00Z");
    const [never, yes, revoked] = ["never@example.pe", "yes@example.pe", "revoked@example.pe"];
    await confirmedConsent(test.db, yes, base);
    await confirmedConsent(test.db, revoked, base);
    await revokedConsent(test.db, revoked, later(5, base));
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
    await confirmedConsent(test.db, never, later(90, base), { source: "preferences" });
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
      await confirmedConsent(test.db, email, at);
      await saveAbandonedCart(test.db, { email, items: lines, client: email }, at);
    }
    expect(await sendAbandonedCartReminders(test.db, later(61, at), siteUrl)).toBe(2);
    // Revoked after the reminder was queued, before it was sent.
    await revokedConsent(test.db, leaves, later(62, at));
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
