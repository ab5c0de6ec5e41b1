import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { outboxEmails } from "@server/db/schema";
import { deliverPendingEmails, SENDING_LEASE_MS, smtpTransport, type MailTransport } from "@server/notifications/deliver";
import { enqueueEmail, listDeadEmails, retryDeadEmail } from "@server/notifications/index.server";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp-capture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-24T15:00:00Z");
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe("email delivery", () => {
  let test: TestDatabase;
  let smtp: SmtpCapture;
  beforeAll(async () => {
    test = await createTestDatabase("empty");
  });
  afterAll(() => test.close());
  afterEach(async () => {
    await smtp?.close();
    await test.db.delete(outboxEmails);
  });

  const queue = async (subject: string, queuedAt = now) => {
    const dedupeKey = `${subject}:${randomUUID()}`;
    await enqueueEmail(test.db, { dedupeKey, kind: "notice", to: "ana@example.pe", subject, html: `<p>${subject}</p>`, text: subject }, queuedAt);
    const [row] = await test.db.select().from(outboxEmails).where(eq(outboxEmails.dedupeKey, dedupeKey));
    return row!;
  };
  const row = async (id: string) => (await test.db.select().from(outboxEmails).where(eq(outboxEmails.id, id)))[0]!;

  it("holds no transaction or lock while an SMTP server sits on a message, and gives up on it after the socket timeout", async () => {
    smtp = await startSmtpCapture({ kind: "hang_after_data" });
    const email = await queue("Colgado");
    let settled = false;
    const delivery = deliverPendingEmails(test.db, smtpTransport(smtp.url, { socketTimeout: 2_000 }), now).finally(() => {
      settled = true;
    });
    await smtp.nextData();

    // The send is in flight: the server has the message and has not answered. Other work goes on,
    // even a lock on the very row being sent (NOWAIT fails at once if anyone holds it).
    const locked = await test.db.transaction((tx) =>
      tx.select({ id: outboxEmails.id }).from(outboxEmails).where(eq(outboxEmails.id, email.id)).for("update", { noWait: true }),
    );
    expect(locked).toEqual([{ id: email.id }]);
    // (Queued for later, so this run does not go on to try it against the same silent server.)
    const other = await queue("Mientras tanto", at(now, 3_600_000));
    expect(settled).toBe(false);

    expect(await delivery).toEqual({ sent: 0, failed: 1, dead: 0 });
    expect(await row(email.id)).toMatchObject({ status: "pending", attempts: 1, sentAt: null, claimToken: null, lastError: expect.stringMatching(/timeout/i) });
    expect(await row(other.id)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("retries a temporary refusal 30 s, 1 min, 2 min… later, up to two hours apart, gives up after about a day, and sends it when staff retry", async () => {
    smtp = await startSmtpCapture({ kind: "refuse", code: 451 });
    const transport = smtpTransport(smtp.url);
    const email = await queue("Reintentos");
    // Seconds between attempts: doubling from 30 s, capped at two hours; 20 attempts in all.
    const expectedGaps = [30, 60, 120, 240, 480, 960, 1920, 3840, ...Array<number>(11).fill(7200)];
    let attemptAt = now;
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      if (attempt > 1) expect(await deliverPendingEmails(test.db, transport, at(attemptAt, -1_000))).toEqual({ sent: 0, failed: 0, dead: 0 });
      const report = await deliverPendingEmails(test.db, transport, attemptAt);
      const after = await row(email.id);
      expect(after.attempts).toBe(attempt);
      expect(after.lastError).toContain("451");
      if (attempt === 20) {
        expect(report).toEqual({ sent: 0, failed: 0, dead: 1 });
        expect(after).toMatchObject({ status: "dead", sentAt: null });
        break;
      }
      expect(report).toEqual({ sent: 0, failed: 1, dead: 0 });
      expect(after.status).toBe("pending");
      // Measured from the failure, so the attempt's own duration (well under 10 s here) comes on top.
      const gapSeconds = (after.nextAttemptAt.getTime() - attemptAt.getTime()) / 1000;
      expect(gapSeconds).toBeGreaterThanOrEqual(expectedGaps[attempt - 1]!);
      expect(gapSeconds).toBeLessThan(expectedGaps[attempt - 1]! + 10);
      attemptAt = after.nextAttemptAt;
    }
    const hoursTrying = (attemptAt.getTime() - now.getTime()) / 3_600_000;
    expect(hoursTrying).toBeGreaterThan(23);
    expect(hoursTrying).toBeLessThan(25);

    // Dead: never tried again by itself, listed for staff.
    expect(await deliverPendingEmails(test.db, transport, at(attemptAt, 7 * 86_400_000))).toEqual({ sent: 0, failed: 0, dead: 0 });
    expect(await listDeadEmails(test.db)).toEqual([
      expect.objectContaining({ id: email.id, to: "ana@example.pe", subject: "Reintentos", attempts: 20, lastError: expect.stringContaining("451") }),
    ]);

    smtp.behaviour = { kind: "accept" };
    const retryAt = at(attemptAt, 3 * 86_400_000);
    expect(await retryDeadEmail(test.db, email.id, retryAt)).toEqual({ ok: true });
    expect(await retryDeadEmail(test.db, email.id, retryAt)).toEqual({ ok: false, reason: "not_dead" });
    expect(await deliverPendingEmails(test.db, transport, retryAt)).toEqual({ sent: 1, failed: 0, dead: 0 });
    expect(smtp.messages.map((message) => message.subject)).toEqual(["Reintentos"]);
    expect(await row(email.id)).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(await listDeadEmails(test.db)).toEqual([]);
    expect(await retryDeadEmail(test.db, email.id, retryAt)).toEqual({ ok: false, reason: "not_dead" });
    expect(await retryDeadEmail(test.db, randomUUID(), retryAt)).toEqual({ ok: false, reason: "not_found" });
    expect(await retryDeadEmail(test.db, "no-es-un-id", retryAt)).toEqual({ ok: false, reason: "not_found" });
  });

  it("gives up at once on a permanent refusal (an unknown mailbox)", async () => {
    smtp = await startSmtpCapture({ kind: "refuse", code: 550 });
    const email = await queue("Buzón inexistente");
    expect(await deliverPendingEmails(test.db, smtpTransport(smtp.url), now)).toEqual({ sent: 0, failed: 0, dead: 1 });
    expect(await row(email.id)).toMatchObject({ status: "dead", attempts: 1, lastError: expect.stringContaining("550") });
  });

  it("sends each email once when two senders run at the same time", async () => {
    smtp = await startSmtpCapture({ kind: "accept", replyDelayMs: 20 });
    const subjects = Array.from({ length: 12 }, (_, index) => `Pedido ${index + 1}`);
    for (const subject of subjects) await queue(subject);
    const [first, second] = await Promise.all([
      deliverPendingEmails(test.db, smtpTransport(smtp.url), now),
      deliverPendingEmails(test.db, smtpTransport(smtp.url), now),
    ]);
    // Both really ran at once: each sent a share.
    expect(first.sent).toBeGreaterThan(0);
    expect(second.sent).toBeGreaterThan(0);
    expect(first.sent + second.sent).toBe(12);
    expect(smtp.messages.map((message) => message.subject).sort()).toEqual([...subjects].sort());
    const rows = await test.db.select().from(outboxEmails);
    expect(rows.every((email) => email.status === "sent" && email.attempts === 1)).toBe(true);
  });

  it("sends again an email whose sender stopped answering once its lease runs out, and ignores that sender's late outcome", async () => {
    smtp = await startSmtpCapture({ kind: "accept" });
    const email = await queue("Sin respuesta");
    // A sender that claims the email and then never comes back (as a killed process would not).
    let release: () => void = () => {};
    let sendStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (sendStarted = resolve));
    const stuck: MailTransport = {
      send: () =>
        new Promise<void>((resolve) => {
          release = resolve;
          sendStarted();
        }),
    };
    const stuckRun = deliverPendingEmails(test.db, stuck, now, { sendTimeoutMs: 3_600_000 });
    await started;
    expect(await row(email.id)).toMatchObject({ status: "sending", attempts: 1 });

    // While the lease lasts nobody else takes it; once it has run out, another sender does.
    expect(await deliverPendingEmails(test.db, smtpTransport(smtp.url), at(now, SENDING_LEASE_MS - 1_000))).toEqual({ sent: 0, failed: 0, dead: 0 });
    const takenOverAt = at(now, SENDING_LEASE_MS + 1_000);
    expect(await deliverPendingEmails(test.db, smtpTransport(smtp.url), takenOverAt)).toEqual({ sent: 1, failed: 0, dead: 0 });
    expect(smtp.messages.map((message) => message.subject)).toEqual(["Sin respuesta"]);

    // The first sender finally returns: its claim is no longer the row's, so it records nothing.
    release();
    expect(await stuckRun).toEqual({ sent: 0, failed: 0, dead: 0 });
    const sent = await row(email.id);
    expect(sent).toMatchObject({ status: "sent", attempts: 2 });
    expect(sent.sentAt!.getTime() - takenOverAt.getTime()).toBeLessThan(5_000);
  });
});
