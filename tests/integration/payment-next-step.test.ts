/**
 * Decision 0041: the payment and card providers tell the page what it does
 * next, so routes never ask which one is active. Each case loads the payments door afresh after
 * setting the environment, since it is read once per process.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { payments } from "@server/db/schema";
import type * as PaymentsDoor from "@server/payments/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { expectConsoleError } from "../support/fail-on-console-error";
import { startCulqiMock, type CulqiMock } from "../support/culqi-mock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const now = new Date("2026-11-24T15:00:00Z");
const NO_PROVIDER = { CULQI_PUBLIC_KEY: undefined, CULQI_SECRET_KEY: undefined, FLOW_API_KEY: undefined, FLOW_SECRET_KEY: undefined };

describe("what the page does next, by configuration", () => {
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

  async function door(environment: Record<string, string | undefined>): Promise<typeof PaymentsDoor> {
    for (const [name, value] of Object.entries({ ...NO_PROVIDER, ...environment })) vi.stubEnv(name, value);
    vi.resetModules();
    return import("@server/payments/index.server");
  }
  const culqiKeys = () => ({ CULQI_PUBLIC_KEY: culqi.publicKey, CULQI_SECRET_KEY: culqi.secretKey, CULQI_API_BASE: culqi.apiBase });

  async function newPayment(provider: string, correo: string) {
    const placed = await placeOrder(test.db, checkoutInput(now, { correo }), { now, provider });
    if (!placed.ok) throw new Error("order not placed");
    return placed.paymentId;
  }
  const paymentRow = async (paymentId: string) => (await test.db.select().from(payments).where(eq(payments.id, paymentId)))[0]!;

  it("sends the customer to the sandbox's page, with nothing asked of Culqi", async () => {
    const { activePaymentProvider } = await door({});
    const paymentId = await newPayment("sandbox", "sandbox-step@example.pe");
    expect(await activePaymentProvider().nextStep(test.db, { paymentId, now })).toEqual({ kind: "redirect", to: `/pago/sandbox/${paymentId}` });
    expect((await paymentRow(paymentId)).providerReference).toBeNull();
  });

  it("creates the Culqi order (banca móvil, agentes, billeteras) before sending the customer to Culqi's page", async () => {
    const { activePaymentProvider } = await door(culqiKeys());
    const paymentId = await newPayment("culqi", "culqi-step@example.pe");
    expect(await activePaymentProvider().nextStep(test.db, { paymentId, now })).toEqual({ kind: "redirect", to: `/pago/culqi/${paymentId}` });
    expect((await paymentRow(paymentId)).providerReference).toMatch(/^ord_test_/);
  });

  it("still opens Culqi's page when Culqi cannot create the order (cards and Yape work without it)", async () => {
    const { activePaymentProvider } = await door({ ...culqiKeys(), CULQI_API_BASE: "http://127.0.0.1:9/v2" });
    const paymentId = await newPayment("culqi", "culqi-down@example.pe");
    expect(await activePaymentProvider().nextStep(test.db, { paymentId, now })).toEqual({ kind: "redirect", to: `/pago/culqi/${paymentId}` });
    expect((await paymentRow(paymentId)).providerReference).toBeNull();
  });

  it("opens Culqi's page when Culqi refuses the order, and tells staff why instead of dropping it", async () => {
    const { activePaymentProvider } = await door(culqiKeys());
    const paymentId = await newPayment("culqi", "culqi-refused@example.pe");
    culqi.refuseNextOrder();
    expectConsoleError(new RegExp(`Culqi order for payment ${paymentId} failed:.*order_number ya existe`));
    expect(await activePaymentProvider().nextStep(test.db, { paymentId, now })).toEqual({ kind: "redirect", to: `/pago/culqi/${paymentId}` });
    expect((await paymentRow(paymentId)).providerReference).toBeNull();
  });

  it("describes the card form of each card provider", async () => {
    const sandbox = await door({});
    expect(sandbox.cardEntry("signup")).toEqual({ kind: "sandbox_form" });
    expect(sandbox.culqiCheckoutSettings()).toBeNull();

    const culqiDoor = await door(culqiKeys());
    expect(culqiDoor.cardEntry("signup")).toEqual({ kind: "culqi_checkout", publicKey: culqi.publicKey });
    expect(culqiDoor.cardEntry("update")).toEqual({ kind: "culqi_checkout", publicKey: culqi.publicKey });
    expect(culqiDoor.culqiCheckoutSettings()).toEqual({ publicKey: culqi.publicKey });

    // Flow registers subscription cards whenever its keys are set, even with Culqi taking payments.
    const flow = await door({ ...culqiKeys(), FLOW_API_KEY: "flow-test-key", FLOW_SECRET_KEY: "flow-test-secret-0123456789" });
    expect(flow.cardEntry("signup")).toEqual({ kind: "provider_page", providerName: "Flow" });
    expect(flow.cardEntry("update")).toEqual({ kind: "on_request", providerName: "Flow" });
  });
});
