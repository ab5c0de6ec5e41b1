import { and, asc, eq, inArray, lte, notInArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { clearRowFailures, inRowSavepoint } from "../db/row-failures";
import { paymentMethods, subscriptionPeriods, subscriptions, users } from "../db/schema";
import { inTransaction, retryableState, type Transaction } from "../db/transaction";
import { advanceSubscription, currentPeriod, failAttempt, newPeriodValues, type Period, type Subscription } from "./period-ledger";

/** A due period marked `charging` with its attempt's key: the provider may now be called. */
export interface Claim {
  subscription: Subscription;
  period: Period;
  method: typeof paymentMethods.$inferSelect;
  email: string;
}

export interface ClaimedBatch {
  claims: Claim[];
  /** Subscriptions settled without a charge (a lagging pointer moved on, a missing card counted as a failed attempt). */
  repaired: number;
  /** Subscriptions whose claim threw: recorded in job_row_failures, skipped for the rest of the pass. */
  failed: number;
}

interface DueRow {
  subscription: Subscription;
  method: typeof paymentMethods.$inferSelect | null;
  email: string | null;
}

/**
 * One transaction: lock a batch of due subscriptions (SKIP LOCKED, so a second worker takes
 * others), create or pick up each one's current period, and mark an attempt as charging with its
 * key (decision 0023).
 *
 * The batch is claimed set-based, a handful of statements for the whole batch (issue 13). If one
 * of its statements fails for a reason other than a deadlock, the batch is claimed again row by
 * row, each in its own savepoint, so the bad row is rolled back and recorded alone and the others
 * still commit (decision 0025, as amended by decision 0046).
 */
export async function claimDuePeriods(
  db: Database,
  today: string,
  limit: number,
  now: Date,
  skip: Set<string>,
  onlySubscriptionId?: string,
): Promise<ClaimedBatch> {
  const select = { today, limit, skip, onlySubscriptionId };
  try {
    return await inTransaction(db, async (tx) => claimBatch(tx, await lockDueSubscriptions(tx, select), now, skip), { label: "renewals: claim due periods" });
  } catch (error) {
    if (retryableState(error)) throw error; // inTransaction already ran out of attempts
    return inTransaction(db, async (tx) => claimRowByRow(tx, await lockDueSubscriptions(tx, select), now, skip), {
      label: "renewals: claim due periods row by row",
    });
  }
}

/**
 * Due subscriptions, locked, with their card and their customer's email read in the same
 * statement (only the subscription row is locked: `FOR UPDATE OF subscriptions`).
 */
async function lockDueSubscriptions(
  tx: Transaction,
  { today, limit, skip, onlySubscriptionId }: { today: string; limit: number; skip: Set<string>; onlySubscriptionId?: string },
): Promise<DueRow[]> {
  return (
    tx
      .select({ subscription: subscriptions, method: paymentMethods, email: users.email })
      .from(subscriptions)
      .leftJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
      .leftJoin(users, eq(users.id, subscriptions.userId))
      .where(
        and(
          eq(subscriptions.status, "active"),
          eq(subscriptions.billingMethod, "card"),
          onlySubscriptionId ? eq(subscriptions.id, onlySubscriptionId) : undefined,
          skip.size > 0 ? notInArray(subscriptions.id, [...skip]) : undefined,
          lte(subscriptions.nextBillingDate, today),
          // A cancellation at period end: the period starting on or after the end is never charged.
          sql`(${subscriptions.endsOn} is null or ${subscriptions.endsOn} > ${subscriptions.nextBillingDate})`,
          // A period waiting for its retry date, or already charging, is not due today.
          sql`not exists (select 1 from ${subscriptionPeriods} p where p.subscription_id = ${subscriptions.id} and p.period_number = ${subscriptions.nextPeriodNumber}
                  and (p.status = 'charging' or (p.status = 'failed' and p.next_attempt_date > ${today})))`,
        ),
      )
      // The id breaks ties, so every worker meets the rows in one order (decision 0025).
      .orderBy(asc(subscriptions.nextBillingDate), asc(subscriptions.id))
      .limit(limit)
      // One customer's own retry waits for a lock another request holds for a moment; the job skips it.
      .for("update", onlySubscriptionId ? { of: subscriptions } : { of: subscriptions, skipLocked: true })
  );
}

/** A card that can be charged and an email to send its receipt to, or null: the attempt fails without calling anyone. */
function chargeable(row: DueRow): { method: typeof paymentMethods.$inferSelect; email: string } | null {
  return row.method && !row.method.revokedAt && row.email ? { method: row.method, email: row.email } : null;
}

/**
 * The set-based claim: the batch's periods created in one statement, locked in one (id order),
 * and the ones due for a charge marked charging in one. Rows in an unusual state (a pointer that
 * lagged, no usable card) take the row-by-row path below, still in this transaction.
 */
async function claimBatch(tx: Transaction, due: DueRow[], now: Date, skip: Set<string>): Promise<ClaimedBatch> {
  const batch: ClaimedBatch = { claims: [], repaired: 0, failed: 0 };
  if (due.length === 0) return batch;
  // In subscription id order, so two inserts of overlapping batches meet their conflicts in one order.
  const byId = [...due].sort((a, b) => (a.subscription.id < b.subscription.id ? -1 : 1));
  await tx
    .insert(subscriptionPeriods)
    .values(byId.map((row) => newPeriodValues(row.subscription, now)))
    .onConflictDoNothing();
  const periods = await tx
    .select()
    .from(subscriptionPeriods)
    .where(
      sql`(${subscriptionPeriods.subscriptionId}, ${subscriptionPeriods.periodNumber}) in (${sql.join(
        byId.map((row) => sql`(${row.subscription.id}::uuid, ${row.subscription.nextPeriodNumber}::integer)`),
        sql`, `,
      )})`,
    )
    .orderBy(asc(subscriptionPeriods.id))
    .for("update");
  const periodOf = new Map(periods.map((period) => [period.subscriptionId, period]));

  const toCharge: DueRow[] = [];
  const unusual: DueRow[] = [];
  for (const row of due) {
    const period = periodOf.get(row.subscription.id);
    if (!period) throw new Error(`Subscription ${row.subscription.id}: its period ${row.subscription.nextPeriodNumber} was neither created nor found`);
    // Re-checked under the period's lock: a worker that waited for the subscription's lock must
    // not start a second attempt on a period another worker is already charging.
    if (period.status === "charging" || period.status === "awaiting_payment") continue;
    if (period.status === "paid" || period.status === "skipped" || !chargeable(row)) unusual.push(row);
    else toCharge.push(row);
  }

  if (toCharge.length > 0) {
    // The attempt's key is subscription:period:attempt, written before the provider is called.
    const charging = await tx
      .update(subscriptionPeriods)
      .set({
        status: "charging",
        attempts: sql`${subscriptionPeriods.attempts} + 1`,
        chargeKey: sql`${subscriptionPeriods.subscriptionId}::text || ':' || ${subscriptionPeriods.periodNumber} || ':' || (${subscriptionPeriods.attempts} + 1)`,
        updatedAt: now,
      })
      .where(
        inArray(
          subscriptionPeriods.id,
          toCharge.map((row) => periodOf.get(row.subscription.id)!.id),
        ),
      )
      .returning();
    const chargingOf = new Map(charging.map((period) => [period.subscriptionId, period]));
    for (const row of toCharge) batch.claims.push({ subscription: row.subscription, period: chargingOf.get(row.subscription.id)!, ...chargeable(row)! });
  }
  if (unusual.length > 0) {
    const rest = await claimRowByRow(tx, unusual, now, skip);
    batch.claims.push(...rest.claims);
    batch.repaired += rest.repaired;
    batch.failed += rest.failed;
  }
  // Claimed for a charge: what failed on an earlier pass (a lost outcome, settled since) is behind it.
  await clearRowFailures(
    tx,
    "renewals",
    batch.claims.map((claim) => claim.subscription.id),
  );
  return batch;
}

/** Each row on its own, in a savepoint: a row that throws is rolled back and recorded alone. */
async function claimRowByRow(tx: Transaction, due: DueRow[], now: Date, skip: Set<string>): Promise<ClaimedBatch> {
  const batch: ClaimedBatch = { claims: [], repaired: 0, failed: 0 };
  const repaired: string[] = [];
  for (const row of due) {
    const handled = await inRowSavepoint(tx, "renewals", row.subscription.id, now, async (savepoint) => {
      const outcome = await claimOne(savepoint, row, now);
      if (outcome === "repaired") repaired.push(row.subscription.id);
      else if (outcome !== "skipped") batch.claims.push(outcome);
    });
    if (!handled) {
      skip.add(row.subscription.id);
      batch.failed += 1;
    }
  }
  batch.repaired = repaired.length;
  // A period left charging is "skipped" until the reconciler settles it: its failure line stays.
  await clearRowFailures(tx, "renewals", repaired);
  return batch;
}

/**
 * One locked subscription: its current period re-checked under the period's lock, then either
 * repaired (a pointer that lagged), failed (no usable card) or marked charging with its key.
 */
async function claimOne(tx: Transaction, row: DueRow, now: Date): Promise<Claim | "repaired" | "skipped"> {
  const { subscription } = row;
  const period = await currentPeriod(tx, subscription, now);
  if (period.status === "charging" || period.status === "awaiting_payment") return "skipped";
  if (period.status === "paid" || period.status === "skipped") {
    // The period was settled but the subscription's pointer lags (a crash): move it on.
    await advanceSubscription(tx, subscription, period, now);
    return "repaired";
  }
  const card = chargeable(row);
  if (!card) {
    await failAttempt(tx, subscription, { ...period, attempts: period.attempts + 1 }, "No hay una tarjeta registrada", now);
    return "repaired";
  }
  const attempts = period.attempts + 1;
  const [charging] = await tx
    .update(subscriptionPeriods)
    .set({ status: "charging", attempts, chargeKey: `${subscription.id}:${period.periodNumber}:${attempts}`, updatedAt: now })
    .where(eq(subscriptionPeriods.id, period.id))
    .returning();
  return { subscription, period: charging!, ...card };
}
