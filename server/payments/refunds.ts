import { and, asc, eq, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders, refunds } from "../db/schema";
import { inTransaction } from "../db/transaction";
import type { RefundChannel } from "../notifications/index.server";
import { CulqiUnavailableError, type CulqiClient, type CulqiRefundReason, type RefundAnswer } from "./culqi/client";
import type { RefundReason } from "./late-payments";
import type { PaymentOrderSteps } from "./order-steps";

/** How long one worker may hold a refund while it talks to the provider. */
const CLAIM_MS = 2 * 60_000;
const FIRST_RETRY_MS = 5 * 60_000;
const LONGEST_RETRY_MS = 6 * 3_600_000;

const culqiReasons: Record<RefundReason, CulqiRefundReason> = {
  late_payment: "solicitud_comprador",
  duplicate_charge: "duplicado",
  amount_mismatch: "solicitud_comprador",
};

export type RefundAttempt = "refunded" | "retry_scheduled" | "manual" | "busy" | "declined";

/** A refund a staff member asked for (issue 10), as opposed to the shop's automatic ones (decision 0026). */
export const isStaffRefund = (refund: { requestedBy: string | null }) => refund.requestedBy !== null;

/**
 * The provider's answer for one refund. The sandbox gives money back at once, offline. Culqi is
 * asked through its API; before asking, the charge is read, and when Culqi's refunded total already
 * covers ours plus this one (a previous attempt whose answer was lost), it counts as done. Only one
 * refund per charge is ever pending (the partial unique index), so that comparison is unambiguous.
 */
async function askProvider(db: Database, client: CulqiClient | null, refund: typeof refunds.$inferSelect): Promise<RefundAnswer> {
  if (refund.provider === "sandbox") return { kind: "refunded", refundId: `sbx_ref_${refund.id}` };
  if (!client) return { kind: "unavailable", reason: "Culqi is not configured (CULQI_SECRET_KEY)" };
  try {
    const charge = await client.getCharge(refund.chargeReference);
    if (!charge) return { kind: "refused", message: `charge ${refund.chargeReference} not found` };
    const [earlier] = await db
      .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
      .from(refunds)
      .where(
        and(
          eq(refunds.provider, refund.provider),
          eq(refunds.chargeReference, refund.chargeReference),
          eq(refunds.status, "succeeded"),
          ne(refunds.id, refund.id),
        ),
      );
    if ((charge.amount_refunded ?? 0) >= Number(earlier?.cents ?? 0) + refund.amountCents) return { kind: "refunded", refundId: "" };
    const reason = isStaffRefund(refund) ? "solicitud_comprador" : culqiReasons[refund.reason as RefundReason];
    return await client.createRefund({ chargeId: refund.chargeReference, amount: refund.amountCents, reason, idempotencyKey: `refund-${refund.id}` });
  } catch (error) {
    if (!(error instanceof CulqiUnavailableError)) throw error;
    return { kind: "unavailable", reason: error.message };
  }
}

/**
 * How a payment's money goes back: by the provider's API (a sandbox card, a Culqi charge `chr_…`)
 * or by hand (`manual`: cash or a Yape code paid offline, a Culqi order `ord_…`, Flow, whose refund
 * API the shop does not use). Staff mark a manual refund done once they have returned the money.
 */
export function refundChannel(payment: { provider: string; providerReference: string | null; method: string | null }): RefundChannel {
  const reference = payment.providerReference ?? "";
  if (payment.provider === "sandbox") return payment.method === "card" && !reference.startsWith("sbx_ord_") ? "sandbox" : "manual";
  if (payment.provider === "culqi" && reference.startsWith("chr_")) return payment.method === "yape" ? "yape" : "card";
  return "manual";
}

/** What a pending row can be given back through: the sandbox (staff rows are pending only for its cards) or a Culqi charge. */
const refundableByApi = (refund: { provider: string; chargeReference: string }) =>
  refund.provider === "sandbox" || (refund.provider === "culqi" && refund.chargeReference.startsWith("chr_"));

/**
 * Gives one recorded refund's money back through the provider, outside any transaction
 * (decision 0026-late-payments-and-refunds). The row is claimed first, so a webhook replay and the
 * job never call the provider at the same moment; before calling, the charge is read again and a
 * refund a previous attempt made (whose answer was lost) is recognised by `amount_refunded`, so the
 * money goes back exactly once. Any failure is written on the row and retried by the jobs. What the
 * money back means for the order is `orderSteps.refunded` (order-flows, decision 0083).
 */
