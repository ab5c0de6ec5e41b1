import { eq } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import type { Database } from "../db/client";
import { recordRowFailure } from "../db/row-failures";
import { readBrandName } from "../content/index.server";
import { subscriptions } from "../db/schema";
import { inTransaction, retryableState } from "../db/transaction";
import type { CardProvider } from "../payments/index.server";
import { completePaidPeriods, type PaidCharge } from "./paid-renewal";
import { failAttempt } from "./period-ledger";
import { claimDuePeriods, type Claim } from "./renewal-claims";
import { reconcileLostCharges } from "./lost-charges";

export { MAX_ATTEMPTS } from "./period-ledger";

export interface RenewalOptions {
  now: Date;
  siteUrl: string;
  /** The provider that saved a card charges it (renewals never switch providers). */
  cardsFor: (provider: string) => CardProvider;
  batchSize?: number;
  /** Only this subscription (a customer's card update retrying its unpaid period at once). */
  onlySubscriptionId?: string;
  /** The process is stopping (SIGTERM): the batch in hand is finished, no new one is claimed. */
  signal?: AbortSignal;
}

export interface RenewalReport {
  charged: number;
  declined: number;
  pastDue: number;
  reconciled: number;
  unknown: number;
  /** Subscriptions whose renewal threw: recorded in job_row_failures and tried again next pass. */
  failed: number;
}

/**
 * Charges every due period of every active card subscription, exactly once (issue 5). A period is
 * a row unique per (subscription, number); its attempt key is written, row locked, before the
 * provider is called, so two workers, a job run twice or a crash between charge and write never
 * charge twice. Paused, past-due and cancelled subscriptions are never selected.
 *
 * The pass: claim a batch (renewal-claims.ts), charge each claim outside any transaction, complete
 * the batch's paid charges in one transaction (paid-renewal.ts) and write each decline in its own
 * (period-ledger.ts), until no subscription is due. Attempts whose answer was lost are reconciled first (lost-charges.ts).
 */
export async function renewDueSubscriptions(db: Database, options: RenewalOptions): Promise<RenewalReport> {
  const report: RenewalReport = { charged: 0, declined: 0, pastDue: 0, reconciled: 0, unknown: 0, failed: 0 };
  if (!options.onlySubscriptionId) report.reconciled = await reconcileLostCharges(db, options);
  const today = limaToday(options.now);
  const batchSize = options.batchSize ?? 100;
  // Read once per pass, not once per confirmation e-mail.
  const brandName = await readBrandName(db);
  // Rows that failed in this pass are left for the next one, so the loop still ends (decision 0025).
  const failedThisPass = new Set<string>();
  const completion = { now: options.now, siteUrl: options.siteUrl, brandName };
  // Each pass claims a batch; claimed periods leave the "due" set, so the loop ends.
  for (;;) {
    if (options.signal?.aborted) break;
    const { claims, repaired, failed } = await claimDuePeriods(db, today, batchSize, options.now, failedThisPass, options.onlySubscriptionId);
    report.failed += failed;
    if (claims.length === 0 && repaired === 0 && failed === 0) break;
    // The batch's paid charges are completed together (decision 0046), at the latest when the
    // oldest has waited COMPLETE_WITHIN_MS, so a slow provider does not leave them charging long.
    let paid: PaidCharge[] = [];
    let oldestPaidAt = 0;
    for (const claim of claims) {
      try {
        const outcome = await chargeClaim(db, claim, options);
        if (typeof outcome === "string") report[outcome] += 1;
        else {
          if (paid.length === 0) oldestPaidAt = Date.now();
          paid.push(outcome);
        }
      } catch (error) {
        await leaveForReconciler(claim.subscription.id, error);
      }
      if (paid.length > 0 && Date.now() - oldestPaidAt >= COMPLETE_WITHIN_MS) {
        await completeBatch(paid);
        paid = [];
      }
    }
    await completeBatch(paid);
  }
  return report;

  // The charge's outcome could not be written: the period stays charging, and the reconciler
  // asks the provider by its key on a later pass. Nothing is charged twice.
  async function leaveForReconciler(subscriptionId: string, error: unknown) {
    failedThisPass.add(subscriptionId);
    report.failed += 1;
    await recordRowFailure(db, "renewals", subscriptionId, error, options.now);
  }

  /**
   * One transaction for the batch. If it fails for a reason other than a deadlock (which
   * inTransaction retries), the batch is completed one charge per transaction, so one bad row is
   * recorded alone and the others are paid (decision 0025). Completing is idempotent, so charges
   * the failed batch did not write are simply written now.
   */
  async function completeBatch(charges: PaidCharge[]) {
    if (charges.length === 0) return;
    try {
      await inTransaction(db, (tx) => completePaidPeriods(tx, charges, completion), { label: "renewals: complete paid periods" });
      report.charged += charges.length;
      return;
    } catch (error) {
      if (retryableState(error)) throw error; // inTransaction already ran out of attempts
    }
    for (const charge of charges) {
      try {
        await inTransaction(db, (tx) => completePaidPeriods(tx, [charge], completion), { label: "renewals: complete paid period" });
        report.charged += 1;
      } catch (error) {
        await leaveForReconciler(charge.subscriptionId, error);
      }
    }
  }
}

/** How long a paid charge may wait for its batch's completion (well within CHARGE_IN_FLIGHT_MS). */
const COMPLETE_WITHIN_MS = 20_000;

/**
 * The provider is called outside any transaction. A paid charge is returned for its batch to
 * complete; any other answer is written here in a transaction of its own.
 */
async function chargeClaim(db: Database, claim: Claim, options: RenewalOptions): Promise<PaidCharge | "declined" | "pastDue" | "unknown"> {
  const { subscription, period, method } = claim;
  let result;
  try {
    result = await options.cardsFor(method.provider).chargeCard({
      customerId: method.providerCustomerId,
      cardId: method.providerCardId,
      amountCents: period.amountCents,
      email: claim.email,
      chargeKey: period.chargeKey!,
      description: `Suscripción ${subscription.subscriptionNumber}, periodo ${period.periodNumber}`,
    });
  } catch (error) {
    result = { outcome: "unknown" as const, message: error instanceof Error ? error.message : String(error) };
  }
  if (result.outcome === "unknown") return "unknown"; // stays charging; reconciled on a later run
  if (result.outcome === "paid") return { subscriptionId: subscription.id, periodId: period.id, chargeId: result.chargeId, provider: method.provider };
  const pastDue = await inTransaction(db, async (tx) => {
    const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscription.id)).for("update");
    return failAttempt(tx, locked!, period, result.message, options.now, options.siteUrl);
  });
  return pastDue ? "pastDue" : "declined";
}
