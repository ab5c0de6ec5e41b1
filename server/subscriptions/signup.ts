import { and, eq, isNull } from "drizzle-orm";
import { billingDateOfPeriod } from "@core/subscription-dates";
import { nextCadenceDelivery } from "@core/cadence-dates";
import { cadenceOf, deliveryCadenceLabels, type DeliveryCadence } from "@core/delivery-cadence";
import { limaToday } from "@core/lima-dates";
import type { Database } from "../db/client";
import { readDistrictWeekdays } from "../content/index.server";
import { orders, paymentMethods, payments, subscriptionEvents, subscriptionItems, subscriptionPeriods, subscriptions, users } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import type { CardProvider } from "../payments/index.server";
// Settling the first order moves it, a flow one floor down from here (order-flows, decision 0083).
import { settlePaymentInTransaction } from "../order-flows/index.server";
import { inTransaction } from "../db/transaction";
import { keepSavedCard } from "./saved-card";

export interface PendingSubscriptionInput {
  userId: string;
  orderId: string;
  frequency: "mensual" | "anual";
  /** Decision 0097: how often its deliveries come; `baseAmountCents` is already one delivery × the month's. */
  deliveryCadence: DeliveryCadence;
  discountRate: number;
  baseAmountCents: number;
  amountCents: number;
  district: { id: number; name: string };
  address: string;
  /** The address's pin (issue 26), copied onto each delivery the subscription creates. */
  point?: { lat: number; lng: number } | null;
  deliveryWindow: string;
  firstDeliveryDate: string;
  organizationId: number | null;
  lines: { productId: number; variantId: number | null; title: string; variantTitle: string | null; unitPriceCents: number; quantity: number }[];
  now: Date;
}

/**
 * Checkout's part of a subscription (spec §4, tokenize_card): the subscription waits in
 * `pending_payment`, with the order that will pay its first period, until a card is saved.
 */
