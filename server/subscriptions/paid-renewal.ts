import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { orderSummary } from "@core/pricing";
import { readBrandName } from "../content/index.server";
import { orders, subscriptionEvents, subscriptionItems, subscriptionPeriods, subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { confirmPaidOrders } from "../payments/index.server";
import { advancedPointer, frequencyOfNextPeriod, type Period, type Subscription } from "./period-ledger";
import { applyPendingItemPrices } from "./pending-prices";
import { firstOrderCustomer, insertPaidRenewalOrders, subscriptionLines, type PaidRenewal } from "./renewal-orders";

/** A charge that went through, for its period to be completed. */
export interface PaidCharge {
  subscriptionId: string;
  periodId: string;
  chargeId: string;
  provider: string;
}

export interface CompletionDetails {
  now: Date;
  siteUrl: string;
  /** Read once per renewal pass; read here when not given (the reconciler's single completions). */
  brandName?: string;
}

/** One charge: `completePaidPeriods` with a batch of one (the reconciler's path). */
export async function completePaidPeriod(
  tx: DatabaseOrTransaction,
  subscriptionId: string,
  periodId: string,
  charge: Omit<PaidCharge, "subscriptionId" | "periodId"> & CompletionDetails,
) {
  return completePaidPeriods(tx, [{ subscriptionId, periodId, chargeId: charge.chargeId, provider: charge.provider }], charge);
}

/**
 * Charges that went through: each renewal's order (paid, invoiced, confirmed by e-mail as any
 * settled payment is), its period marked paid, its subscription moved to its next period. A whole
 * claimed batch in one transaction and about fourteen statements, whatever its size (decision 0046):
 * every table is written by one statement for the batch.
 *
 * Guarded by each period's status under its lock, so completing twice (a retried batch, a worker
 * and the reconciler) changes nothing: a period already paid is left out. Returns how many were
 * completed now. A row that cannot be completed (say its subscription lost its lines) makes the
 * whole call throw; the caller then completes the batch one by one (renewals.ts).
 *
 * Lock order (decision 0025): the subscriptions (one statement, id order), then their periods
 * (id order), then the rows it inserts, and last the invoice series counters, which every renewal
 * of every worker needs: taken just before the commit so the others wait on them briefly.
 */
export async function completePaidPeriods(tx: DatabaseOrTransaction, charges: readonly PaidCharge[], details: CompletionDetails): Promise<number> {
  if (charges.length === 0) return 0;
  const { now } = details;
  // One statement locks the subscriptions and brings what their orders copy: the first order's
  // customer fields and the subscription's lines (only the subscription rows are locked).
  const locked = await tx
    .select({ subscription: subscriptions, customer: firstOrderCustomer, items: subscriptionLines })
    .from(subscriptions)
    .leftJoin(orders, eq(orders.id, subscriptions.orderId))
    .where(
      inArray(
        subscriptions.id,
        charges.map((charge) => charge.subscriptionId),
      ),
    )
    .orderBy(asc(subscriptions.id))
    .for("update", { of: subscriptions });
  const periods = await tx
    .select()
    .from(subscriptionPeriods)
    .where(
      inArray(
        subscriptionPeriods.id,
        charges.map((charge) => charge.periodId),
      ),
    )
    .orderBy(asc(subscriptionPeriods.id))
    .for("update");
  const lockedOf = new Map(locked.map((row) => [row.subscription.id, row]));
  const periodOf = new Map(periods.map((period) => [period.id, period]));

  const paid: PaidRenewal[] = [];
  for (const charge of charges) {
    const row = lockedOf.get(charge.subscriptionId);
    const period = periodOf.get(charge.periodId);
    if (!row || !period || period.status === "paid") continue;
    paid.push({ subscription: row.subscription, period, source: { customer: row.customer!, items: row.items }, charge });
  }
  if (paid.length === 0) return 0;

  const written = await insertPaidRenewalOrders(tx, paid, now);
  const stamp = sql`${now.toISOString()}::timestamptz`;
  await tx.execute(sql`update ${subscriptionPeriods} p
    set status = 'paid', provider_charge_id = v.charge_id, order_id = v.order_id, last_error = null, updated_at = ${stamp}
    from (values ${sql.join(
      paid.map(({ period, charge }, index) => sql`(${period.id}::uuid, ${charge.chargeId}::text, ${written[index]!.order.id}::uuid)`),
      sql`, `,
    )}) as v(id, charge_id, order_id)
    where p.id = v.id`);
  // The pointer moves past the period it points at (a lagging one is repaired by the claim).
  const advancing = paid.filter(({ subscription, period }) => subscription.nextPeriodNumber === period.periodNumber);
  if (advancing.length > 0) {
    await tx.execute(sql`update ${subscriptions} s
      set frequency = v.frequency, pending_frequency = null, discount_rate_bp = v.discount, amount_cents = v.amount,
          next_period_number = v.next_number, next_billing_date = v.next_billing, updated_at = ${stamp}
      from (values ${sql.join(
        advancing.map(({ subscription, period }) => {
          const next = advancedPointer(subscription, period);
          return sql`(${subscription.id}::uuid, ${next.frequency}::text, ${next.discountRateBasisPoints}::integer, ${next.amountCents}::integer, ${next.nextPeriodNumber}::integer, ${next.nextBillingDate}::date)`;
        }),
        sql`, `,
      )}) as v(id, frequency, discount, amount, next_number, next_billing)
      where s.id = v.id`);
    await applyParkedPrices(tx, advancing, now);
  }
  await tx.insert(subscriptionEvents).values(
    paid.map(({ subscription, period }, index) => ({
      subscriptionId: subscription.id,
      kind: "renewed",
      description: `Renovación del periodo ${period.periodNumber} cobrada`,
      actor: "system",
      details: { periodNumber: period.periodNumber, amountCents: period.amountCents, orderId: written[index]!.order.id },
      createdAt: now,
    })),
  );
  const brandName = details.brandName ?? (await readBrandName(tx));
  await confirmPaidOrders(
    tx,
    written.map(({ order, lines }) => ({ order, items: lines })),
    { now, siteUrl: details.siteUrl, brandName },
  );
  return paid.length;
}

/**
 * The batch's version of `advanceSubscription`'s price step (decision 0055): the rare subscriptions
 * with a catalogue price parked for the period now billed next get it, and their amount follows.
 * One query finds them, so a batch without parked prices pays one statement.
 */
async function applyParkedPrices(tx: DatabaseOrTransaction, advanced: { subscription: Subscription; period: Period }[], now: Date) {
  const parked = await tx
    .selectDistinct({ id: subscriptionItems.subscriptionId })
    .from(subscriptionItems)
    .where(
      and(
        inArray(
          subscriptionItems.subscriptionId,
          advanced.map(({ subscription }) => subscription.id),
        ),
        isNotNull(subscriptionItems.pendingFromPeriod),
      ),
    )
    .orderBy(asc(subscriptionItems.subscriptionId));
  for (const { id } of parked) {
    const { subscription, period } = advanced.find((entry) => entry.subscription.id === id)!;
    const baseAmountCents = await applyPendingItemPrices(tx, subscription, period.periodNumber + 1);
    if (baseAmountCents === null) continue;
    const amountCents = orderSummary(baseAmountCents, "subscription", frequencyOfNextPeriod(subscription)).totalCents;
    await tx.update(subscriptions).set({ amountCents, updatedAt: now }).where(eq(subscriptions.id, id));
  }
}
