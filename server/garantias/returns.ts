import { and, asc, eq, lte } from "drizzle-orm";
import { formatSoles } from "@core/money";
import type { Database } from "../db/client";
import { readBrandName } from "../content/index.server";
import { garantiaEntries, orders } from "../db/schema";
import { inTransaction, type Transaction as Tx } from "../db/transaction";
import { issueGarantiaCreditNote } from "../invoices/index.server";
import { enqueueEmail, garantiaCreditEmail } from "../notifications/index.server";
import { recordGarantiaRefund, settleStaffRefund, type CulqiClient, type PaymentOrderSteps } from "../payments/index.server";

/** A worker holds a release this long while it writes its paperwork and asks the provider. */
const CLAIM_MS = 2 * 60_000;
const FIRST_RETRY_MS = 5 * 60_000;
const LONGEST_RETRY_MS = 6 * 3_600_000;
/** Who asked, on the refund row, when a delivery (not a staff member) brought the bidones back. */
export const GARANTIA_REFUND_REQUESTER = "sistema (garantía)";

type Release = typeof garantiaEntries.$inferSelect;

/**
 * The garantías job (decision 0075): each release still `pending` gets its nota de crédito and its
 * money: a refund row on the payment that took the garantía (then asked of the provider at once; a
 * provider that fails leaves it to the refunds job, which never refunds twice) or, for a credit,
 * nothing more (the credit counted from the release itself) and an e-mail. Each release is claimed
 * first (a lease on `next_attempt_at`), so two processes never work the same one; a release whose
 * payment has another refund on its way waits and is tried again; one the payment cannot give back
 * is left to staff (`needs_staff`, shown on the customer's page). One bad row never stops the others.
 * The refund's money back moves the order through `orderSteps` (order-flows, decision 0083).
 */
export async function processGarantiaReturns(
  db: Database,
  input: { now: Date; siteUrl: string; culqi: CulqiClient | null },
  orderSteps: PaymentOrderSteps,
): Promise<{ refunded: number; credited: number; waiting: number; needsStaff: number }> {
  const report = { refunded: 0, credited: 0, waiting: 0, needsStaff: 0 };
  const due = await db
    .select({ id: garantiaEntries.id })
    .from(garantiaEntries)
    .where(and(eq(garantiaEntries.status, "pending"), lte(garantiaEntries.nextAttemptAt, input.now)))
    .orderBy(asc(garantiaEntries.nextAttemptAt))
    .limit(50);
  for (const { id } of due) {
    try {
      const outcome = await processRelease(db, id, input, orderSteps);
      if (outcome) report[outcome] += 1;
    } catch (error) {
      console.error(`[garantias] release ${id} could not be processed; it is tried again on the next pass`, error);
    }
  }
  return report;
}

async function processRelease(
  db: Database,
  id: string,
  input: { now: Date; siteUrl: string; culqi: CulqiClient | null },
  orderSteps: PaymentOrderSteps,
): Promise<"refunded" | "credited" | "waiting" | "needsStaff" | null> {
  const { now } = input;
  const [claimed] = await db
    .update(garantiaEntries)
    .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_MS), updatedAt: now })
    .where(and(eq(garantiaEntries.id, id), eq(garantiaEntries.status, "pending"), lte(garantiaEntries.nextAttemptAt, now)))
    .returning();
  if (!claimed) return null;

  const written = await inTransaction(db, async (tx) => {
    // Decision 0025: the order, then (for a refund) its payment and the refund row, the series
    // counter of the nota de crédito, and the release row last.
    const [order] = await tx.select().from(orders).where(eq(orders.id, claimed.orderId)).for("update");
    const [release] = await tx.select().from(garantiaEntries).where(eq(garantiaEntries.id, claimed.id));
    if (!order || release?.status !== "pending") return null;
    if (release.outcome === "credit") {
      await issueGarantiaCreditNote(tx, release, now);
      await finish(tx, release, { status: "done" }, now);
      await tellCredit(tx, order, release, now);
      return { outcome: "credited" as const, refundId: null };
    }
    const refund = await recordGarantiaRefund(tx, {
      order,
      amountCents: release.amountCents,
      requestKey: `garantia:${release.id}`,
      requestedBy: release.recordedBy ?? GARANTIA_REFUND_REQUESTER,
      note: `Devolución de la garantía de ${release.units} ${release.units === 1 ? "bidón retornable" : "bidones retornables"}`,
      now,
    });
    if (!refund.ok && refund.reason === "busy") {
      await retryLater(tx, release, refund.message, now);
      return { outcome: "waiting" as const, refundId: null };
    }
    if (!refund.ok) {
      await finish(tx, release, { status: "needs_staff", lastError: refund.message }, now);
      console.error(`[garantias] release ${release.id} (${formatSoles(release.amountCents)}) needs staff: ${refund.message}`);
      return { outcome: "needsStaff" as const, refundId: null };
    }
    await issueGarantiaCreditNote(tx, release, now);
    await finish(tx, release, { status: "refunding", refundId: refund.refund.id }, now);
    return { outcome: "refunded" as const, refundId: refund.refund.status === "pending" ? refund.refund.id : null };
  });
  if (!written) return null;
  // The provider is called after the commit; a failure stays on the refund row for the refunds job.
  if (written.refundId) await settleStaffRefund(db, written.refundId, { now, siteUrl: input.siteUrl, culqi: input.culqi }, orderSteps);
  return written.outcome;
}

async function finish(tx: Tx, release: Release, changes: { status: string; refundId?: string; lastError?: string }, now: Date) {
  await tx
    .update(garantiaEntries)
    .set({ ...changes, attempts: release.attempts + 1, nextAttemptAt: null, updatedAt: now })
    .where(eq(garantiaEntries.id, release.id));
}

async function retryLater(tx: Tx, release: Release, reason: string, now: Date) {
  const attempts = release.attempts + 1;
  const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
  await tx
    .update(garantiaEntries)
    .set({ attempts, lastError: reason, nextAttemptAt: new Date(now.getTime() + delay), updatedAt: now })
    .where(eq(garantiaEntries.id, release.id));
}

async function tellCredit(tx: Tx, order: typeof orders.$inferSelect, release: Release, now: Date) {
  const brandName = await readBrandName(tx);
  const email = garantiaCreditEmail({
    brandName,
    firstName: order.customerFirstName,
    units: release.units,
    amountCents: release.amountCents,
  });
  await enqueueEmail(tx, { dedupeKey: `garantia-credit:${release.id}`, kind: "garantia-credit", to: release.customerEmail, ...email }, now);
}