export async function createPendingSubscription(tx: DatabaseOrTransaction, input: PendingSubscriptionInput): Promise<string> {
  const [subscription] = await tx
    .insert(subscriptions)
    .values({
      userId: input.userId,
      orderId: input.orderId,
      status: "pending_payment",
      frequency: input.frequency,
      deliveryCadence: input.deliveryCadence,
      // The first month of weekly or biweekly deliveries counts from the checkout's delivery date.
      deliveryAnchorDate: input.deliveryCadence === "monthly" ? null : input.firstDeliveryDate,
      discountRateBasisPoints: Math.round(input.discountRate * 10_000),
      baseAmountCents: input.baseAmountCents,
      amountCents: input.amountCents,
      districtId: input.district.id,
      districtName: input.district.name,
      address: input.address,
      addressLat: input.point?.lat ?? null,
      addressLng: input.point?.lng ?? null,
      deliveryWindow: input.deliveryWindow,
      organizationId: input.organizationId,
      nextDeliveryDate: input.firstDeliveryDate,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning({ id: subscriptions.id });
  await tx.insert(subscriptionItems).values(input.lines.map((line) => ({ subscriptionId: subscription!.id, ...line })));
  await tx.update(orders).set({ subscriptionId: subscription!.id }).where(eq(orders.id, input.orderId));
  return subscription!.id;
}

export type ActivationResult =
  | { ok: true; subscriptionId: string; alreadyActive: boolean }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "expired" }
  /** Another attempt is being charged (a double click), or the provider's answer was lost. */
  | { ok: false; reason: "in_progress" }
  | { ok: false; reason: "card_refused" | "charge_declined"; message: string };

/**
 * The card form returned a token (issue 5): keep a reusable card, charge the first period, and
 * in one transaction settle the order (invoice, confirmation email), activate the subscription
 * and record period 1 as paid. The attempt's key is written before the charge, so a repeated
 * submit or a crash never charges twice; a declined card can be replaced by another attempt.
 */
export async function activateSubscription(
  db: Database,
  input: { subscriptionId: string; userId: string; token: string; cards: CardProvider; now: Date; siteUrl: string },
): Promise<ActivationResult> {
  const [row] = await db
    .select({ subscription: subscriptions, order: orders, user: users })
    .from(subscriptions)
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.id, input.subscriptionId), eq(subscriptions.userId, input.userId)));
  if (!row) return { ok: false, reason: "not_found" };
  const { subscription, order, user } = row;
  if (subscription.status === "active") return { ok: true, subscriptionId: subscription.id, alreadyActive: true };
  if (subscription.status !== "pending_payment" || !["pending", "payment_created"].includes(order.status)) return { ok: false, reason: "expired" };
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(payments.createdAt).limit(1);
  if (!payment) return { ok: false, reason: "not_found" };

  const attempt = await startFirstPeriodAttempt(db, { subscriptionId: subscription.id, amountCents: order.totalCents, now: input.now });
  if (attempt.state === "paid") return { ok: true, subscriptionId: subscription.id, alreadyActive: true };
  if (attempt.state === "in_progress") return { ok: false, reason: "in_progress" };

  const [existingCard] = await db
    .select({ customerId: paymentMethods.providerCustomerId })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.userId, user.id), eq(paymentMethods.provider, input.cards.id), isNull(paymentMethods.revokedAt)))
    .limit(1);
  const saved = await input.cards.saveCard({
    holder: { email: user.email, firstName: order.customerFirstName, lastName: order.customerLastName, phone: order.customerPhone, address: order.address },
    token: input.token,
    existingCustomerId: existingCard?.customerId ?? null,
  });
  if (!saved.ok) {
    await markFirstPeriodFailed(db, subscription.id, saved.message, input.now);
    return { ok: false, reason: "card_refused", message: saved.message };
  }
  const methodId = await keepSavedCard(db, { userId: user.id, provider: input.cards.id, card: saved, now: input.now });

  const charge = await input.cards
    .chargeCard({
      customerId: saved.customerId,
      cardId: saved.cardId,
      amountCents: order.totalCents,
      email: user.email,
      chargeKey: attempt.chargeKey,
      description: `Suscripción ${subscription.subscriptionNumber} (${order.orderNumber})`,
    })
    .catch((error: unknown) => ({ outcome: "unknown" as const, message: error instanceof Error ? error.message : String(error) })); // a thrown error says nothing about whether money moved
  if (charge.outcome === "declined") {
    await markFirstPeriodFailed(db, subscription.id, charge.message, input.now);
    return { ok: false, reason: "charge_declined", message: charge.message };
  }
  // No answer: the period stays "charging" and the reconciler asks the provider what happened.
  if (charge.outcome === "unknown") return { ok: false, reason: "in_progress" };

  await finishActivation(db, {
    subscription,
    orderId: order.id,
    firstDeliveryDate: order.deliveryDate,
    paymentId: payment.id,
    card: { id: methodId, provider: input.cards.id, brand: saved.brand, last4: saved.last4 },
    chargeId: charge.chargeId,
    actor: "customer",
    now: input.now,
    siteUrl: input.siteUrl,
  });
  return { ok: true, subscriptionId: subscription.id, alreadyActive: false };
}

/**
 * The first period was charged: one transaction settles the order (invoice, confirmation email),
 * marks period 1 paid and activates the subscription. Used by the card page, and by the
 * reconciler when the card page's process died after the provider charged.
 */
