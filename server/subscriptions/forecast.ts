import { sql } from "drizzle-orm";
import { addDays, limaToday } from "@core/lima-dates";
import { orderSummary } from "@core/pricing";
import type { Database } from "../db/client";
import { subscriptionItems, subscriptionPeriods, subscriptions } from "../db/schema";
import { loadUnitsBetween, type DayLoadLine } from "../deliveries/index.server";
import { uncreatedDeliveryUnits } from "./forecast-deliveries";

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
 * Issue 11: what the next `days` days hold, from today in Lima. Charges: every charge the renewals
 * would make in the window (decision 0062): each active subscription's next one (a declined one
 * on its retry date; one already late counts today), then each period after it whose billing date
 * falls in the window, a month (or a year) after the one before by the renewals' own rule
 * (`advancedPointer`: the period's billing date plus one month, clamped to the month's last day:
 * a subscription billed on the 1st seen from 1 February counts 1 February and 1 March, one billed
 * on the 31st counts 31 January and 28 February). Each at the price its period has (a pending plan
 * change and catalogue prices parked for that period included), none on or after the end of a
 * cancellation. Units: the deliveries already created (Despacho's load) plus every delivery not
 * created yet (they are created a week ahead) that each active subscription's schedule gives in
 * the window from its next one on, at its current products: a weekly plan's four, a biweekly's
 * two, by the delivery job's own step (decision 0097), none on or after the end of a
 * cancellation. One not paid for yet counts too, as its period's charge does.
 */
export async function subscriptionForecast(db: Database, input: { now: Date; days: number }): Promise<SubscriptionForecast> {
  const from = limaToday(input.now);
  const to = addDays(from, input.days - 1);
  const [chargeGroups, created, upcoming] = await Promise.all([
    chargesBetween(db, from, to),
    loadUnitsBetween(db, from, to),
    uncreatedDeliveryUnits(db, from, to),
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

interface ChargeGroup {
  date: string;
  frequency: string;
  baseAmountCents: number;
  /** The amount fixed on the period's ledger row, when it has one (only the next period can). */
  periodAmountCents: number | null;
  count: number;
}

/**
 * The charges of [from, to] grouped by day and price, in one statement: a recursive walk from each
 * subscription's next billing date along its later ones (at most a few rows per subscription, and
 * only for those billed in the window), aggregated in the database. PostgreSQL's `date + interval
 * '1 month'` clamps to the month's last day exactly as `addMonthsClamped` does, and chaining it
 * from each period's billing date is what the renewals do. Each step into a period adds what the
 * catalogue prices parked for it change (`applyPendingItemPrices` recomputes the items' subtotal,
 * which the base amount always is), joined from the few parked items rather than looked up per
 * row, so the statement stays cheap enough that PostgreSQL does not JIT-compile it.
 */
async function chargesBetween(db: Database, from: string, to: string): Promise<ChargeGroup[]> {
  const step = sql`case when charge.frequency = 'anual' then interval '12 months' else interval '1 month' end`;
  const later = sql`(charge.billing + ${step})::date`;
  const day = sql`greatest(coalesce(charge.first_day, charge.billing), ${from}::date)`;
  const result = await db.execute(sql`with recursive
    -- Parked prices by the period they start with; one left over from before the next period starts with the one after it.
    parked(subscription_id, period_number, delta) as (
      select ${subscriptionItems.subscriptionId}, greatest(${subscriptionItems.pendingFromPeriod}, ${subscriptions.nextPeriodNumber} + 1),
        sum((${subscriptionItems.pendingUnitPriceCents} - ${subscriptionItems.unitPriceCents}) * ${subscriptionItems.quantity})
      from ${subscriptionItems} inner join ${subscriptions} on ${subscriptions.id} = ${subscriptionItems.subscriptionId}
      where ${subscriptionItems.pendingFromPeriod} is not null
      group by 1, 2
    ),
    charge(subscription_id, period_number, billing, first_day, counted, frequency, base_amount, period_amount, ends_on) as (
      select ${subscriptions.id}, ${subscriptions.nextPeriodNumber}, ${subscriptions.nextBillingDate},
        case when p.status = 'failed' then p.next_attempt_date end,
        p.status is null or p.status in ('due', 'failed'),
        coalesce(${subscriptions.pendingFrequency}, ${subscriptions.frequency}), ${subscriptions.baseAmountCents}::bigint, p.amount_cents, ${subscriptions.endsOn}
      from ${subscriptions}
      left join ${subscriptionPeriods} p on p.subscription_id = ${subscriptions.id} and p.period_number = ${subscriptions.nextPeriodNumber}
      where ${subscriptions.status} = 'active' and ${subscriptions.nextBillingDate} <= ${to}::date
        and (${subscriptions.endsOn} is null or ${subscriptions.endsOn} > ${subscriptions.nextBillingDate})
      union all
      select charge.subscription_id, charge.period_number + 1, ${later}, null::date, true, charge.frequency,
        charge.base_amount + coalesce(parked.delta, 0), null::integer, charge.ends_on
      from charge
      left join parked on parked.subscription_id = charge.subscription_id and parked.period_number = charge.period_number + 1
      where ${later} <= ${to}::date and (charge.ends_on is null or charge.ends_on > ${later})
    )
    select ${day}::text as date, charge.frequency, charge.base_amount, charge.period_amount, count(*) as count
    from charge
    where charge.counted and ${day} <= ${to}::date
    group by 1, 2, 3, 4`);
  const rows = (result as unknown as { rows: { date: string; frequency: string; base_amount: unknown; period_amount: unknown; count: unknown }[] }).rows;
  return rows.map((row) => ({
    date: row.date,
    frequency: row.frequency,
    baseAmountCents: Number(row.base_amount),
    periodAmountCents: row.period_amount === null ? null : Number(row.period_amount),
    count: Number(row.count),
  }));
}
