import { and, asc, eq } from "drizzle-orm";
import { orderSummary } from "@core/pricing";
import { availableActions, pauseDateRange, type SelfServiceAction } from "@core/subscription-self-service";
import { listSellableLines, type SellableLine } from "../../catalog/index.server";
import { readDistrictWeekdays } from "../../content/index.server";
import type { Database } from "../../db/client";
import { organizations, subscriptions } from "../../db/schema";
import { isSubscriptionId } from "../customer-subscriptions";
import { offeredDeliveryDates } from "./delivery-date";
import { skipPlanOf } from "./skip-plan";
import { cadenceOf } from "@core/delivery-cadence";

/** A line a subscription can hold: each active variant, or the product at its own price (the catalogue's rule). */
export type { SellableLine };

export interface SelfServiceOptions {
  actions: SelfServiceAction[];
  endsOn: string | null;
  pendingFrequency: "mensual" | "anual" | null;
  /** What the next billing period will charge (a pending frequency change included). */
  nextChargeCents: number;
  /** Per-period amount of each plan for the current products. */
  planAmounts: { mensual: number; anual: number };
  pause: { min: string; max: string };
  deliveryDates: string[];
  /** The district's delivery weekdays (1 = lunes … 7 = domingo). */
  deliveryWeekdays: number[];
  /**
   * What "Saltar la próxima entrega" does (skip-plan.ts, the action's own rule): the delivery it
   * skips, the next one after it, the billing date it skips (mensual), and the coming deliveries
   * before it that can no longer be skipped, with why.
   */
  skip: { delivery: string; movedTo: string; skipsBillingDate: string | null; kept: { date: string; reason: string }[] } | null;
  catalogue: SellableLine[];
  organizations: { id: number; title: string }[];
}

/** Everything the subscription's page needs to offer its actions; null for another customer's subscription. */
export async function loadSelfServiceOptions(db: Database, userId: string, subscriptionId: string, now: Date): Promise<SelfServiceOptions | null> {
  if (!isSubscriptionId(subscriptionId)) return null;
  const [subscription] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId)));
  if (!subscription) return null;
  const actions = availableActions(subscription);
  const nextFrequency = (subscription.pendingFrequency ?? subscription.frequency) as "mensual" | "anual";
  const [deliveryDates, weekdays, catalogue, causes] = await Promise.all([
    actions.includes("date") ? offeredDeliveryDates(db, subscription, now) : Promise.resolve([]),
    readDistrictWeekdays(db, subscription.districtId),
    actions.includes("products") ? listSellableLines(db) : Promise.resolve([]),
    actions.includes("organization")
      ? db.select({ id: organizations.id, title: organizations.title }).from(organizations).orderBy(asc(organizations.createdAt), asc(organizations.id))
      : Promise.resolve([]),
  ]);
  const plan = actions.includes("skip") && subscription.nextDeliveryDate ? await skipPlanOf(db, subscription, weekdays, now) : null;
  const skip = plan
    ? {
        delivery: plan.target.date,
        movedTo: plan.nextAfter,
        // Decision 0097: a weekly or biweekly skip moves one delivery, never the month's charge.
        skipsBillingDate: nextFrequency === "mensual" && cadenceOf(subscription.deliveryCadence) === "monthly" ? subscription.nextBillingDate : null,
        kept: plan.kept,
      }
    : null;
  return {
    actions,
    endsOn: subscription.endsOn,
    pendingFrequency: subscription.pendingFrequency as "mensual" | "anual" | null,
    nextChargeCents: orderSummary(subscription.baseAmountCents, "subscription", nextFrequency).totalCents,
    planAmounts: {
      mensual: orderSummary(subscription.baseAmountCents, "subscription", "mensual").totalCents,
      anual: orderSummary(subscription.baseAmountCents, "subscription", "anual").totalCents,
    },
    pause: pauseDateRange(now),
    deliveryDates,
    deliveryWeekdays: [...weekdays].sort(),
    skip,
    catalogue,
    organizations: causes,
  };
}