export async function finishActivation(
  db: Database,
  input: {
    subscription: typeof subscriptions.$inferSelect;
    orderId: string;
    firstDeliveryDate: string;
    paymentId: string;
    card: { id: string; provider: string; brand: string | null; last4: string | null };
    chargeId: string;
    actor: string;
    now: Date;
    siteUrl: string;
  },
): Promise<void> {
  const { subscription } = input;
  const districtDays = await readDistrictWeekdays(db, subscription.districtId);
  const today = limaToday(input.now);
  // The checkout's delivery is the first of period 1; the next one follows the cadence (decision 0097).
  const cadence = cadenceOf(subscription.deliveryCadence);
  const next = nextCadenceDelivery({ cadence, date: input.firstDeliveryDate, indexInPeriod: 0, anchor: subscription.deliveryAnchorDate, districtDays });
  await inTransaction(db, async (tx) => {
    // Decision 0025: the subscription, then its period, then (in settlement) the order and payment.
    await tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.id, subscription.id)).for("update");
    const [period] = await tx
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.periodNumber, 1)))
      .for("update");
    if (period?.status === "paid") return;
    await settlePaymentInTransaction(tx, input.paymentId, {
      now: input.now,
      method: "card",
      actor: input.actor,
      siteUrl: input.siteUrl,
      providerReference: input.chargeId,
    });
    await tx
      .update(subscriptionPeriods)
      .set({ status: "paid", providerChargeId: input.chargeId, orderId: input.orderId, lastError: null, updatedAt: input.now })
      .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.periodNumber, 1)));
    await tx
      .update(subscriptions)
      .set({
        status: "active",
        paymentMethodId: input.card.id,
        paymentProvider: input.card.provider,
        cardBrand: input.card.brand,
        cardLast4: input.card.last4,
        startDate: today,
        nextBillingDate: billingDateOfPeriod(today, subscription.frequency as "mensual" | "anual", 2),
        nextPeriodNumber: 2,
        deliveriesMade: 1,
        nextDeliveryDate: next.date,
        deliveryAnchorDate: next.anchor,
        updatedAt: input.now,
      })
      .where(eq(subscriptions.id, subscription.id));
    await tx.insert(subscriptionEvents).values({
      subscriptionId: subscription.id,
      kind: "activated",
      description: `Suscripción ${subscription.frequency === "anual" ? "anual" : "mensual"}${cadence === "monthly" ? "" : ` (entregas: ${deliveryCadenceLabels[cadence].toLowerCase()})`} activada con ${input.card.brand ?? "tarjeta"} terminada en ${input.card.last4 ?? "—"}`,
      actor: input.actor,
      createdAt: input.now,
    });
  });
}

/** Attempts younger than this are in flight; older ones were lost to a crash and are reconciled. */
export const CHARGE_IN_FLIGHT_MS = 2 * 60 * 1000;

/**
 * Period 1's ledger row and this attempt's key, written (row locked) before anything reaches the
 * provider: a second submit sees the first one charging, or paid, and does not charge again.
 */
async function startFirstPeriodAttempt(db: Database, input: { subscriptionId: string; amountCents: number; now: Date }) {
  return inTransaction(db, async (tx) => {
    await tx
      .insert(subscriptionPeriods)
      .values({
        subscriptionId: input.subscriptionId,
        periodNumber: 1,
        billingDate: limaToday(input.now),
        status: "due",
        amountCents: input.amountCents,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .onConflictDoNothing();
    const [period] = await tx
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, input.subscriptionId), eq(subscriptionPeriods.periodNumber, 1)))
      .for("update");
    if (period!.status === "paid") return { state: "paid" as const };
    if (period!.status === "charging") return { state: "in_progress" as const };
    const attempts = period!.attempts + 1;
    const chargeKey = `${input.subscriptionId}:1:${attempts}`;
    await tx.update(subscriptionPeriods).set({ status: "charging", attempts, chargeKey, updatedAt: input.now }).where(eq(subscriptionPeriods.id, period!.id));
    return { state: "charge" as const, chargeKey };
  });
}

async function markFirstPeriodFailed(db: Database, subscriptionId: string, message: string, now: Date) {
  await db
    .update(subscriptionPeriods)
    .set({ status: "failed", lastError: message, updatedAt: now })
    .where(and(eq(subscriptionPeriods.subscriptionId, subscriptionId), eq(subscriptionPeriods.periodNumber, 1)));
}
