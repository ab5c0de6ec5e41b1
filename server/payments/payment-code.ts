import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders, payments } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { isUuid } from "../db/uuid";
import { lockAndCountUnpaidHolds, unpaidHoldsFull } from "../orders/index.server";
import { issueCulqiCodeWithoutCheckout } from "./culqi";
import type { PaymentOrderSteps } from "./order-steps";
import { culqiCheckoutSettings, culqiClient } from "./providers";
import { applySandboxAction } from "./sandbox";

export type IssuedPaymentCode =
  | { ok: true; code: string; expiresAt: Date | null }
  /**
   * `unpaid_limit`: the order's phone or address already holds the most unpaid orders allowed (decision
   * 0092), so no code may hold one more; `unavailable`: the provider gave none now (Culqi down);
   * `not_payable`: the attempt is unknown, paid, failed or expired.
   */
  | { ok: false; reason: "unpaid_limit" | "unavailable" | "not_payable" };

/**
 * A cash/Yape payment code for an order's open attempt, from the attempt's own provider, as its
 * payment page would get one (the sandbox's "issue_code", Culqi's order confirmed without its
 * checkout): for "Nuevo pedido", where the office dictates the code on the phone (issue 38). Repeat
 * safe: an attempt that has its code already answers with it.
 */
export async function issuePaymentCode(
  db: Database,
  input: { paymentId: string; now: Date; siteUrl: string },
  orderSteps: PaymentOrderSteps,
): Promise<IssuedPaymentCode> {
  if (!isUuid(input.paymentId)) return { ok: false, reason: "not_payable" };
  const payment = await readAttempt(db, input.paymentId);
  if (!payment) return { ok: false, reason: "not_payable" };
  if (payment.status === "pending" && payment.paymentCode) return { ok: true, code: payment.paymentCode, expiresAt: payment.expiresAt };
  if (payment.status !== "created") return { ok: false, reason: "not_payable" };
  // Asked first, whatever the provider: Culqi's own path only stops offering codes, without saying why.
  if (await unpaidHoldsAreFull(db, payment, input.now)) return { ok: false, reason: "unpaid_limit" };
  if (payment.provider === "sandbox") {
    const issued = await applySandboxAction(db, input.paymentId, "issue_code", { now: input.now, siteUrl: input.siteUrl }, orderSteps);
    if (!issued.ok) return { ok: false, reason: issued.reason === "unpaid_limit" ? "unpaid_limit" : "not_payable" };
  } else if (payment.provider === "culqi") {
    const settings = culqiCheckoutSettings();
    if (!settings) return { ok: false, reason: "unavailable" };
    const code = await issueCulqiCodeWithoutCheckout(
      db,
      culqiClient(),
      { paymentId: input.paymentId, now: input.now, publicKey: settings.publicKey },
      orderSteps,
    );
    if (!code) return { ok: false, reason: "unavailable" };
  } else return { ok: false, reason: "not_payable" };
  const issued = await readAttempt(db, input.paymentId);
  return issued?.paymentCode ? { ok: true, code: issued.paymentCode, expiresAt: issued.expiresAt } : { ok: false, reason: "unavailable" };
}

async function readAttempt(db: Database, paymentId: string) {
  const [row] = await db
    .select({
      status: payments.status,
      provider: payments.provider,
      paymentCode: payments.paymentCode,
      expiresAt: payments.expiresAt,
      orderId: orders.id,
      phone: orders.customerPhone,
      districtId: orders.districtId,
      address: orders.address,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.id, paymentId));
  return row ?? null;
}

/** Whether the order's phone or address holds the most unpaid orders allowed, this order left out. */
async function unpaidHoldsAreFull(db: Database, attempt: { orderId: string; phone: string; districtId: number; address: string }, now: Date) {
  const holds = await inTransaction(db, (tx) => lockAndCountUnpaidHolds(tx, attempt, { now, excludeOrderId: attempt.orderId }));
  return unpaidHoldsFull(holds);
}
