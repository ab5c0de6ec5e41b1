import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import { receiptToken } from "../orders/receipt-access";
import type { Database } from "../db/client";
import { orders, orderStatusChanges, refunds, siteSettings } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { enqueueEmail, paymentRefundedEmail } from "../notifications/index.server";
import { transitionOrder } from "../orders/transition";
import { CulqiUnavailableError, type CulqiClient, type CulqiRefundReason, type RefundAnswer } from "./culqi/client";
import type { RefundReason } from "./late-payments";

/** How long one worker may hold a refund while it talks to the provider. */
const CLAIM_MS = 2 * 60_000;
const FIRST_RETRY_MS = 5 * 60_000;
const LONGEST_RETRY_MS = 6 * 3_600_000;

const culqiReasons: Record<RefundReason, CulqiRefundReason> = {
  late_payment: "solicitud_comprador",
  duplicate_charge: "duplicado",
  amount_mismatch: "solicitud_comprador",
};

export type RefundAttempt = "refunded" | "retry_scheduled" | "manual" | "busy";

/**
 * Gives one recorded refund's money back through the provider, outside any transaction
 * (decision 0026-late-payments-and-refunds). The row is claimed first, so a webhook replay and the
 * job never call the provider at the same moment; before calling, the charge is read again and a
 * refund a previous attempt made (whose answer was lost) is recognised by `amount_refunded`, so the
 * money goes back exactly once. Any failure is written on the row and retried by the jobs.
 */
export async function processRefund(db: Database, client: CulqiClient | null, refundId: string, input: { now: Date; siteUrl: string }): Promise<RefundAttempt> {
  const { now } = input;
  const [refund] = await db
    .update(refunds)
    .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS), updatedAt: now })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending"), or(isNull(refunds.claimedUntil), lte(refunds.claimedUntil, now))))
    .returning();
  if (!refund) return "busy";

  if (!refund.chargeReference.startsWith("chr_")) {
    // Culqi refunds charges only; money paid at an agent or by bank transfer (a Culqi order) goes
    // back by hand. The row waits, visible, for staff.
    await db.update(refunds).set({ status: "manual", lastError: "Pago en efectivo: devolver por transferencia (Culqi no lo reembolsa por API)", claimedUntil: null, updatedAt: now }).where(eq(refunds.id, refund.id));
    console.error(`[payments] refund ${refund.id} of ${refund.chargeReference} (${refund.amountCents} céntimos) needs staff: cash payments are returned by hand`);
    return "manual";
  }

  let answer: RefundAnswer;
  if (!client) {
    answer = { kind: "unavailable", reason: "Culqi is not configured (CULQI_SECRET_KEY)" };
  } else {
    try {
      const charge = await client.getCharge(refund.chargeReference);
      if (!charge) answer = { kind: "refused", message: `charge ${refund.chargeReference} not found` };
      else if ((charge.amount_refunded ?? 0) >= refund.amountCents) answer = { kind: "refunded", refundId: "" };
      else answer = await client.createRefund({ chargeId: refund.chargeReference, amount: refund.amountCents, reason: culqiReasons[refund.reason as RefundReason], idempotencyKey: `refund-${refund.id}` });
    } catch (error) {
      if (!(error instanceof CulqiUnavailableError)) throw error;
      answer = { kind: "unavailable", reason: error.message };
    }
  }

  if (answer.kind === "refunded") {
    await recordRefundDone(db, refund, answer.refundId || null, input);
    return "refunded";
  }
  const attempts = refund.attempts + 1;
  const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
  const nextAttemptAt = new Date(now.getTime() + delay);
  const lastError = answer.kind === "refused" ? answer.message : answer.reason;
  await db.update(refunds).set({ attempts, lastError, nextAttemptAt, claimedUntil: null, updatedAt: now }).where(eq(refunds.id, refund.id));
  console.error(`[payments] refund ${refund.id} of ${refund.chargeReference} failed (attempt ${attempts}: ${lastError}); retrying at ${nextAttemptAt.toISOString()}`);
  return "retry_scheduled";
}

/** The money is back: the refund, the order's history and the customer's email, in one transaction. */
async function recordRefundDone(db: Database, refund: typeof refunds.$inferSelect, providerRefundId: string | null, input: { now: Date; siteUrl: string }) {
  const { now } = input;
  await inTransaction(db, async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, refund.orderId)).for("update");
    const done = await tx
      .update(refunds)
      .set({ status: "succeeded", providerRefundId, refundedAt: now, attempts: refund.attempts + 1, lastError: null, claimedUntil: null, updatedAt: now })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
      .returning({ id: refunds.id });
    if (done.length === 0 || !order) return;
    const note = `Reembolso automático de ${refund.chargeReference} (${refund.reason})`;
    if (order.status === "cancelled" || order.status === "failed") {
      await transitionOrder(tx, order.id, "refunded", { actor: "system", now, note });
    } else {
      // A second payment of a paid order: the order itself goes on; its history says what happened.
      await tx.insert(orderStatusChanges).values({ orderId: order.id, fromStatus: order.status, toStatus: order.status, actor: "system", note, createdAt: now });
    }
    const [settings] = await tx.select({ brandName: siteSettings.brandName }).from(siteSettings);
    const email = paymentRefundedEmail({
      brandName: settings?.brandName ?? "Vida Alcalina",
      firstName: order.customerFirstName,
      orderNumber: order.orderNumber,
      amountCents: refund.amountCents,
      reason: refund.reason as RefundReason,
      receiptUrl: new URL(`/orden/${order.id}?token=${receiptToken(order.id)}`, input.siteUrl).toString(),
    });
    await enqueueEmail(tx, { dedupeKey: `payment-refunded:${refund.id}`, kind: "payment-refunded", to: order.customerEmail, ...email }, now);
  });
  console.warn(`[payments] refund ${refund.id} done: ${refund.chargeReference}, ${refund.amountCents} céntimos${providerRefundId ? `, ${providerRefundId}` : " (found already refunded at the provider)"}`);
}

/**
 * The jobs' pass over refunds whose provider call failed or never happened (a crash right after
 * the webhook recorded it). Each row on its own, so one bad row never stops the others.
 */
export async function retryDueRefunds(db: Database, client: CulqiClient | null, input: { now: Date; siteUrl: string }): Promise<{ refunded: number; failed: number }> {
  const due = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.status, "pending"), lte(refunds.nextAttemptAt, input.now), or(isNull(refunds.claimedUntil), lte(refunds.claimedUntil, input.now))))
    .orderBy(asc(refunds.nextAttemptAt))
    .limit(50);
  let refunded = 0;
  let failed = 0;
  for (const { id } of due) {
    try {
      const attempt = await processRefund(db, client, id, input);
      if (attempt === "refunded") refunded += 1;
      else if (attempt === "retry_scheduled") failed += 1;
    } catch (error) {
      failed += 1;
      console.error(`[payments] refund ${id} could not be processed; it stays pending for the next pass`, error);
    }
  }
  return { refunded, failed };
}
