import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, invoices, orders, orderStatusChanges, outboxEmails, payments, processedWebhookEvents, refunds } from "@server/db/schema";
import { runDueJobs } from "@server/jobs/index.server";
import { folderTransport } from "@server/notifications/deliver";
import { chargeCulqiToken, expireUnpaidOrders, handleCulqiWebhook, recordCulqiOrderCode, retryDueRefunds } from "@server/order-flows/index.server";
import { createCulqiClient, createCulqiOrderForPayment, type CulqiClient } from "@server/payments/culqi";
import { checkoutInput, uniqueContact } from "../support/checkout-fixture";
import { startCulqiMock, type CulqiEvent, type CulqiMock } from "../support/culqi-mock";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 10:00 in Lima; the fixture's delivery is Wednesday 2026-11-25 in Miraflores.
const now = new Date("2026-11-24T15:00:00Z");
const afterExpiry = new Date(now.getTime() + 31 * 60_000);
/** Wednesday 01:00 in Lima: the order's Wednesday delivery can no longer be booked. */
const tooLateToDeliver = new Date("2026-11-25T06:00:00Z");
const siteUrl = "http://shop.test";
const basicAuth = `Basic ${Buffer.from("culqi:s3creto").toString("base64")}`;

describe("Culqi payments confirmed late, twice, or while Culqi stumbles (decision 0026)", () => {
  let test: TestDatabase;
  let culqi: CulqiMock;
  let client: CulqiClient;
  let outbox: string;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    culqi = await startCulqiMock();
    client = createCulqiClient({ secretKey: culqi.secretKey, apiBase: culqi.apiBase, timeoutMs: 1000 });
    outbox = await mkdtemp(path.join(tmpdir(), "late-payments-outbox-"));
  });
  afterAll(async () => {
    await culqi.close();
    await test.close();
    await rm(outbox, { recursive: true, force: true });
  });

  const webhook = (event: CulqiEvent | Record<string, unknown>, at: Date) =>
    handleCulqiWebhook(test.db, client, { rawBody: JSON.stringify(event), authorization: basicAuth, expectedAuthorization: basicAuth, now: at, siteUrl });
  const orderRow = async (orderId: string) => (await test.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  const history = async (orderId: string) =>
    test.db
      .select({ from: orderStatusChanges.fromStatus, to: orderStatusChanges.toStatus, actor: orderStatusChanges.actor, note: orderStatusChanges.note })
      .from(orderStatusChanges)
      .where(eq(orderStatusChanges.orderId, orderId))
      .orderBy(asc(orderStatusChanges.id));
  const refundsOf = (orderId: string) => test.db.select().from(refunds).where(eq(refunds.orderId, orderId));
  const emailsOf = (kind: string, to: string) =>
    test.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, kind), eq(outboxEmails.toAddress, to)));
  const refundRequestsFor = (chargeId: string) => culqi.refundRequests.filter((request) => request.body.charge_id === chargeId);
  const isProcessed = async (eventId: string) =>
    (await test.db.select().from(processedWebhookEvents).where(eq(processedWebhookEvents.eventId, eventId))).length === 1;

  async function placeCulqiOrder(correo: string) {
    const placed = await placeOrder(test.db, checkoutInput(now, { correo, ...uniqueContact() }), { now, provider: "culqi" });
    if (!placed.ok) throw new Error("order not placed");
    return placed;
  }

  /**
   * The customer's charge reaches Culqi but its answer never comes back (a slow 3-D Secure, a Yape
   * confirmation), and the shop's expiry job closes the order before Culqi's webhook arrives.
   */
  async function chargeThatArrivesAfterExpiry(correo: string) {
    const placed = await placeCulqiOrder(correo);
    culqi.delayNextCharge(1500);
    const answer = await chargeCulqiToken(test.db, client, {
      paymentId: placed.paymentId,
      token: await culqi.tokenize("4111111111111111", correo),
      now,
      siteUrl,
    });
    expect(answer.outcome).toBe("unavailable");
    await expireUnpaidOrders(test.db, afterExpiry);
    expect((await orderRow(placed.orderId)).status).toBe("cancelled");
    const event = culqi.events.findLast(
      (candidate) => candidate.type === "charge.creation.succeeded" && JSON.parse(candidate.data).metadata.payment_id === placed.paymentId,
    )!;
    const chargeId = JSON.parse(event.data).id as string;
    return { ...placed, event, chargeId };
  }

  it("re-opens and settles an expired order whose delivery can still be made, exactly once when the webhook comes three times", async () => {
    const late = await chargeThatArrivesAfterExpiry("reabierto@example.pe");
    const at = new Date(afterExpiry.getTime() + 10 * 60_000);
    const outcomes = await Promise.all([webhook(late.event, at), webhook(late.event, at), webhook({ ...late.event, id: "evt_test_redelivered000001" }, at)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200, 200]);
    expect(outcomes.filter((outcome) => outcome.applied)).toHaveLength(1);

    expect(await orderRow(late.orderId)).toMatchObject({ status: "paid", paymentMethod: "card" });
    expect((await test.db.select().from(payments).where(eq(payments.id, late.paymentId)))[0]).toMatchObject({
      status: "succeeded",
      providerReference: late.chargeId,
    });
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, late.orderId))).toHaveLength(1);
    expect(await emailsOf("order-confirmation", "reabierto@example.pe")).toHaveLength(1);
    expect((await history(late.orderId)).slice(-2)).toEqual([
      { from: "pending", to: "cancelled", actor: "system", note: "Pago no completado a tiempo" },
      { from: "cancelled", to: "paid", actor: "culqi-webhook", note: "Pago confirmado después del vencimiento: pedido reabierto" },
    ]);
    expect((await test.db.select().from(deliveries).where(eq(deliveries.orderId, late.orderId)))[0]!.status).toBe("pending");
    expect(await refundsOf(late.orderId)).toEqual([]);
    expect(refundRequestsFor(late.chargeId)).toEqual([]);
  });

  it("refunds a late payment whose delivery date has passed, exactly once when the webhook comes three times, and tells the customer", async () => {
    const late = await chargeThatArrivesAfterExpiry("tarde@example.pe");
    const outcomes = await Promise.all([
      webhook(late.event, tooLateToDeliver),
      webhook(late.event, tooLateToDeliver),
      webhook({ ...late.event, id: "evt_test_redelivered000002" }, tooLateToDeliver),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200, 200]);

    expect(culqi.refunds.filter((refund) => refund.charge_id === late.chargeId)).toEqual([
      expect.objectContaining({ amount: 5990, reason: "solicitud_comprador" }),
    ]);
    expect(Number(culqi.charges.get(late.chargeId)!.amount_refunded)).toBe(5990);
    const [refund] = await refundsOf(late.orderId);
    expect(refund).toMatchObject({
      status: "succeeded",
      reason: "late_payment",
      chargeReference: late.chargeId,
      amountCents: 5990,
      providerRefundId: expect.stringMatching(/^ref_test_/),
    });
    expect(await refundsOf(late.orderId)).toHaveLength(1);
    expect(refundRequestsFor(late.chargeId).every((request) => request.idempotencyKey === `refund-${refund!.id}`)).toBe(true);

    expect((await orderRow(late.orderId)).status).toBe("refunded");
    expect((await history(late.orderId)).at(-1)).toMatchObject({
      from: "cancelled",
      to: "refunded",
      actor: "system",
      note: expect.stringContaining(late.chargeId),
    });
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, late.orderId))).toEqual([]);
    const [email] = await emailsOf("payment-refunded", "tarde@example.pe");
    expect(email).toMatchObject({ subject: expect.stringContaining("Devolvimos tu pago") });
    expect(email!.text).toContain("S/ 59.90");
    expect(await emailsOf("payment-refunded", "tarde@example.pe")).toHaveLength(1);

    // Culqi's own refund event changes nothing.
    const refundEvent = culqi.events.findLast((event) => event.type === "refund.creation.succeeded")!;
    expect(await webhook(refundEvent, tooLateToDeliver)).toEqual({ status: 200, applied: false });
  });

  it("re-opens the order when the charge is answered only after the expiry job closed it, and tells the customer it is paid", async () => {
    const placed = await placeCulqiOrder("envuelo@example.pe");
    const chargesBefore = culqi.events.length;
    culqi.delayNextCharge(500);
    const answer = chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token: await culqi.yapeToken(), now, siteUrl });
    // Culqi has taken the money and is still answering when the job closes the order.
    await vi.waitFor(() => expect(culqi.events.length).toBeGreaterThan(chargesBefore));
    expect(await expireUnpaidOrders(test.db, afterExpiry)).toBe(1);
    expect(await answer).toEqual({ outcome: "paid", orderId: placed.orderId });
    expect(await orderRow(placed.orderId)).toMatchObject({ status: "paid", paymentMethod: "yape" });
    expect((await history(placed.orderId)).at(-1)).toMatchObject({ from: "cancelled", to: "paid", actor: "culqi" });
  });

  it("gives back a second charge for an order another charge already paid", async () => {
    const placed = await placeCulqiOrder("doble@example.pe");
    culqi.delayNextCharge(1500);
    expect(
      (
        await chargeCulqiToken(test.db, client, {
          paymentId: placed.paymentId,
          token: await culqi.tokenize("4111111111111111", "doble@example.pe"),
          now,
          siteUrl,
        })
      ).outcome,
    ).toBe("unavailable");
    const firstCharge = culqi.events.findLast((candidate) => candidate.type === "charge.creation.succeeded")!;
    // The customer tries again with another card, which is answered at once.
    expect(
      (
        await chargeCulqiToken(test.db, client, {
          paymentId: placed.paymentId,
          token: await culqi.tokenize("5111111111111118", "doble@example.pe"),
          now,
          siteUrl,
        })
      ).outcome,
    ).toBe("paid");

    for (let delivery = 0; delivery < 3; delivery += 1) expect((await webhook(firstCharge, now)).status).toBe(200);
    const firstChargeId = JSON.parse(firstCharge.data).id as string;
    expect(culqi.refunds.filter((refund) => refund.charge_id === firstChargeId)).toEqual([expect.objectContaining({ amount: 5990, reason: "duplicado" })]);
    expect(await refundsOf(placed.orderId)).toEqual([expect.objectContaining({ status: "succeeded", reason: "duplicate_charge" })]);
    expect((await orderRow(placed.orderId)).status).toBe("paid");
    expect((await history(placed.orderId)).at(-1)).toMatchObject({ from: "paid", to: "paid", note: expect.stringContaining(firstChargeId) });
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId))).toHaveLength(1);
    expect(await emailsOf("payment-refunded", "doble@example.pe")).toHaveLength(1);
  });

  it("keeps a refund Culqi refused for later and completes it from the jobs, once", async () => {
    expectConsoleError(/refund .* failed \(attempt 1: HTTP 503\)/);
    const late = await chargeThatArrivesAfterExpiry("reintento@example.pe");
    culqi.failNextRefund("before");
    expect(await webhook(late.event, tooLateToDeliver)).toEqual({ status: 200, applied: true });
    const [pending] = await refundsOf(late.orderId);
    expect(pending).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 503" });
    expect(pending!.nextAttemptAt.getTime()).toBeGreaterThan(tooLateToDeliver.getTime());
    expect((await orderRow(late.orderId)).status).toBe("cancelled");
    expect(await emailsOf("payment-refunded", "reintento@example.pe")).toEqual([]);

    // Not before its time, then through the regular jobs pass.
    expect(await retryDueRefunds(test.db, client, { now: tooLateToDeliver, siteUrl })).toEqual({ refunded: 0, failed: 0 });
    const report = await runDueJobs(test.db, { now: pending!.nextAttemptAt, transport: folderTransport(outbox), siteUrl, culqi: client });
    expect(report.failures).toEqual([]);
    expect(report.results.refunds).toMatchObject({ refunded: 1 });
    expect((await refundsOf(late.orderId))[0]).toMatchObject({ status: "succeeded", attempts: 2, lastError: null });
    expect(culqi.refunds.filter((refund) => refund.charge_id === late.chargeId)).toHaveLength(1);
    expect((await orderRow(late.orderId)).status).toBe("refunded");
    expect((await emailsOf("payment-refunded", "reintento@example.pe"))[0]!.sentAt).not.toBeNull();
  });

  it("never refunds twice when Culqi made the refund but its answer was lost", async () => {
    expectConsoleError(/refund .* failed \(attempt 1: .*\)/);
    const late = await chargeThatArrivesAfterExpiry("perdida@example.pe");
    culqi.failNextRefund("lost-answer");
    expect((await webhook(late.event, tooLateToDeliver)).status).toBe(200);
    expect((await refundsOf(late.orderId))[0]).toMatchObject({ status: "pending", attempts: 1 });

    const later = new Date(tooLateToDeliver.getTime() + 3_600_000);
    expect(await retryDueRefunds(test.db, client, { now: later, siteUrl })).toEqual({ refunded: 1, failed: 0 });
    expect(refundRequestsFor(late.chargeId)).toHaveLength(1);
    expect(culqi.refunds.filter((refund) => refund.charge_id === late.chargeId)).toHaveLength(1);
    expect((await refundsOf(late.orderId))[0]).toMatchObject({ status: "succeeded", providerRefundId: null });
    expect(await emailsOf("payment-refunded", "perdida@example.pe")).toHaveLength(1);
  });

  it("answers 503 and leaves the event unprocessed while Culqi cannot be read, then settles on the retry", async () => {
    expectConsoleError(/Culqi webhook .* not processed, answered 503/);
    const placed = await placeCulqiOrder("caido@example.pe");
    culqi.delayNextCharge(1500);
    await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token: await culqi.tokenize("4111111111111111", "caido@example.pe"), now, siteUrl });
    const event = culqi.events.findLast((candidate) => candidate.type === "charge.creation.succeeded")!;

    culqi.failReads(1);
    expect(await webhook(event, now)).toEqual({ status: 503, applied: false });
    expect(await isProcessed(event.id)).toBe(false);
    expect((await orderRow(placed.orderId)).status).toBe("pending");

    expect(await webhook(event, now)).toEqual({ status: 200, applied: true });
    expect(await isProcessed(event.id)).toBe(true);
    expect((await orderRow(placed.orderId)).status).toBe("paid");
  });

  it("answers 500 and leaves the event unprocessed when settling fails unexpectedly", async () => {
    expectConsoleError(/Culqi webhook .* not processed, answered 500/);
    const placed = await placeCulqiOrder("roto@example.pe");
    culqi.delayNextCharge(1500);
    await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token: await culqi.tokenize("4111111111111111", "roto@example.pe"), now, siteUrl });
    const event = culqi.events.findLast((candidate) => candidate.type === "charge.creation.succeeded")!;
    // A real database fault the handler does not foresee: no invoice can be written for a while.
    await test.db.execute(sql.raw("alter table invoices add constraint invoices_refuse_for_test check (false) not valid"));
    try {
      expect(await webhook(event, now)).toEqual({ status: 500, applied: false });
    } finally {
      await test.db.execute(sql.raw("alter table invoices drop constraint invoices_refuse_for_test"));
    }
    expect(await isProcessed(event.id)).toBe(false);
    expect((await orderRow(placed.orderId)).status).toBe("pending");
    expect(await webhook(event, now)).toEqual({ status: 200, applied: true });
    expect((await orderRow(placed.orderId)).status).toBe("paid");
  });

  it("keeps a Culqi order's payment waiting when Culqi cannot be read for its code, and still settles it from the paid webhook", async () => {
    const placed = await placeCulqiOrder("codigo@example.pe");
    const culqiOrderId = (await createCulqiOrderForPayment(test.db, client, { paymentId: placed.paymentId, now }))!;
    await culqi.confirmOrder(culqiOrderId);
    culqi.failReads(1);
    expect(await recordCulqiOrderCode(test.db, client, { paymentId: placed.paymentId, now })).toBeNull();
    expect((await test.db.select().from(payments).where(eq(payments.id, placed.paymentId)))[0]).toMatchObject({
      status: "created",
      providerReference: culqiOrderId,
    });
    expect(await webhook(culqi.payOrder(culqiOrderId), now)).toEqual({ status: 200, applied: true });
    expect((await orderRow(placed.orderId)).status).toBe("paid");
  });

  it("acknowledges a Culqi order expiring after the shop already closed or paid its order, changing nothing", async () => {
    const closed = await placeCulqiOrder("vencido@example.pe");
    const closedCulqiOrder = (await createCulqiOrderForPayment(test.db, client, { paymentId: closed.paymentId, now }))!;
    await culqi.confirmOrder(closedCulqiOrder);
    await recordCulqiOrderCode(test.db, client, { paymentId: closed.paymentId, now });
    await expireUnpaidOrders(test.db, new Date(now.getTime() + 25 * 3_600_000));
    expect(await webhook(culqi.expireOrder(closedCulqiOrder), now)).toEqual({ status: 200, applied: false });
    expect((await history(closed.orderId)).filter((change) => change.to === "cancelled")).toHaveLength(1);

    const open = await placeCulqiOrder("abierto@example.pe");
    const openCulqiOrder = (await createCulqiOrderForPayment(test.db, client, { paymentId: open.paymentId, now }))!;
    await culqi.confirmOrder(openCulqiOrder);
    await recordCulqiOrderCode(test.db, client, { paymentId: open.paymentId, now });
    expect(await webhook(culqi.expireOrder(openCulqiOrder), now)).toEqual({ status: 200, applied: true });
    expect(await orderRow(open.orderId)).toMatchObject({ status: "cancelled" });
    expect((await test.db.select().from(payments).where(eq(payments.id, open.paymentId)))[0]!.status).toBe("expired");
  });
});
