import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { invoices, orders, payments } from "@server/db/schema";
import { chargeCulqiToken, handleCulqiWebhook, issueCulqiCodeWithoutCheckout, recordCulqiOrderCode } from "@server/order-flows/index.server";
import { createCulqiClient, createCulqiOrderForPayment, type CulqiClient } from "@server/payments/culqi";
import { checkoutInput } from "../support/checkout-fixture";
import { startCulqiMock, successfulCulqiCharges, type CulqiMock } from "../support/culqi-mock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-24T15:00:00Z");
const siteUrl = "http://shop.test";
const basicAuth = `Basic ${Buffer.from("culqi:s3creto").toString("base64")}`;

describe("Culqi adapter against a local Culqi API", () => {
  let test: TestDatabase;
  let culqi: CulqiMock;
  let client: CulqiClient;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    culqi = await startCulqiMock();
    client = createCulqiClient({ secretKey: culqi.secretKey, apiBase: culqi.apiBase, timeoutMs: 1000 });
  });
  afterAll(async () => {
    await culqi.close();
    await test.close();
  });

  async function newPayment(correo = "marta@example.pe") {
    const placed = await placeOrder(test.db, checkoutInput(now, { correo }), { now, provider: "culqi" });
    if (!placed.ok) throw new Error("order not placed");
    return placed;
  }
  const orderStatus = async (orderId: string) => (await test.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  const webhook = (body: unknown, authorization: string | null = basicAuth) =>
    handleCulqiWebhook(test.db, client, { rawBody: JSON.stringify(body), authorization, expectedAuthorization: basicAuth, now, siteUrl });

  it("marks the order paid on 201 venta_exitosa, charging the server's amount with our ids in metadata", async () => {
    const placed = await newPayment();
    const result = await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token: await culqi.tokenize("4111111111111111"), now, siteUrl });
    expect(result).toEqual({ outcome: "paid", orderId: placed.orderId });
    expect(await orderStatus(placed.orderId)).toMatchObject({ status: "paid", paymentMethod: "card" });
    const [payment] = await test.db.select().from(payments).where(eq(payments.id, placed.paymentId));
    const charge = culqi.charges.get(payment!.providerReference!)!;
    expect(charge).toMatchObject({ amount: 5990, currency_code: "PEN", metadata: { order_id: placed.orderId, payment_id: placed.paymentId } });
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId))).toHaveLength(1);
  });

  it("accepts Yape tokens as Yape payments", async () => {
    const placed = await newPayment();
    expect((await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token: await culqi.yapeToken(), now, siteUrl })).outcome).toBe("paid");
    expect((await orderStatus(placed.orderId)).paymentMethod).toBe("yape");
  });

  it("fails the order on a decline and hands back Culqi's message for the customer", async () => {
    const placed = await newPayment();
    const result = await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token: await culqi.tokenize("4000040000000008"), now, siteUrl });
    expect(result).toMatchObject({ outcome: "declined" });
    expect(result.outcome === "declined" && result.message).toContain("no tiene fondos suficientes");
    expect((await orderStatus(placed.orderId)).status).toBe("failed");
  });

  // Issue 24, defect 9 (decision 0071): the double click used to be serialised in memory, so two processes both called Culqi.
  it("charges a token double-clicked into two server processes once: the second waits and lands on the paid order too", async () => {
    // A second copy of the payments module, as another process has: nothing in memory is shared, only the database.
    vi.resetModules();
    const otherProcess = await import("@server/order-flows/index.server");
    const placed = await newPayment("doble-proceso@example.pe");
    const token = await culqi.tokenize("4111111111111111");
    culqi.delayNextCharge(400);
    const charge = { paymentId: placed.paymentId, token, now, siteUrl };
    const answers = await Promise.all([chargeCulqiToken(test.db, client, charge), otherProcess.chargeCulqiToken(test.db, client, charge)]);
    expect(answers).toEqual([
      { outcome: "paid", orderId: placed.orderId },
      { outcome: "paid", orderId: placed.orderId },
    ]);
    expect(successfulCulqiCharges(culqi).filter((row) => row.paymentId === placed.paymentId)).toHaveLength(1);
    expect(await orderStatus(placed.orderId)).toMatchObject({ status: "paid" });
    const [payment] = await test.db.select().from(payments).where(eq(payments.id, placed.paymentId));
    expect(payment).toMatchObject({ status: "succeeded", chargeClaimedUntil: null });
  });

  it("sends a 3DS review back to the browser and pays once authenticated", async () => {
    const placed = await newPayment();
    const token = await culqi.tokenize("4456530000001096");
    expect((await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token, now, siteUrl })).outcome).toBe("review");
    expect((await orderStatus(placed.orderId)).status).toBe("pending");
    const authenticated = await chargeCulqiToken(test.db, client, {
      paymentId: placed.paymentId,
      token,
      now,
      siteUrl,
      authentication3DS: { eci: "05", xid: "x", cavv: "c", protocolVersion: "2.1.0", directoryServerTransactionId: "d" },
    });
    expect(authenticated.outcome).toBe("paid");
  });

  it("asks for 3DS for the test email review@culqi.com, then charges the same token with the bank's values and the device id", async () => {
    const placed = await newPayment("review@culqi.com");
    const token = await culqi.tokenize("4111111111111111", "review@culqi.com");
    const deviceFingerprint = "dev-3ds-9f8e7d6c";
    const requestsFor = () => culqi.chargeRequests.filter((request) => (request.body.metadata as { payment_id?: string }).payment_id === placed.paymentId);

    expect(await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token, now, siteUrl, deviceFingerprint })).toEqual({
      outcome: "review",
      orderId: placed.orderId,
    });
    const [payment] = await test.db.select().from(payments).where(eq(payments.id, placed.paymentId));
    expect(payment!.status).toBe("created");
    expect((await orderStatus(placed.orderId)).status).toBe("pending");

    const authentication3DS = {
      eci: "05",
      xid: "Y2FyZGluYWxjb21tZXJjZWF1dGg=",
      cavv: "AAABAWFlmQAAAABjRWWZEEFgFz+=",
      protocolVersion: "2.1.0",
      directoryServerTransactionId: "88e5c2b9-6b5f-4bfc-8a3c-4c2b3b6f0a11",
    };
    expect(await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token, now, siteUrl, deviceFingerprint, authentication3DS })).toEqual({
      outcome: "paid",
      orderId: placed.orderId,
    });
    expect((await orderStatus(placed.orderId)).status).toBe("paid");

    const [first, second] = requestsFor();
    expect(requestsFor()).toHaveLength(2);
    expect(first).toMatchObject({
      status: 200,
      actionCode: "REVIEW",
      body: { source_id: token, email: "review@culqi.com", antifraud_details: { device_finger_print_id: deviceFingerprint } },
    });
    expect(first!.body).not.toHaveProperty("authentication_3DS");
    expect(second).toMatchObject({
      status: 201,
      body: { source_id: token, amount: 5990, authentication_3DS: authentication3DS, antifraud_details: { device_finger_print_id: deviceFingerprint } },
    });
  });

  it("charges without antifraud details when the browser had no device id", async () => {
    const placed = await newPayment();
    await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token: await culqi.tokenize("5111111111111118"), now, siteUrl });
    const request = culqi.chargeRequests.findLast((candidate) => (candidate.body.metadata as { payment_id?: string }).payment_id === placed.paymentId);
    expect(request?.status).toBe(201);
    expect(request?.body).not.toHaveProperty("antifraud_details");
  });

  it("leaves a timed-out charge open, then settles it once from the webhook, however often it is replayed", async () => {
    const placed = await newPayment();
    culqi.delayNextCharge(1500);
    const result = await chargeCulqiToken(test.db, client, { paymentId: placed.paymentId, token: await culqi.tokenize("5111111111111118"), now, siteUrl });
    expect(result.outcome).toBe("unavailable");
    expect((await orderStatus(placed.orderId)).status).toBe("pending");

    const event = culqi.events.findLast((candidate) => candidate.type === "charge.creation.succeeded")!;
    expect(await webhook(event)).toEqual({ status: 200, applied: true });
    expect(await webhook(event)).toEqual({ status: 200, applied: false });
    // The same charge announced again under another event id also changes nothing.
    expect(await webhook({ ...event, id: "evt_test_again0000000000" })).toEqual({ status: 200, applied: false });
    expect((await orderStatus(placed.orderId)).status).toBe("paid");
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId))).toHaveLength(1);
  });

  it("refuses webhooks without the configured Basic auth and never trusts the event's own claims", async () => {
    const placed = await newPayment();
    const forged = {
      object: "event",
      id: "evt_test_forged000000000",
      type: "charge.creation.succeeded",
      data: JSON.stringify({ id: "chr_test_doesnotexist0000", outcome: { type: "venta_exitosa" }, metadata: { payment_id: placed.paymentId } }),
    };
    expect(await webhook(forged, null)).toEqual({ status: 401, applied: false });
    expect(await webhook(forged, `Basic ${Buffer.from("culqi:otra").toString("base64")}`)).toEqual({ status: 401, applied: false });
    expect(await webhook(forged)).toEqual({ status: 200, applied: false });
    expect(await webhook("not json")).toEqual({ status: 400, applied: false });
    expect((await orderStatus(placed.orderId)).status).toBe("pending");
  });

  it("pays with a Culqi order: code issued, then the paid webhook confirms the order", async () => {
    const placed = await newPayment();
    const culqiOrderId = await createCulqiOrderForPayment(test.db, client, { paymentId: placed.paymentId, now });
    expect(culqiOrderId).toMatch(/^ord_test_/);
    expect(await createCulqiOrderForPayment(test.db, client, { paymentId: placed.paymentId, now })).toBe(culqiOrderId);
    await culqi.confirmOrder(culqiOrderId!);
    await recordCulqiOrderCode(test.db, client, { paymentId: placed.paymentId, now });
    const [pending] = await test.db.select().from(payments).where(eq(payments.id, placed.paymentId));
    expect(pending).toMatchObject({ status: "pending", method: "cash" });
    expect(pending!.paymentCode).toMatch(/^\d{8}$/);
    expect((await orderStatus(placed.orderId)).status).toBe("payment_created");

    const paid = culqi.payOrder(culqiOrderId!);
    expect(await webhook(paid)).toEqual({ status: 200, applied: true });
    expect(await webhook(paid)).toEqual({ status: 200, applied: false });
    expect(await orderStatus(placed.orderId)).toMatchObject({ status: "paid", paymentMethod: "cash" });
  });

  it("gives a payment code without Culqi's checkout (widget missing), once, even when the order was never created", async () => {
    const placed = await newPayment("sin-widget@example.pe");
    const input = { paymentId: placed.paymentId, now, publicKey: culqi.publicKey };
    const code = await issueCulqiCodeWithoutCheckout(test.db, client, input);
    expect(code).toMatch(/^\d{8}$/);
    const [pending] = await test.db.select().from(payments).where(eq(payments.id, placed.paymentId));
    expect(pending).toMatchObject({ status: "pending", method: "cash", paymentCode: code });
    expect(culqi.orders.get(pending!.providerReference!)).toMatchObject({ state: "pending", payment_code: code, amount: pending!.amountCents });
    // A second click (or another tab) gets the same code and no second Culqi order.
    const ordersBefore = culqi.orders.size;
    expect(await issueCulqiCodeWithoutCheckout(test.db, client, input)).toBe(code);
    expect(culqi.orders.size).toBe(ordersBefore);
  });

  it("says so when Culqi cannot give a code, leaving the payment payable", async () => {
    const placed = await newPayment("sin-widget-caido@example.pe");
    const down = createCulqiClient({ secretKey: culqi.secretKey, apiBase: "http://127.0.0.1:9/v2", timeoutMs: 500 });
    expect(await issueCulqiCodeWithoutCheckout(test.db, down, { paymentId: placed.paymentId, now, publicKey: culqi.publicKey })).toBeNull();
    expect((await test.db.select().from(payments).where(eq(payments.id, placed.paymentId)))[0]).toMatchObject({ status: "created", paymentCode: null });
  });
});
