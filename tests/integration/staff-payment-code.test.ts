/**
 * Issue 38, "Código de pago" on "Nuevo pedido": the office asks the attempt's own provider for a
 * cash code, as its payment page would (the sandbox's "issue_code"; Culqi's order confirmed without
 * its checkout), once however often it is asked, and hears null when the provider cannot give one.
 * The environment is read once per process, so each case loads the doors afresh after setting it.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { orders, payments } from "@server/db/schema";
import type * as OrderFlowsDoor from "@server/order-flows/index.server";
import { checkoutInput, uniqueContact } from "../support/checkout-fixture";
import { startCulqiMock, type CulqiMock } from "../support/culqi-mock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-24T15:00:00Z");
const siteUrl = "http://shop.test";
const NO_PROVIDER = { CULQI_PUBLIC_KEY: undefined, CULQI_SECRET_KEY: undefined };

describe("a payment code the office dictates (issue 38)", () => {
  let test: TestDatabase;
  let culqi: CulqiMock;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    culqi = await startCulqiMock();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  afterAll(async () => {
    await culqi.close();
    await test.close();
  });

  async function flows(environment: Record<string, string | undefined>): Promise<typeof OrderFlowsDoor> {
    for (const [name, value] of Object.entries({ ...NO_PROVIDER, ...environment })) vi.stubEnv(name, value);
    vi.resetModules();
    return import("@server/order-flows/index.server");
  }
  async function newPayment(provider: string, correo: string) {
    const placed = await placeOrder(test.db, checkoutInput(now, { correo, ...uniqueContact() }), { now, provider });
    if (!placed.ok) throw new Error("order not placed");
    return placed;
  }
  const paymentRow = async (paymentId: string) => (await test.db.select().from(payments).where(eq(payments.id, paymentId)))[0]!;

  it("gets the sandbox's code, once: the order waits for it to be paid", async () => {
    const { issuePaymentCode } = await flows({});
    const placed = await newPayment("sandbox", "codigo-sandbox@example.pe");
    const issued = await issuePaymentCode(test.db, { paymentId: placed.paymentId, now, siteUrl });
    expect(issued?.code).toMatch(/^\d{8}$/);
    expect(await paymentRow(placed.paymentId)).toMatchObject({ status: "pending", method: "cash", paymentCode: issued!.code });
    expect((await test.db.select().from(orders).where(eq(orders.id, placed.orderId)))[0]!.status).toBe("payment_created");
    expect(await issuePaymentCode(test.db, { paymentId: placed.paymentId, now, siteUrl })).toEqual(issued);
  });

  it("gets Culqi's code for a Culqi attempt, without its checkout, and one Culqi order however often it is asked", async () => {
    const { issuePaymentCode } = await flows({ CULQI_PUBLIC_KEY: culqi.publicKey, CULQI_SECRET_KEY: culqi.secretKey, CULQI_API_BASE: culqi.apiBase });
    const placed = await newPayment("culqi", "codigo-culqi@example.pe");
    const issued = await issuePaymentCode(test.db, { paymentId: placed.paymentId, now, siteUrl });
    const payment = await paymentRow(placed.paymentId);
    expect(payment).toMatchObject({ status: "pending", method: "cash", paymentCode: issued!.code });
    expect(culqi.orders.get(payment.providerReference!)).toMatchObject({ state: "pending", payment_code: issued!.code, amount: payment.amountCents });
    const before = culqi.orders.size;
    expect((await issuePaymentCode(test.db, { paymentId: placed.paymentId, now, siteUrl }))?.code).toBe(issued!.code);
    expect(culqi.orders.size).toBe(before);
  });

  it("answers null, leaving the attempt payable, when Culqi does not answer, and for an attempt that is not open", async () => {
    const { issuePaymentCode } = await flows({ CULQI_PUBLIC_KEY: culqi.publicKey, CULQI_SECRET_KEY: culqi.secretKey, CULQI_API_BASE: "http://127.0.0.1:9/v2" });
    const placed = await newPayment("culqi", "codigo-caido@example.pe");
    expect(await issuePaymentCode(test.db, { paymentId: placed.paymentId, now, siteUrl })).toBeNull();
    expect(await paymentRow(placed.paymentId)).toMatchObject({ status: "created", paymentCode: null });
    await test.db.update(payments).set({ status: "failed" }).where(eq(payments.id, placed.paymentId));
    expect(await issuePaymentCode(test.db, { paymentId: placed.paymentId, now, siteUrl })).toBeNull();
    expect(await issuePaymentCode(test.db, { paymentId: "no-es-un-uuid", now, siteUrl })).toBeNull();
  });
});
