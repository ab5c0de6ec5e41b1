import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { limaToday } from "@core/lima-dates";
import { getStaffHome } from "@server/accounts/index.server";
import { outboxEmails, users } from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { deliverPendingEmails, smtpTransport } from "@server/notifications/deliver";
import { enqueueEmail } from "@server/notifications/index.server";
import { FIRST_RETRY_DELAY_MS } from "@server/notifications/retry-schedule";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp-stand-in";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Issue 27: the e-mail path against a real SMTP server (smtp-server from npm, in this process):
 * what arrives, and what the outbox does with each kind of answer (decision 0024).
 */
describe("e-mail delivery through a real SMTP server", () => {
  let test: TestDatabase;
  /** Plain: no STARTTLS, no AUTH offered. */
  let smtp: SmtpStandIn;
  /** Offers STARTTLS and AUTH. */
  let secureSmtp: SmtpStandIn;
  const now = new Date();
  const later = (ms: number) => new Date(now.getTime() + ms);
  const plainUrl = () => `smtp://127.0.0.1:${smtp.port}`;

  beforeAll(async () => {
    test = await createTestDatabase();
    smtp = await startSmtpStandIn({ secure: false });
    secureSmtp = await startSmtpStandIn({ secure: true });
  });
  afterAll(async () => {
    await smtp?.close();
    await secureSmtp?.close();
    await test?.close();
  });
  afterEach(async () => {
    for (const server of [smtp, secureSmtp]) {
      server.answer = "accept";
      server.received.length = 0;
      server.logins.length = 0;
    }
    await test.db.delete(outboxEmails);
  });

  const queue = async (subject: string) => {
    const dedupeKey = `smtp:${randomUUID()}`;
    await enqueueEmail(
      test.db,
      {
        dedupeKey,
        kind: "order-confirmation",
        to: "ana@example.pe",
        subject,
        html: `<p>Hola <strong>Ana</strong>: ${subject}</p>`,
        text: `Hola Ana: ${subject}`,
      },
      now,
    );
    return (await test.db.select().from(outboxEmails).where(eq(outboxEmails.dedupeKey, dedupeKey)))[0]!;
  };
  const row = async (id: string) => (await test.db.select().from(outboxEmails).where(eq(outboxEmails.id, id)))[0]!;

  it("delivers a message with its headers and both its plain-text and HTML parts", async () => {
    const email = await queue("Tu pedido fue confirmado");
    expect(await deliverPendingEmails(test.db, smtpTransport(plainUrl()), now)).toEqual({ sent: 1, failed: 0, dead: 0 });
    expect(await row(email.id)).toMatchObject({ status: "sent", attempts: 1 });
    expect(smtp.received).toHaveLength(1);
    const raw = smtp.received[0]!.raw;
    // Long header lines are folded onto the next line (RFC 5322 §2.2.3): unfold before reading.
    const headers = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
    const header = (name: string) => new RegExp(`^${name}: (.+)$`, "mi").exec(headers)?.[1]?.trim();
    expect(header("From")).toBe("Vida Alcalina <hola@vidaalcalina.pe>");
    expect(header("To")).toBe("ana@example.pe");
    expect(header("Subject")).toBe("Tu pedido fue confirmado");
    expect(header("Message-ID")).toMatch(/^<.+@.+>$/);
    expect(header("Date")).toBeTruthy();
    expect(header("Content-Type")).toMatch(/^multipart\/alternative; boundary=/);
    const parts = raw.split(/\r?\n--/).slice(1);
    const plain = parts.find((part) => /Content-Type: text\/plain/i.test(part));
    const html = parts.find((part) => /Content-Type: text\/html/i.test(part));
    expect(plain).toContain("Hola Ana: Tu pedido fue confirmado");
    expect(html).toContain("<strong>Ana</strong>");
    // Without TLS or credentials in the URL, the message goes in the clear and unauthenticated.
    expect(smtp.received[0]).toMatchObject({ secure: false, user: undefined });
  });

  it("retries a temporary (4xx) refusal later and sends it on the next attempt", async () => {
    smtp.answer = { code: 451, message: "4.3.0 Try again later" };
    const email = await queue("Reintento");
    expect(await deliverPendingEmails(test.db, smtpTransport(plainUrl()), now)).toEqual({ sent: 0, failed: 1, dead: 0 });
    const failed = await row(email.id);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringContaining("451") });
    expect(failed.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(now.getTime() + FIRST_RETRY_DELAY_MS);
    // Not before its time…
    expect(await deliverPendingEmails(test.db, smtpTransport(plainUrl()), later(FIRST_RETRY_DELAY_MS - 5_000))).toEqual({ sent: 0, failed: 0, dead: 0 });
    smtp.answer = "accept";
    expect(await deliverPendingEmails(test.db, smtpTransport(plainUrl()), later(FIRST_RETRY_DELAY_MS + 5_000))).toEqual({ sent: 1, failed: 0, dead: 0 });
    expect(await row(email.id)).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("makes a permanent (5xx) refusal a dead letter at once, shown to the admin on /admin", async () => {
    smtp.answer = { code: 550, message: "5.1.1 Mailbox unavailable" };
    const email = await queue("Buzón inexistente");
    expect(await deliverPendingEmails(test.db, smtpTransport(plainUrl()), now)).toEqual({ sent: 0, failed: 0, dead: 1 });
    expect(await row(email.id)).toMatchObject({ status: "dead", attempts: 1, lastError: expect.stringContaining("550") });
    const [admin] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email));
    const { alarms } = await getStaffHome(test.db, { id: admin!.id, role: "admin" }, limaToday(now));
    expect(alarms!.deadEmails.map((dead) => dead.id)).toContain(email.id);
  });

  it("retries a message whose connection dropped before the server answered: the server may then hold it twice", async () => {
    smtp.answer = "drop";
    const email = await queue(`Conexion cortada ${randomUUID()}`);
    expect(await deliverPendingEmails(test.db, smtpTransport(plainUrl()), now)).toEqual({ sent: 0, failed: 1, dead: 0 });
    expect(await row(email.id)).toMatchObject({ status: "pending", attempts: 1 });
    smtp.answer = "accept";
    expect(await deliverPendingEmails(test.db, smtpTransport(plainUrl()), later(FIRST_RETRY_DELAY_MS + 1_000))).toEqual({ sent: 1, failed: 0, dead: 0 });
    // The server had read the first copy before the line went: the documented duplicate (docs/operations.md).
    expect(smtp.received).toHaveLength(2);
    for (const copy of smtp.received) expect(copy.raw).toContain(email.text);
  });

  it("uses STARTTLS and AUTH when the URL asks for them", async () => {
    await queue("Por canal cifrado");
    const url = `smtp://tienda:clave-smtp@127.0.0.1:${secureSmtp.port}/?requireTLS=true&tls.rejectUnauthorized=false`;
    expect(await deliverPendingEmails(test.db, smtpTransport(url), now)).toEqual({ sent: 1, failed: 0, dead: 0 });
    expect(secureSmtp.received.map(({ secure, user }) => ({ secure, user }))).toEqual([{ secure: true, user: "tienda" }]);
    expect(secureSmtp.logins).toEqual([expect.objectContaining({ username: "tienda", password: "clave-smtp" })]);
  });

  it("keeps a message whose credentials are refused for a retry, and sends nothing", async () => {
    const email = await queue("Clave equivocada");
    const url = `smtp://tienda:otra-clave@127.0.0.1:${secureSmtp.port}/?requireTLS=true&tls.rejectUnauthorized=false`;
    expect(await deliverPendingEmails(test.db, smtpTransport(url), now)).toEqual({ sent: 0, failed: 1, dead: 0 });
    expect(secureSmtp.received).toEqual([]);
    expect(await row(email.id)).toMatchObject({ status: "pending", attempts: 1 });
  });
});
