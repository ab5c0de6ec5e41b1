import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { orderSummary } from "@core/pricing";
import { billingDateOfPeriod } from "@core/subscription-dates";
import { subscriptionEvents, subscriptionItems, subscriptionPeriods, subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { frequencyOfNextPeriod } from "./period-ledger";
import { notifySubscriber } from "./notify";
import { itemsSubtotal } from "./pending-prices";

/** A price staff changed on /admin/productos: the product's own price (variantId null) or one variant's. */
export interface CatalogPriceChange {
  productId: number;
  variantId: number | null;
  /** What the customer recognises: "Agua alcalina 20 L (Pack x 2)". */
  title: string;
  oldPriceCents: number;
  newPriceCents: number;
  now: Date;
  siteUrl?: string;
}

/** Subscriptions that will be charged again; a signup still waiting for its first payment keeps its checkout's prices. */
const CHARGED_AGAIN = ["active", "paused", "past_due"];

/**
 * Decision 0055: a catalogue price reaches subscriptions from their next period that is not yet
 * being billed. A period whose ledger row renewals already opened (due, charging, declined and
 * waiting for its retry, awaiting a payment link), or whose charge is due today, keeps the price
 * its reminder announced: the new price is parked on the item and applied when that period is
 * settled (`applyPendingItemPrices`). Each affected subscriber gets one e-mail, enqueued here.
 * Runs inside the caller's transaction; locks subscriptions in id order, then each one's period (decision 0025).
 */
export async function repriceSubscriptionsForCatalogChange(tx: DatabaseOrTransaction, change: CatalogPriceChange): Promise<number> {
  const itemMatch = and(
    eq(subscriptionItems.productId, change.productId),
    change.variantId === null ? isNull(subscriptionItems.variantId) : eq(subscriptionItems.variantId, change.variantId),
  );
  const affected = await tx
    .selectDistinct({ id: subscriptions.id })
    .from(subscriptions)
    .innerJoin(subscriptionItems, eq(subscriptionItems.subscriptionId, subscriptions.id))
    .where(and(itemMatch, inArray(subscriptions.status, CHARGED_AGAIN)))
    .orderBy(asc(subscriptions.id));
  if (affected.length === 0) return 0;
  const locked = await tx
    .select()
    .from(subscriptions)
    .where(
      inArray(
        subscriptions.id,
        affected.map((row) => row.id),
      ),
    )
    .orderBy(asc(subscriptions.id))
    .for("update");

  const today = limaToday(change.now);
  let notified = 0;
  for (const subscription of locked) {
    if (!CHARGED_AGAIN.includes(subscription.status) || !subscription.nextBillingDate) continue;
    const [open] = await tx
      .select({ status: subscriptionPeriods.status })
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.periodNumber, subscription.nextPeriodNumber)))
      .for("update");
    const nextIsUnderWay = open !== undefined || subscription.nextBillingDate <= today;
    const fromPeriod = nextIsUnderWay ? subscription.nextPeriodNumber + 1 : subscription.nextPeriodNumber;
    const fromBillingDate = nextIsUnderWay
      ? billingDateOfPeriod(subscription.nextBillingDate, frequencyOfNextPeriod(subscription), 2)
      : subscription.nextBillingDate;
    // A cancellation that ends before that charge means there is no charge to reprice.
    if (subscription.endsOn && subscription.endsOn <= fromBillingDate) continue;

    let newAmountCents: number | null = null;
    if (nextIsUnderWay) {
      await tx
        .update(subscriptionItems)
        .set({ pendingUnitPriceCents: change.newPriceCents, pendingFromPeriod: fromPeriod })
        .where(and(eq(subscriptionItems.subscriptionId, subscription.id), itemMatch));
    } else {
      await tx
        .update(subscriptionItems)
        .set({ unitPriceCents: change.newPriceCents, pendingUnitPriceCents: null, pendingFromPeriod: null })
        .where(and(eq(subscriptionItems.subscriptionId, subscription.id), itemMatch));
      const baseAmountCents = await itemsSubtotal(tx, subscription);
      newAmountCents = orderSummary(baseAmountCents, "subscription", frequencyOfNextPeriod(subscription)).totalCents;
      await tx
        .update(subscriptions)
        .set({
          baseAmountCents,
          amountCents: orderSummary(baseAmountCents, "subscription", subscription.frequency as "mensual" | "anual").totalCents,
          updatedAt: change.now,
        })
        .where(eq(subscriptions.id, subscription.id));
    }

    await tx.insert(subscriptionEvents).values({
      subscriptionId: subscription.id,
      kind: "price_change",
      description: `El precio de ${change.title} cambia de S/ ${(change.oldPriceCents / 100).toFixed(2)} a S/ ${(change.newPriceCents / 100).toFixed(2)} desde el cobro del ${fromBillingDate}.`,
      actor: "staff",
      details: {
        productId: change.productId,
        variantId: change.variantId,
        oldPriceCents: change.oldPriceCents,
        newPriceCents: change.newPriceCents,
        fromPeriod,
      },
      createdAt: change.now,
    });
    await notifySubscriber(tx, subscription, {
      // One e-mail per subscription and price change; a change posted twice changes nothing the second time.
      dedupeKey: `catalog-price:${change.productId}:${change.variantId ?? 0}:${change.now.getTime()}:${subscription.id}`,
      kind: "subscription_price_change",
      email: {
        type: "price_change",
        productTitle: change.title,
        oldPriceCents: change.oldPriceCents,
        newPriceCents: change.newPriceCents,
        fromBillingDate,
        newAmountCents,
      },
      now: change.now,
      siteUrl: change.siteUrl,
    });
    notified += 1;
  }
  return notified;
}
