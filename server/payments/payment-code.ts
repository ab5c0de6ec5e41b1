import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { payments } from "../db/schema";
import { isUuid } from "../db/uuid";
import { issueCulqiCodeWithoutCheckout } from "./culqi";
import type { PaymentOrderSteps } from "./order-steps";
import { culqiCheckoutSettings, culqiClient } from "./providers";
import { applySandboxAction } from "./sandbox";

export interface IssuedPaymentCode {
  code: string;
  expiresAt: Date | null;
}

/**
 * A cash/Yape payment code for an order's open attempt, from the attempt's own provider, as its
 * payment page would get one (the sandbox's "issue_code", Culqi's order confirmed without its
 * checkout): for "Nuevo pedido", where the office dictates the code on the phone (issue 38). Repeat
 * safe: an attempt that has its code already answers with it. Null when the provider cannot give
 * one now (Culqi down) or the attempt is no longer payable.
 */
export async function issuePaymentCode(
  db: Database,
  input: { paymentId: string; now: Date; siteUrl: string },
  orderSteps: PaymentOrderSteps,
): Promise<IssuedPaymentCode | null> {
  if (!isUuid(input.paymentId)) return null;
  const payment = await readAttempt(db, input.paymentId);
  if (!payment) return null;
  if (payment.status === "pending" && payment.paymentCode) return { code: payment.paymentCode, expiresAt: payment.expiresAt };
  if (payment.status !== "created") return null;
  if (payment.provider === "sandbox") {
    const issued = await applySandboxAction(db, input.paymentId, "issue_code", { now: input.now, siteUrl: input.siteUrl }, orderSteps);
    if (!issued.ok) return null;
  } else if (payment.provider === "culqi") {
    const settings = culqiCheckoutSettings();
    if (!settings) return null;
    const code = await issueCulqiCodeWithoutCheckout(
      db,
      culqiClient(),
      { paymentId: input.paymentId, now: input.now, publicKey: settings.publicKey },
      orderSteps,
    );
    if (!code) return null;
  } else return null;
  const issued = await readAttempt(db, input.paymentId);
  return issued?.paymentCode ? { code: issued.paymentCode, expiresAt: issued.expiresAt } : null;
}

async function readAttempt(db: Database, paymentId: string) {
  const [row] = await db
    .select({ status: payments.status, provider: payments.provider, paymentCode: payments.paymentCode, expiresAt: payments.expiresAt })
    .from(payments)
    .where(eq(payments.id, paymentId));
  return row ?? null;
}
