/**
 * Decision 0041: the payment and card providers tell the page what it does
 * next, so routes never ask which one is active. Each case loads the payments door afresh after
 * setting the environment, since it is read once per process.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { payments } from "@server/db/schema";
import type * as PaymentsDoor from "@server/payments/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { expectConsoleError } from "../support/fail-on-console-error";
import { culqiTestBed, stubEnvironmentAfresh } from "../support/culqi-test-bed";

const now = new Date("2026-11-24T15:00:00Z");
const NO_PROVIDER = { CULQI_PUBLIC_KEY: undefined, CULQI_SECRET_KEY: undefined, FLOW_API_KEY: undefined, FLOW_SECRET_KEY: undefined };

describe("what the page does next, by configuration", () => {
  const bed = culqiTestBed();

  async function door(environment: Record<string, string | undefined>): Promise<typeof PaymentsDoor> {
    stubEnvironmentAfresh({ ...NO_PROVIDER, ...environment });
    return import("@server/payments/index.server");
  }

  async function newPayment(provider: string, correo: string) {
    const placed = await placeOrder(bed.db, checkoutInput(now, { correo }), { now, provider });
    if (!placed.ok) throw new Error("order not placed");
    return placed.paymentId;
  }
  const paymentRow = async (paymentId: string) => (await bed.db.select().from(payments).where(eq(payments.id, paymentId)))[0]!;

  it("sends the customer to the sandbox's page, with nothing asked of Culqi", async () => {
    const { activePaymentProvider } = await door({});
    const paymentId = await newPayment("sandbox", "sandbox-step@example.pe");
    expect(await activePaymentProvider().nextStep(bed.db, { paymentId, now })).toEqual({ kind: "redirect", to: `/pago/sandbox/${paymentId}` });
    expect((await paymentRow(paymentId)).providerReference).toBeNull();
  });

  it("creates the Culqi order (banca móvil, agentes, billeteras) before sending the customer to Culqi's page", async () => {
    const { activePaymentProvider } = await door(bed.culqiKeys());
    const paymentId = await newPayment("culqi", "culqi-step@example.pe");
    expect(await activePaymentProvider().nextStep(bed.db, { paymentId, now })).toEqual({ kind: "redirect", to: `/pago/culqi/${paymentId}` });
    expect((await paymentRow(paymentId)).providerReference).toMatch(/^ord_test_/);
  });

  it("still opens Culqi's page when Culqi cannot create the order (cards and Yape work without it)", async () => {
    const { activePaymentProvider } = await door({ ...bed.culqiKeys(), CULQI_API_BASE: "http://127.0.0.1:9/v2" });
    const paymentId = await newPayment("culqi", "culqi-down@example.pe");
    expect(await activePaymentProvider().nextStep(bed.db, { paymentId, now })).toEqual({ kind: "redirect", to: `/pago/culqi/${paymentId}` });
    expect((await paymentRow(paymentId)).providerReference).toBeNull();
  });

  it("opens Culqi's page when Culqi refuses the order, and tells staff why instead of dropping it", async () => {
    const { activePaymentProvider } = await door(bed.culqiKeys());
    const paymentId = await newPayment("culqi", "culqi-refused@example.pe");
    bed.culqi.refuseNextOrder();
    expectConsoleError(new RegExp(`Culqi order for payment ${paymentId} failed:.*order_number ya existe`));
    expect(await activePaymentProvider().nextStep(bed.db, { paymentId, now })).toEqual({ kind: "redirect", to: `/pago/culqi/${paymentId}` });
    expect((await paymentRow(paymentId)).providerReference).toBeNull();
  });

  it("describes the card form of each card provider", async () => {
    const sandbox = await door({});
    expect(sandbox.cardEntry("signup")).toEqual({ kind: "sandbox_form" });
    expect(sandbox.culqiCheckoutSettings()).toBeNull();

    const culqiDoor = await door(bed.culqiKeys());
    expect(culqiDoor.cardEntry("signup")).toEqual({ kind: "culqi_checkout", publicKey: bed.culqi.publicKey });
    expect(culqiDoor.cardEntry("update")).toEqual({ kind: "culqi_checkout", publicKey: bed.culqi.publicKey });
    expect(culqiDoor.culqiCheckoutSettings()).toEqual({ publicKey: bed.culqi.publicKey });

    // Flow registers subscription cards whenever its keys are set, even with Culqi taking payments.
    const flow = await door({ ...bed.culqiKeys(), FLOW_API_KEY: "flow-test-key", FLOW_SECRET_KEY: "flow-test-secret-0123456789" });
    expect(flow.cardEntry("signup")).toEqual({ kind: "provider_page", providerName: "Flow" });
    expect(flow.cardEntry("update")).toEqual({ kind: "on_request", providerName: "Flow" });
  });
});
