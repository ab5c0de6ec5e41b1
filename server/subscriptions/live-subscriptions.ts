import { and, asc, eq, inArray } from "drizzle-orm";
import { subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

/** A subscription that still charges or delivers, or will again (a pause, a payment to fix). */
export const LIVE_SUBSCRIPTION_STATUSES = ["active", "paused", "past_due"] as const;

/**
 * The customer's live subscriptions (issue 41): checkout asks "Ya tienes la suscripción SUS-… ·
 * ¿Quieres otra?" before a second one is created, and refuses it unconfirmed.
 */
export async function liveSubscriptionsOf(db: DatabaseOrTransaction, userId: string): Promise<{ id: string; subscriptionNumber: string }[]> {
  return db
    .select({ id: subscriptions.id, subscriptionNumber: subscriptions.subscriptionNumber })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...LIVE_SUBSCRIPTION_STATUSES])))
    .orderBy(asc(subscriptions.createdAt));
}

/** The refusal of an unconfirmed second subscription, naming the ones the customer has. */
export function secondSubscriptionMessage(live: { subscriptionNumber: string }[]): string {
  const names = live.map((subscription) => subscription.subscriptionNumber).join(", ");
  return `Ya tienes la suscripción ${names}. Si quieres otra además, marca «Sí, quiero otra suscripción»; para cambiar la que tienes, ve a tu suscripción.`;
}
