import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { isUuid } from "../db/uuid";
import type { Database } from "../db/client";
import { orders, payments } from "../db/schema";
import type { PaymentOrderSteps } from "./order-steps";
import { recordPaymentCodeIssued, recordPaymentFailed, recordPaymentSucceeded } from "./settle";

/**
 * How long a sandbox cash/Yape code stays payable, as the shop asks Culqi's (CULQI_CODE_HOURS): an
 * unpaid order holds a delivery place for hours, not a day (issue 38).
 */
export const SANDBOX_CODE_HOURS = 6;

/** What the offline sandbox payment page shows: the order number and amount, never personal data. */
export async function findSandboxPayment(db: Database, paymentId: string) {
  if (!isUuid(paymentId)) return null;
  const [row] = await db
    .select({
      paymentId: payments.id,
      status: payments.status,
      provider: payments.provider,
      amountCents: payments.amountCents,
      paymentCode: payments.paymentCode,
      expiresAt: payments.expiresAt,
      orderId: orders.id,
      orderNumber: orders.orderNumber,
      orderStatus: orders.status,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.id, paymentId));
  return row && row.provider === "sandbox" ? row : null;
}

export type SandboxAction = "approve_card" | "decline_card" | "issue_code" | "pay_code";

/**
 * The sandbox provider's answers, offline: a card approved or declined at once, or a cash/Yape
 * code that can later be marked paid. Everything settles through the same functions real
 * providers use, with the order's steps the floor above passes in (order-flows, decision 0083).
 */
export async function applySandboxAction(
  db: Database,
  paymentId: string,
  action: SandboxAction,
  context: { now: Date; siteUrl: string },
  orderSteps: PaymentOrderSteps,
) {
  const payment = await findSandboxPayment(db, paymentId);
  if (!payment) return { ok: false as const, reason: "not_found" as const };
  const expired = payment.expiresAt !== null && payment.expiresAt <= context.now;
  if (payment.status === "created" && expired) return { ok: false as const, reason: "expired" as const };

  switch (action) {
    case "approve_card":
      if (payment.status !== "created") break;
      await recordPaymentSucceeded(
        db,
        paymentId,
        {
          now: context.now,
          method: "card",
          actor: "sandbox",
          siteUrl: context.siteUrl,
          providerReference: `sbx_chr_${paymentId}`,
        },
        orderSteps,
      );
      break;
    case "decline_card":
      if (payment.status !== "created") break;
      await recordPaymentFailed(db, paymentId, { now: context.now, actor: "sandbox", message: "Tarjeta rechazada (simulación)" }, orderSteps);
      break;
    case "issue_code": {
      const issued = await recordPaymentCodeIssued(
        db,
        paymentId,
        {
          now: context.now,
          actor: "sandbox",
          method: "cash",
          code: String(randomInt(10_000_000, 100_000_000)),
          expiresAt: new Date(context.now.getTime() + SANDBOX_CODE_HOURS * 3_600_000),
          providerReference: `sbx_ord_${paymentId}`,
          siteUrl: context.siteUrl,
          boundUnpaidHolds: true,
        },
        orderSteps,
      );
      if (issued.refused) return { ok: false as const, reason: issued.refused };
      break;
    }
    case "pay_code":
      if (payment.status !== "pending" || expired) break;
      await recordPaymentSucceeded(db, paymentId, { now: context.now, method: "cash", actor: "sandbox", siteUrl: context.siteUrl }, orderSteps);
      break;
  }
  return { ok: true as const, orderId: payment.orderId };
}
