/**
 * Issue 38, "Código de pago" on "Nuevo pedido": the office asks the attempt's own provider for a
 * cash code, as its payment page would (the sandbox's "issue_code"; Culqi's order confirmed without
 * its checkout), once however often it is asked, and hears null when the provider cannot give one.
 * The environment is read once per process, so each case loads the doors afresh after setting it.
 */
import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { orders, payments } from "@server/db/schema";
import type * as OrderFlowsDoor from "@server/order-flows/index.server";
import { MAX_OPEN_UNPAID_ORDERS } from "@core/door-payment";
import { checkoutInput } from "../support/checkout-fixture";
import { culqiTestBed, stubEnvironmentAfresh } from "../support/culqi-test-bed";

const now = new Date("2026-11-24T15:00:00Z");
const siteUrl = "http://shop.test";
const NO_PROVIDER = { CULQI_PUBLIC_KEY: undefined, CULQI_SECRET_KEY: undefined };

describe("a payment code the office dictates (issue 38)", () => {
  const bed = culqiTestBed();

  async function flows(environment: Record<string, string | undefined>): Promise<typeof OrderFlowsDoor> {
    stubEnvironmentAfresh({ ...NO_PROVIDER, ...environment });
    return import("@server/order-flows/index.server");
  }
  /** An order of its own phone and door each: a code counts among the unpaid orders one phone or address may hold (decision 0092). */
  async function newPayment(provider: string, correo: string, overrides: { telefono?: string; direccion?: string; formaPago?: string } = {}) {
    const input = checkoutInput(now, {
      correo,
      telefono: overrides.telefono ?? `9${randomInt(10_000_000, 100_000_000)}`,
      direccion: overrides.direccion ?? `Av. Pardo ${randomInt(100, 100_000)}`,
      ...(overrides.formaPago ? { formaPago: overrides.formaPago } : {}),
    });
    const placed = await placeOrder(bed.db, input, { now, provider });
    if (!placed.ok) throw new Error(`order not placed: ${JSON.stringify(placed)}`);
    return placed;
  }
  const paymentRow = async (paymentId: string) => (await bed.db.select().from(payments).where(eq(payments.id, paymentId)))[0]!;
  const codeOf = (issued: Awaited<ReturnType<typeof OrderFlowsDoor.issuePaymentCode>>) => (issued.ok ? issued.code : null);

  it("gets the sandbox's code, once: the order waits for it to be paid", async () => {
    const { issuePaymentCode } = await flows({});
    const placed = await newPayment("sandbox", "codigo-sandbox@example.pe");
    const issued = await issuePaymentCode(bed.db, { paymentId: placed.paymentId, now, siteUrl });
    expect(codeOf(issued)).toMatch(/^\d{8}$/);
    expect(await paymentRow(placed.paymentId)).toMatchObject({ status: "pending", method: "cash", paymentCode: codeOf(issued) });
    expect((await bed.db.select().from(orders).where(eq(orders.id, placed.orderId)))[0]!.status).toBe("payment_created");
    expect(await issuePaymentCode(bed.db, { paymentId: placed.paymentId, now, siteUrl })).toEqual(issued);
  });

  it("gets Culqi's code for a Culqi attempt, without its checkout, and one Culqi order however often it is asked", async () => {
    const { issuePaymentCode } = await flows(bed.culqiKeys());
    const placed = await newPayment("culqi", "codigo-culqi@example.pe");
    const code = codeOf(await issuePaymentCode(bed.db, { paymentId: placed.paymentId, now, siteUrl }));
    const payment = await paymentRow(placed.paymentId);
    expect(payment).toMatchObject({ status: "pending", method: "cash", paymentCode: code });
    expect(bed.culqi.orders.get(payment.providerReference!)).toMatchObject({ state: "pending", payment_code: code, amount: payment.amountCents });
    const before = bed.culqi.orders.size;
    expect(codeOf(await issuePaymentCode(bed.db, { paymentId: placed.paymentId, now, siteUrl }))).toBe(code);
    expect(bed.culqi.orders.size).toBe(before);
  });

  it("gives no code, and says why, to a phone that already holds the most unpaid orders allowed", async () => {
    const { issuePaymentCode } = await flows(bed.culqiKeys());
    const telefono = `9${randomInt(10_000_000, 100_000_000)}`;
    for (let held = 0; held < MAX_OPEN_UNPAID_ORDERS; held++) await newPayment("sandbox", `tres-${held}@example.pe`, { telefono, formaPago: "contra_entrega" });
    for (const provider of ["sandbox", "culqi"]) {
      const placed = await newPayment(provider, `cuarto-${provider}@example.pe`, { telefono });
      const culqiOrders = bed.culqi.orders.size;
      expect(await issuePaymentCode(bed.db, { paymentId: placed.paymentId, now, siteUrl }), provider).toEqual({ ok: false, reason: "unpaid_limit" });
      expect(await paymentRow(placed.paymentId), provider).toMatchObject({ status: "created", paymentCode: null });
      expect(bed.culqi.orders.size, provider).toBe(culqiOrders);
    }
  });

  it("answers «unavailable», leaving the attempt payable, when Culqi does not answer, and «not_payable» for an attempt that is not open", async () => {
    const { issuePaymentCode } = await flows({ ...bed.culqiKeys(), CULQI_API_BASE: "http://127.0.0.1:9/v2" });
    const placed = await newPayment("culqi", "codigo-caido@example.pe");
    expect(await issuePaymentCode(bed.db, { paymentId: placed.paymentId, now, siteUrl })).toEqual({ ok: false, reason: "unavailable" });
    expect(await paymentRow(placed.paymentId)).toMatchObject({ status: "created", paymentCode: null });
    await bed.db.update(payments).set({ status: "failed" }).where(eq(payments.id, placed.paymentId));
    expect(await issuePaymentCode(bed.db, { paymentId: placed.paymentId, now, siteUrl })).toEqual({ ok: false, reason: "not_payable" });
    expect(await issuePaymentCode(bed.db, { paymentId: "no-es-un-uuid", now, siteUrl })).toEqual({ ok: false, reason: "not_payable" });
  });
});