export async function processRefund(
  db: Database,
  client: CulqiClient | null,
  refundId: string,
  input: { now: Date; siteUrl: string },
  orderSteps: PaymentOrderSteps,
): Promise<RefundAttempt> {
  const { now } = input;
  const [refund] = await db
    .update(refunds)
    .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS), updatedAt: now })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending"), or(isNull(refunds.claimedUntil), lte(refunds.claimedUntil, now))))
    .returning();
  if (!refund) return "busy";

  if (!refundableByApi(refund)) {
    // Culqi refunds charges only; money paid at an agent or by bank transfer (a Culqi order) goes
    // back by hand. The row waits, visible, for staff.
    await db
      .update(refunds)
      .set({
        status: "manual",
        lastError: "Pago en efectivo o con código: devolver por transferencia (el proveedor no lo reembolsa por API)",
        claimedUntil: null,
        updatedAt: now,
      })
      .where(eq(refunds.id, refund.id));
    console.error(
      `[payments] refund ${refund.id} of ${refund.chargeReference} (${refund.amountCents} céntimos) needs staff: cash payments are returned by hand`,
    );
    return "manual";
  }

  const answer = await askProvider(db, client, refund);
  if (answer.kind === "refunded") {
    await recordRefundDone(db, refund, answer.refundId || null, input, orderSteps);
    return "refunded";
  }
  const attempts = refund.attempts + 1;
  if (answer.kind === "refused" && isStaffRefund(refund)) {
    // A staff member is waiting for the answer: a refusal is final and frees the amount; they see
    // the provider's message and may try again (a new request) once the cause is clear.
    await db
      .update(refunds)
      .set({ status: "failed", attempts, lastError: answer.message, claimedUntil: null, updatedAt: now })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")));
    console.error(`[payments] refund ${refund.id} of ${refund.chargeReference} refused by ${refund.provider}: ${answer.message}`);
    return "declined";
  }
  const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
  const nextAttemptAt = new Date(now.getTime() + delay);
  const lastError = answer.kind === "refused" ? answer.message : answer.reason;
  await db.update(refunds).set({ attempts, lastError, nextAttemptAt, claimedUntil: null, updatedAt: now }).where(eq(refunds.id, refund.id));
  console.error(
    `[payments] refund ${refund.id} of ${refund.chargeReference} failed (attempt ${attempts}: ${lastError}); retrying at ${nextAttemptAt.toISOString()}`,
  );
  return "retry_scheduled";
}

/** The money is back: the refund, the order's history and the customer's email, in one transaction. */
async function recordRefundDone(
  db: Database,
  refund: typeof refunds.$inferSelect,
  providerRefundId: string | null,
  input: { now: Date; siteUrl: string },
  orderSteps: PaymentOrderSteps,
) {
  await inTransaction(db, async (tx) => {
    // Decision 0025: the order first, then the refund row.
    const [order] = await tx.select().from(orders).where(eq(orders.id, refund.orderId)).for("update");
    const done = await tx
      .update(refunds)
      .set({
        status: "succeeded",
        providerRefundId,
        refundedAt: input.now,
        attempts: refund.attempts + 1,
        lastError: null,
        claimedUntil: null,
        updatedAt: input.now,
      })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
      .returning({ id: refunds.id });
    if (done.length === 0 || !order) return;
    await orderSteps.refunded(tx, order, refund, input);
  });
  console.warn(
    `[payments] refund ${refund.id} done: ${refund.chargeReference}, ${refund.amountCents} céntimos${providerRefundId ? `, ${providerRefundId}` : " (found already refunded at the provider)"}`,
  );
}

/**
 * The jobs' pass over refunds whose provider call failed or never happened (a crash right after
 * the webhook recorded it). Each row on its own, so one bad row never stops the others.
 */
export async function retryDueRefunds(
  db: Database,
  client: CulqiClient | null,
  input: { now: Date; siteUrl: string },
  orderSteps: PaymentOrderSteps,
): Promise<{ refunded: number; failed: number }> {
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
      const attempt = await processRefund(db, client, id, input, orderSteps);
      if (attempt === "refunded") refunded += 1;
      else if (attempt === "retry_scheduled") failed += 1;
    } catch (error) {
      failed += 1;
      console.error(`[payments] refund ${id} could not be processed; it stays pending for the next pass`, error);
    }
  }
  return { refunded, failed };
}
