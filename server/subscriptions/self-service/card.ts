import { and, eq, inArray, ne } from "drizzle-orm";
import { canDo } from "@core/subscription-self-service";
import type { Database } from "../../db/client";
import { orders, paymentMethods, subscriptionPeriods, subscriptions, users } from "../../db/schema";
import type { CardProvider } from "../../payments/index.server";
import { isSubscriptionId } from "../customer-subscriptions";
import { resumeSubscription } from "../lifecycle";
import { keepSavedCard } from "../saved-card";
import { renewDueSubscriptions } from "../renewals";
import { changeOwnedSubscription, stateRefusal, type SelfServiceContext, type SelfServiceResult } from "./change";

/** What the card page shows in its update mode, for the subscription's own customer only. */
export async function findSubscriptionForCardUpdate(db: Database, userId: string, subscriptionId: string) {
  if (!isSubscriptionId(subscriptionId)) return null;
  const [row] = await db
    .select({ subscription: subscriptions, email: users.email })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId)));
  if (!row) return null;
  const { subscription } = row;
  const [unpaid] =
    subscription.status === "past_due"
      ? await db
          .select({ amountCents: subscriptionPeriods.amountCents })
          .from(subscriptionPeriods)
          .where(
            and(
              eq(subscriptionPeriods.subscriptionId, subscription.id),
              eq(subscriptionPeriods.periodNumber, subscription.nextPeriodNumber),
              eq(subscriptionPeriods.status, "failed"),
            ),
          )
      : [];
  return {
    id: subscription.id,
    subscriptionNumber: subscription.subscriptionNumber,
    status: subscription.status,
    frequency: subscription.frequency,
    cardBrand: subscription.cardBrand,
    cardLast4: subscription.cardLast4,
    email: row.email,
    canUpdate: canDo(subscription, "card"),
    /** A past-due subscription's unpaid period, charged as soon as the new card is saved. */
    unpaidAmountCents: unpaid?.amountCents ?? null,
  };
}

export type CardUpdateResult = SelfServiceResult & { retry?: { outcome: "paid" | "declined" | "pending" } };

/**
 * Update the card (issue 5): the provider's token becomes a new saved card (no charge), the old
 * one is revoked, renewals charge the new one. A past-due subscription is reactivated and its
 * unpaid period is charged at once, through renewals, with the same exactly-once ledger.
 */
export async function updateSubscriptionCard(
  db: Database,
  input: SelfServiceContext & { token: string; cards: CardProvider; cardsFor: (provider: string) => CardProvider },
): Promise<CardUpdateResult> {
  if (!isSubscriptionId(input.subscriptionId)) return { ok: false, reason: "not_found" };
  const [row] = await db
    .select({ subscription: subscriptions, order: orders, user: users })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .leftJoin(orders, eq(orders.id, subscriptions.orderId))
    .where(and(eq(subscriptions.id, input.subscriptionId), eq(subscriptions.userId, input.userId)));
  if (!row) return { ok: false, reason: "not_found" };
  const { subscription, order, user } = row;
  const refusal = stateRefusal(subscription, "card");
  if (refusal) return { ok: false, reason: "refused", message: refusal.refused };

  const [current] = subscription.paymentMethodId ? await db.select().from(paymentMethods).where(eq(paymentMethods.id, subscription.paymentMethodId)) : [];
  const saved = await input.cards.saveCard({
    holder: {
      email: user.email,
      firstName: order?.customerFirstName ?? user.firstName,
      lastName: order?.customerLastName ?? user.lastName,
      phone: order?.customerPhone ?? user.phone ?? "",
      address: order?.address ?? subscription.address,
    },
    token: input.token,
    existingCustomerId: current?.provider === input.cards.id ? current.providerCustomerId : null,
  });
  if (!saved.ok) return { ok: false, reason: "refused", message: `No se pudo guardar tu tarjeta. ${saved.message}`, field: "card" };

  const state = { reactivated: false };
  const result = await changeOwnedSubscription(db, input, "card", async (tx, locked) => {
    const lockedRefusal = stateRefusal(locked, "card");
    if (lockedRefusal) return lockedRefusal;
    const methodId = await keepSavedCard(tx, { userId: user.id, provider: input.cards.id, card: saved, now: input.now });
    await tx
      .update(subscriptions)
      .set({ paymentMethodId: methodId, paymentProvider: input.cards.id, cardBrand: saved.brand, cardLast4: saved.last4, updatedAt: input.now })
      .where(eq(subscriptions.id, locked.id));
    if (locked.paymentMethodId) {
      // The old card is revoked unless another live subscription of this customer still uses it.
      const sharing = await tx
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.paymentMethodId, locked.paymentMethodId),
            ne(subscriptions.id, locked.id),
            inArray(subscriptions.status, ["active", "paused", "past_due"]),
          ),
        );
      if (sharing.length === 0) await tx.update(paymentMethods).set({ revokedAt: input.now }).where(eq(paymentMethods.id, locked.paymentMethodId));
    }
    if (locked.status === "past_due") {
      await resumeSubscription(tx, locked, { now: input.now, actor: "customer", description: "Suscripción reactivada con la nueva tarjeta" });
      state.reactivated = true;
    }
    const card = `${saved.brand ?? "Tarjeta"} terminada en ${saved.last4 ?? "—"}`;
    return {
      kind: "card_updated",
      description: state.reactivated
        ? `Tarjeta actualizada: ${card}. Cobraremos ahora el periodo pendiente.`
        : `Tarjeta actualizada: ${card}. No hicimos ningún cobro.`,
      details: { paymentMethodId: methodId, previousPaymentMethodId: locked.paymentMethodId, reactivated: state.reactivated },
    };
  });
  if (!result.ok || result.alreadyApplied || !state.reactivated) return result;
  const report = await renewDueSubscriptions(db, { now: input.now, siteUrl: input.siteUrl, cardsFor: input.cardsFor, onlySubscriptionId: subscription.id });
  const outcome = report.charged > 0 ? "paid" : report.unknown > 0 ? "pending" : "declined";
  return { ...result, retry: { outcome } };
}
