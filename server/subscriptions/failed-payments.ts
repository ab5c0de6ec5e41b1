import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders, subscriptionPeriods, subscriptions, users } from "../db/schema";
import { MAX_ATTEMPTS, RETRY_DAYS } from "./period-ledger";

export const FAILED_PAYMENTS_LIMIT = 100;

export interface FailedPaymentRow {
  subscriptionId: string;
  subscriptionNumber: string;
  subscriptionStatus: string;
  customerName: string;
  customerEmail: string;
  periodNumber: number;
  billingDate: string;
  amountCents: number;
  /** failed (a card declined) | awaiting_payment (a payment link not paid yet) */
  periodStatus: string;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  /** The date renewals try the card again; null when no retry is left. */
  nextAttemptDate: string | null;
  /** A payment link's order expires then; unpaid, the subscription is paused as past due. */
  linkExpiresAt: string | null;
  linkOrderNumber: string | null;
  /** A cancellation already scheduled: the subscription ends then whatever happens. */
  endsOn: string | null;
}

/**
 * Issue 11: the failed-payments queue. The current period of every live subscription that a card
 * declined (renewals retry every RETRY_DAYS days, MAX_ATTEMPTS attempts, then the subscription is
 * past due) or whose payment link waits to be paid, oldest billing date first.
 */
export async function listFailedPayments(db: Database): Promise<{ rows: FailedPaymentRow[]; total: number; retryDays: number; maxAttempts: number }> {
  const where = and(
    inArray(subscriptions.status, ["active", "past_due"]),
    inArray(subscriptionPeriods.status, ["failed", "awaiting_payment"]),
    eq(subscriptionPeriods.periodNumber, subscriptions.nextPeriodNumber),
  );
  const [[counted], rows] = await Promise.all([
    db.select({ total: count() }).from(subscriptionPeriods).innerJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId)).where(where),
    db
      .select({
        subscriptionId: subscriptions.id,
        subscriptionNumber: subscriptions.subscriptionNumber,
        subscriptionStatus: subscriptions.status,
        customerName: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`,
        customerEmail: users.email,
        periodNumber: subscriptionPeriods.periodNumber,
        billingDate: subscriptionPeriods.billingDate,
        amountCents: subscriptionPeriods.amountCents,
        periodStatus: subscriptionPeriods.status,
        attempts: subscriptionPeriods.attempts,
        lastError: subscriptionPeriods.lastError,
        nextAttemptDate: subscriptionPeriods.nextAttemptDate,
        linkExpiresAt: orders.expiresAt,
        linkOrderNumber: orders.orderNumber,
        endsOn: subscriptions.endsOn,
      })
      .from(subscriptionPeriods)
      .innerJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId))
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .leftJoin(orders, eq(orders.id, subscriptionPeriods.orderId))
      .where(where)
      .orderBy(asc(subscriptionPeriods.billingDate), asc(subscriptions.subscriptionNumber))
      .limit(FAILED_PAYMENTS_LIMIT),
  ]);
  return {
    rows: rows.map((row) => ({
      ...row,
      maxAttempts: MAX_ATTEMPTS,
      nextAttemptDate: row.subscriptionStatus === "past_due" ? null : row.nextAttemptDate,
      linkExpiresAt: row.periodStatus === "awaiting_payment" ? (row.linkExpiresAt?.toISOString() ?? null) : null,
      linkOrderNumber: row.periodStatus === "awaiting_payment" ? row.linkOrderNumber : null,
    })),
    total: Number(counted?.total ?? 0),
    retryDays: RETRY_DAYS,
    maxAttempts: MAX_ATTEMPTS,
  };
}
