import { and, asc, eq, gte, lte, sql } from "drizzle-orm";
import { addDays, limaToday } from "@core/lima-dates";
import { orderSummary } from "@core/pricing";
import type { Database } from "../db/client";
import { alias } from "drizzle-orm/pg-core";
import { productVariants, products, subscriptionItems, subscriptionPeriods, subscriptions } from "../db/schema";
import { loadUnitsBetween, type DayLoadLine } from "../deliveries/index.server";

export interface ForecastDay {
  date: string;
  charges: number;
  chargeCents: number;
  units: Omit<DayLoadLine, "date">[];
}

export interface SubscriptionForecast {
  from: string;
  to: string;
  days: ForecastDay[];
}

/**
 * Issue 11: what the next `days` days hold, from today in Lima. Charges: each active subscription's
 * next charge (a declined one on its retry date; one already late counts today), at the price its
 * next period has (a pending plan change included), not when a cancellation ends it first. Units:
 * the deliveries already created (Despacho's load) plus each active subscription's next delivery
 * not created yet (they are created a week ahead), at its current products. Each subscription's
 * next charge and next delivery are counted once: a monthly one falls in a 30-day window once,
 * except when its next date is in the window's first days of a short month.
 */
export async function subscriptionForecast(db: Database, input: { now: Date; days: number }): Promise<SubscriptionForecast> {
  const from = limaToday(input.now);
  const to = addDays(from, input.days - 1);
  const p = alias(subscriptionPeriods, "p");
  const chargeDay = sql<string>`greatest(coalesce(case when ${p.status} = 'failed' then ${p.nextAttemptDate} end, ${subscriptions.nextBillingDate}), ${from}::date)::text`;
  const [chargeGroups, created, upcoming] = await Promise.all([
    db
      .select({
        date: chargeDay,
        frequency: sql<string>`coalesce(${subscriptions.pendingFrequency}, ${subscriptions.frequency})`,
        baseAmountCents: subscriptions.baseAmountCents,
        periodAmountCents: p.amountCents,
        count: sql<number>`count(*)`.mapWith(Number),
      })
      .from(subscriptions)
      .leftJoin(p, and(eq(p.subscriptionId, subscriptions.id), eq(p.periodNumber, subscriptions.nextPeriodNumber)))
      .where(
        and(
          eq(subscriptions.status, "active"),
          sql`(${subscriptions.endsOn} is null or ${subscriptions.endsOn} > ${subscriptions.nextBillingDate})`,
          sql`(${p.status} is null or ${p.status} in ('due', 'failed'))`,
          sql`${chargeDay}::date <= ${to}::date`,
        ),
      )
      .groupBy(sql`1`, sql`2`, subscriptions.baseAmountCents, p.amountCents),
    loadUnitsBetween(db, from, to),
    db
      .select({
        date: subscriptions.nextDeliveryDate,
        productId: subscriptionItems.productId,
        variantId: subscriptionItems.variantId,
        title: products.title,
        variantTitle: productVariants.title,
        units: sql<number>`sum(${subscriptionItems.quantity})`.mapWith(Number),
      })
      .from(subscriptions)
      .innerJoin(subscriptionItems, eq(subscriptionItems.subscriptionId, subscriptions.id))
      .innerJoin(products, eq(products.id, subscriptionItems.productId))
      .leftJoin(productVariants, eq(productVariants.id, subscriptionItems.variantId))
      .where(
        and(
          eq(subscriptions.status, "active"),
          gte(subscriptions.nextDeliveryDate, from),
          lte(subscriptions.nextDeliveryDate, to),
          sql`(${subscriptions.endsOn} is null or ${subscriptions.nextDeliveryDate} < ${subscriptions.endsOn})`,
        ),
      )
      .groupBy(subscriptions.nextDeliveryDate, subscriptionItems.productId, subscriptionItems.variantId, products.title, productVariants.title)
      .orderBy(asc(subscriptions.nextDeliveryDate)),
  ]);

  const days = new Map<string, ForecastDay>();
  for (let date = from; date <= to; date = addDays(date, 1)) days.set(date, { date, charges: 0, chargeCents: 0, units: [] });
  for (const group of chargeGroups) {
    const day = days.get(group.date);
    if (!day) continue;
    const each = group.periodAmountCents ?? orderSummary(group.baseAmountCents, "subscription", group.frequency as "mensual" | "anual").totalCents;
    day.charges += group.count;
    day.chargeCents += each * group.count;
  }
  for (const line of [...created, ...upcoming]) {
    const day = days.get(line.date!);
    if (!day) continue;
    const same = day.units.find((each) => each.productId === line.productId && each.variantId === line.variantId);
    if (same) same.units += line.units;
    else day.units.push({ productId: line.productId, variantId: line.variantId, title: line.title, variantTitle: line.variantTitle, units: line.units });
  }
  for (const day of days.values()) day.units.sort((a, b) => a.productId - b.productId || (a.variantId ?? 0) - (b.variantId ?? 0));
  return { from, to, days: [...days.values()] };
}
