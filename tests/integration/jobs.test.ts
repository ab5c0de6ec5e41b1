import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestPasswordReset } from "@server/accounts/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { saveAbandonedCart } from "@server/cart/index.server";
import { collectQueuedWork } from "@server/db/queued-work";
import { DEMO_CUSTOMER } from "@server/db/seed/demo-accounts";
import { orders, outboxEmails, payments } from "@server/db/schema";
import { createJobScheduler, runDueJobs } from "@server/jobs/index.server";
import { deliverPendingEmails, folderTransport, type MailTransport } from "@server/notifications/deliver";
import { enqueueEmail } from "@server/notifications/index.server";
import { applySandboxAction } from "@server/order-flows/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { expectConsoleError } from "../support/fail-on-console-error";
import { confirmedConsent } from "../support/promotional-consent";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-24T15:00:00Z");
const order = (placedAt = now) => checkoutInput(placedAt, { correo: "luis@example.pe", rangoHorario: "tarde" });

describe("time-driven jobs", () => {
  let test: TestDatabase;
  let outbox: string;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    outbox = await mkdtemp(path.join(tmpdir(), "outbox-test-"));
  });
  afterAll(async () => {
    await test.close();
    await rm(outbox, { recursive: true, force: true });
  });

  it("writes queued emails to the local outbox as .eml and .html, once", async () => {
    await enqueueEmail(test.db, { dedupeKey: "welcome:1", kind: "welcome", to: "ana@example.pe", subject: "Hola Ana", html: "<p>Hola</p>", text: "Hola" }, now);
    // The same key again is not a second email.
    await enqueueEmail(test.db, { dedupeKey: "welcome:1", kind: "welcome", to: "ana@example.pe", subject: "Hola otra vez", html: "<p>x</p>", text: "x" }, now);
    expect(await deliverPendingEmails(test.db, folderTransport(outbox), now)).toEqual({ sent: 1, failed: 0, dead: 0 });
    expect(await deliverPendingEmails(test.db, folderTransport(outbox), now)).toEqual({ sent: 0, failed: 0, dead: 0 });
    const files = (await readdir(outbox)).sort();
    expect(files.map((file) => path.extname(file))).toEqual([".eml", ".html", ".json"]);
    const eml = await readFile(path.join(outbox, files[0]!), "utf8");
    expect(eml).toContain("To: ana@example.pe");
    expect(eml).toContain("Subject: Hola Ana");
  });

  it("keeps a failed send for a later run and records why", async () => {
    await enqueueEmail(test.db, { dedupeKey: "retry:1", kind: "notice", to: "bea@example.pe", subject: "Aviso", html: "<p>a</p>", text: "a" }, now);
    const down: MailTransport = {
      async send() {
        throw new Error("SMTP no responde");
      },
    };
    expect(await deliverPendingEmails(test.db, down, now)).toEqual({ sent: 0, failed: 1, dead: 0 });
    const [row] = await test.db.select().from(outboxEmails).where(eq(outboxEmails.dedupeKey, "retry:1"));
    expect(row).toMatchObject({ status: "pending", sentAt: null, attempts: 1, lastError: "SMTP no responde" });
    // Not before its backoff (30 s after the failure), then it goes.
    expect(await deliverPendingEmails(test.db, folderTransport(outbox), now)).toEqual({ sent: 0, failed: 0, dead: 0 });
    expect(await deliverPendingEmails(test.db, folderTransport(outbox), row!.nextAttemptAt)).toEqual({ sent: 1, failed: 0, dead: 0 });
  });

  it("cancels unpaid orders when their payment window or code expires, and leaves paid ones alone", async () => {
    const card = await placeOrder(test.db, order(), { now, provider: "sandbox" });
    const cash = await placeOrder(test.db, order(), { now, provider: "sandbox" });
    const paid = await placeOrder(test.db, order(), { now, provider: "sandbox" });
    if (!card.ok || !cash.ok || !paid.ok) throw new Error("orders not placed");
    await applySandboxAction(test.db, cash.paymentId, "issue_code", { now, siteUrl: "http://shop.test" });
    await applySandboxAction(test.db, paid.paymentId, "approve_card", { now, siteUrl: "http://shop.test" });

    const transport = folderTransport(outbox);
    const afterWindow = new Date(now.getTime() + 31 * 60_000);
    expect((await runDueJobs(test.db, { now: afterWindow, transport })).results.expiredOrders).toBe(1);
    const status = async (id: string) => (await test.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.status;
    expect(await status(card.orderId)).toBe("cancelled");
    expect(await status(cash.orderId)).toBe("payment_created");
    expect(await status(paid.orderId)).toBe("paid");
    expect((await test.db.select().from(payments).where(eq(payments.id, card.paymentId)))[0]?.status).toBe("expired");

    const afterCode = new Date(now.getTime() + 25 * 3_600_000);
    const [first, second] = await Promise.all([runDueJobs(test.db, { now: afterCode, transport }), runDueJobs(test.db, { now: afterCode, transport })]);
    expect(first.results.expiredOrders! + second.results.expiredOrders!).toBe(1);
    expect(await status(cash.orderId)).toBe("cancelled");
    expect(await status(paid.orderId)).toBe("paid");
  });

  const status = async (id: string) => (await test.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.status;

  it("runs the jobs after one that throws, reports it by name, and runs it again on the next pass", async () => {
    const placed = await placeOrder(test.db, order(), { now, provider: "sandbox" });
    if (!placed.ok) throw new Error("order not placed");
    await enqueueEmail(test.db, { dedupeKey: "isolation:1", kind: "notice", to: "eva@example.pe", subject: "Aviso aislado", html: "<p>a</p>", text: "a" }, now);
    const transport = folderTransport(outbox);
    const afterWindow = new Date(now.getTime() + 31 * 60_000);

    // A real failure inside one job: the table the cart reminders read is gone.
    await test.db.execute(sql`alter table abandoned_carts rename to abandoned_carts_away`);
    expectConsoleError(/Job "cartReminders" failed/);
    let report;
    try {
      report = await runDueJobs(test.db, { now: afterWindow, transport });
    } finally {
      await test.db.execute(sql`alter table abandoned_carts_away rename to abandoned_carts`);
    }
    expect(report.failures).toEqual([{ job: "cartReminders", error: expect.stringContaining("abandoned_carts") }]);
    expect(report.results.cartReminders).toBeUndefined();
    // The jobs before it and the email delivery after it did their work.
    expect(report.results.expiredOrders).toBe(1);
    expect(await status(placed.orderId)).toBe("cancelled");
    expect(report.results.emails?.sent).toBeGreaterThanOrEqual(1);
    expect((await test.db.select().from(outboxEmails).where(eq(outboxEmails.dedupeKey, "isolation:1")))[0]?.status).toBe("sent");

    const next = await runDueJobs(test.db, { now: new Date(afterWindow.getTime() + 30_000), transport });
    expect(next.failures).toEqual([]);
    expect(next.results.cartReminders).toBe(0);
  });

  it("sends a password reset email by running only the email job, not the rest of the pass", async () => {
    const placedAt = new Date();
    const placed = await placeOrder(test.db, order(placedAt), { now: placedAt, provider: "sandbox" });
    if (!placed.ok) throw new Error("order not placed");
    const sent: string[] = [];
    const scheduler = createJobScheduler(test.db, {
      intervalSeconds: 0,
      // Past the order's payment window: a whole pass would cancel it.
      clock: () => new Date(placedAt.getTime() + 31 * 60_000),
      transport: { send: async (message) => void sent.push(message.kind) },
    });
    try {
      expect(await requestPasswordReset(test.db, { email: DEMO_CUSTOMER.email, client: "jobs-test" })).toMatchObject({ ok: true });
      scheduler.runSoon("emails");
      await scheduler.idle();
      expect(sent).toContain("password_reset");
      expect(await status(placed.orderId)).not.toBe("cancelled");

      await scheduler.run("expiredOrders");
      expect(await status(placed.orderId)).toBe("cancelled");
    } finally {
      await scheduler.stop();
    }
  });

  it("notes what a payment queues for the jobs, and sends at once the e-mail a job run started soon queues", async () => {
    const placed = await placeOrder(test.db, order(), { now, provider: "sandbox" });
    if (!placed.ok) throw new Error("order not placed");
    // What serve.mjs reads once a request's answer is out: the order's e-mail and its comprobante.
    const { result, queued } = collectQueuedWork(() => applySandboxAction(test.db, placed.paymentId!, "approve_card", { now, siteUrl: "http://shop.test" }));
    await result;
    expect([...queued].sort()).toEqual(["comprobantes", "emails"]);

    const email = "chain@example.pe";
    await confirmedConsent(test.db, email, now);
    await saveAbandonedCart(test.db, { email, items: [{ productId: 6, variantId: null, quantity: 2 }], client: "jobs-test" }, now);
    const sent: string[] = [];
    const scheduler = createJobScheduler(test.db, {
      intervalSeconds: 0,
      clock: () => new Date(now.getTime() + 61 * 60_000),
      transport: { send: async (message) => void sent.push(`${message.kind}:${message.to}`) },
    });
    try {
      scheduler.runSoon("cartReminders");
      await scheduler.idle();
      expect(sent).toContain(`abandoned-cart:${email}`);
    } finally {
      await scheduler.stop();
    }
  });
});
