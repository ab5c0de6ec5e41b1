import { and, asc, desc, eq, gte, inArray } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { datesOnResume } from "@core/subscription-self-service";
import type { Database } from "../db/client";
import { readDistrictWeekdays } from "../content/index.server";
import { deliveries, orders, organizations, subscriptionEvents, subscriptionItems, subscriptionPeriods, subscriptions } from "../db/schema";

export interface SubscriptionView {
  id: string;
  subscriptionNumber: string;
  status: string;
  frequency: string;
  /** weekly | biweekly | monthly (decision 0097): from the next charge on. */
  deliveryCadence: string;
  /** The pace of the period paid now (its order's cadence); differs from `deliveryCadence` after a change until the next charge. */
  paidDeliveryCadence: string | null;
  discountRateBasisPoints: number;
  baseAmountCents: number;
  amountCents: number;
  districtName: string;
  address: string;
  deliveryWindow: string;
  startDate: string | null;
  nextBillingDate: string | null;
  nextDeliveryDate: string | null;
  /** The next delivery the customer will receive: one already scheduled, else the next to be made. */
  upcomingDeliveryDate: string | null;
  pausedUntil: string | null;
  /** A cancellation takes effect on this date (the end of the paid period). */
  endsOn: string | null;
  cancelReason: string | null;
  /** Frequency from the next period on (a self-service change). */
  pendingFrequency: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  /** card: renewals charge the saved card; payment_link: an emailed link each period (Yape). */
  billingMethod: string;
  organization: { id: number; title: string } | null;
  items: { id: number; productId: number; variantId: number | null; title: string; variantTitle: string | null; unitPriceCents: number; quantity: number }[];
  history: { id: number; description: string; actor: string; createdAt: string }[];
  createdAt: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id is simply not found (never a database error). */
export function isSubscriptionId(value: string): boolean {
  return UUID.test(value);
}

/** The customer's subscriptions, newest first (the account's subscription page). */
export async function listSubscriptionsForUser(db: Database, userId: string): Promise<SubscriptionView[]> {
  const rows = await db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.createdAt));
  const views = await Promise.all(rows.map((row) => findSubscriptionForUser(db, userId, row.id)));
  return views.filter((view): view is SubscriptionView => view !== null);
}

/** One subscription of this customer; null for another customer's, an unknown or a malformed id. */
export async function findSubscriptionForUser(db: Database, userId: string, subscriptionId: string, now: Date = new Date()): Promise<SubscriptionView | null> {
  if (!isSubscriptionId(subscriptionId)) return null;
  const [row] = await db
    .select({ subscription: subscriptions, organizationTitle: organizations.title })
    .from(subscriptions)
    .leftJoin(organizations, eq(organizations.id, subscriptions.organizationId))
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId)));
  if (!row) return null;
  const { subscription } = row;
  const [items, history, scheduled, served, paid] = await Promise.all([
    db.select().from(subscriptionItems).where(eq(subscriptionItems.subscriptionId, subscription.id)).orderBy(asc(subscriptionItems.id)),
    db
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, subscription.id))
      .orderBy(desc(subscriptionEvents.createdAt), desc(subscriptionEvents.id)),
    db
      .select({ date: deliveries.deliveryDate })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.subscriptionId, subscription.id),
          gte(deliveries.deliveryDate, limaToday(now)),
          inArray(deliveries.status, ["pending", "preparing", "scheduled", "shipped", "in_transit", "rescheduled"]),
        ),
      )
      .orderBy(asc(deliveries.deliveryDate))
      .limit(1),
    readDistrictWeekdays(db, subscription.districtId),
    db
      .select({ cadence: orders.deliveryCadence })
      .from(subscriptionPeriods)
      .innerJoin(orders, eq(orders.id, subscriptionPeriods.orderId))
      .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.status, "paid")))
      .orderBy(desc(subscriptionPeriods.periodNumber))
      .limit(1),
  ]);
  // While paused the stored dates may fall inside the pause, where nothing is charged or
  // delivered: the customer is told the dates the resume will really give (lifecycle.ts).
  const dates =
    subscription.status === "paused" && subscription.pausedUntil
      ? datesOnResume(subscription, subscription.pausedUntil, served)
      : { nextBillingDate: subscription.nextBillingDate, nextDeliveryDate: subscription.nextDeliveryDate };
  return {
    id: subscription.id,
    subscriptionNumber: subscription.subscriptionNumber,
    status: subscription.status,
    frequency: subscription.frequency,
    deliveryCadence: subscription.deliveryCadence,
    paidDeliveryCadence: paid[0]?.cadence ?? null,
    discountRateBasisPoints: subscription.discountRateBasisPoints,
    baseAmountCents: subscription.baseAmountCents,
    amountCents: subscription.amountCents,
    districtName: subscription.districtName,
    address: subscription.address,
    deliveryWindow: subscription.deliveryWindow,
    startDate: subscription.startDate,
    nextBillingDate: dates.nextBillingDate,
    nextDeliveryDate: dates.nextDeliveryDate,
    upcomingDeliveryDate: scheduled[0]?.date ?? dates.nextDeliveryDate,
    pausedUntil: subscription.pausedUntil,
    endsOn: subscription.endsOn,
    cancelReason: subscription.cancelReason,
    pendingFrequency: subscription.pendingFrequency,
    cardBrand: subscription.cardBrand,
    cardLast4: subscription.cardLast4,
    billingMethod: subscription.billingMethod,
    organization: subscription.organizationId && row.organizationTitle ? { id: subscription.organizationId, title: row.organizationTitle } : null,
    items: items.map((item) => ({
      id: item.id,
      productId: item.productId,
      variantId: item.variantId,
      title: item.title,
      variantTitle: item.variantTitle,
      unitPriceCents: item.unitPriceCents,
      quantity: item.quantity,
    })),
    history: history.map((event) => ({ id: event.id, description: event.description, actor: event.actor, createdAt: event.createdAt.toISOString() })),
    createdAt: subscription.createdAt.toISOString(),
  };
}

/**
 * What a page reached by the subscription's id may tell anyone (decisions.md: status to anyone,
 * personal data only to the owner), and what decides who the owner is: the customer's account,
 * or the first order (whose signed cookie or emailed token proves the browser placed it).
 */
export async function findSubscriptionStatus(
  db: Database,
  subscriptionId: string,
): Promise<{ id: string; subscriptionNumber: string; status: string; userId: string; orderId: string | null } | null> {
  if (!isSubscriptionId(subscriptionId)) return null;
  const [row] = await db
    .select({
      id: subscriptions.id,
      subscriptionNumber: subscriptions.subscriptionNumber,
      status: subscriptions.status,
      userId: subscriptions.userId,
      orderId: subscriptions.orderId,
    })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  return row ?? null;
}
