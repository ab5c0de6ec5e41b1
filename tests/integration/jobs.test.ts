import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { orders, outboxEmails, payments } from "@server/db/schema";
import { runDueJobs } from "@server/jobs/index.server";
import { deliverPendingEmails, folderTransport, type MailTransport } from "@server/notifications/deliver";
import { enqueueEmail } from "@server/notifications/index.server";
import { applySandboxAction } from "@server/payments/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-24T15:00:00Z");
const order = () => checkoutInput({ correo: "luis@example.pe", rangoHorario: "tarde" });

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
    expect(await deliverPendingEmails(test.db, folderTransport(outbox), now)).toEqual({ sent: 1, failed: 0 });
    expect(await deliverPendingEmails(test.db, folderTransport(outbox), now)).toEqual({ sent: 0, failed: 0 });
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
    expect(await deliverPendingEmails(test.db, down, now)).toEqual({ sent: 0, failed: 1 });
    const [row] = await test.db.select().from(outboxEmails).where(eq(outboxEmails.dedupeKey, "retry:1"));
    expect(row).toMatchObject({ sentAt: null, attempts: 1, lastError: "SMTP no responde" });
    expect(await deliverPendingEmails(test.db, folderTransport(outbox), now)).toEqual({ sent: 1, failed: 0 });
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
    expect((await runDueJobs(test.db, { now: afterWindow, transport })).expiredOrders).toBe(1);
    const status = async (id: string) => (await test.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.status;
    expect(await status(card.orderId)).toBe("cancelled");
    expect(await status(cash.orderId)).toBe("payment_created");
    expect(await status(paid.orderId)).toBe("paid");
    expect((await test.db.select().from(payments).where(eq(payments.id, card.paymentId)))[0]?.status).toBe("expired");

    const afterCode = new Date(now.getTime() + 25 * 3_600_000);
    const [first, second] = await Promise.all([runDueJobs(test.db, { now: afterCode, transport }), runDueJobs(test.db, { now: afterCode, transport })]);
    expect(first.expiredOrders + second.expiredOrders).toBe(1);
    expect(await status(cash.orderId)).toBe("cancelled");
    expect(await status(paid.orderId)).toBe("paid");
  });
});
