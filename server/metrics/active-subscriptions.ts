import { sql, type SQL } from "drizzle-orm";
import { addDays } from "@core/lima-dates";
import type { MetricsRange } from "@core/metrics-range";
import type { Database } from "../db/client";
import { subscriptionStateChanges } from "../db/schema";

/**
 * Active subscriptions by plan and MRR as they stood at past instants (decision
 * 0064-subscription-state-history), from `subscription_state_changes`: each change is a move of +1
 * subscription (and its price) into the plan it is active on and −1 out of the one it was active on
 * before. PostgreSQL sums the moves per Lima week (before the first week, one row per plan), so it
 * returns at most two rows per week whatever the number of subscriptions; Node adds them up week
 * by week.
 */

export interface MetricsPlan {
  plan: "mensual" | "anual";
  active: number;
  /** What all of them charge per billing period (a month or a year). */
  periodCents: number;
  /** Monthly equivalent: mensual as is, anual divided by 12 (rounded to the céntimo per plan). */
  mrrCents: number;
}

export interface MetricsActiveWeek {
  /** The week's Monday (Lima). */
  monday: string;
  /** The Lima date at whose end (midnight) the figures are taken: the week's Sunday, or the range's last day. */
  asOf: string;
  plans: MetricsPlan[];
  mrrCents: number;
}

const PLANS = ["mensual", "anual"] as const;
type Numeric = string | number;

export async function activeSubscriptionWeeks(db: Database, range: MetricsRange, weeks: string[], end: SQL): Promise<MetricsActiveWeek[]> {
  const firstMonday = sql`(${weeks[0]!}::date::timestamp at time zone 'America/Lima')`;
  // Ordered by (changed_at, id): two changes of one subscription in the same instant keep the order they were written in.
  const result = await db.execute(sql`
    with history as (
      select changed_at, status, frequency, amount_cents,
        lag(status) over w as previous_status, lag(frequency) over w as previous_frequency, lag(amount_cents) over w as previous_amount
      from ${subscriptionStateChanges}
      where changed_at < ${end}
      window w as (partition by subscription_id order by changed_at, id)
    ), moves as (
      select changed_at, frequency as plan, 1 as active, amount_cents as cents from history where status = 'active'
      union all
      select changed_at, previous_frequency, -1, -previous_amount from history where previous_status = 'active'
    )
    select
      case when changed_at < ${firstMonday} then null else (date_trunc('week', changed_at at time zone 'America/Lima')::date)::text end as monday,
      plan, sum(active)::bigint as active, sum(cents)::bigint as cents
    from moves
    group by 1, 2`);
  const rows = (result as unknown as { rows: { monday: string | null; plan: string; active: Numeric; cents: Numeric }[] }).rows;

  const running = new Map<string, { active: number; cents: number }>(PLANS.map((plan) => [plan, { active: 0, cents: 0 }]));
  const add = (monday: string | null) => {
    for (const row of rows) {
      if (row.monday !== monday) continue;
      const total = running.get(row.plan);
      if (!total) continue;
      total.active += Number(row.active);
      total.cents += Number(row.cents);
    }
  };
  add(null);
  return weeks.map((monday) => {
    add(monday);
    const plans = PLANS.map((plan) => {
      const { active, cents } = running.get(plan)!;
      return { plan, active, periodCents: cents, mrrCents: plan === "anual" ? Math.round(cents / 12) : cents };
    });
    const sunday = addDays(monday, 6);
    return { monday, asOf: sunday < range.to ? sunday : range.to, plans, mrrCents: plans.reduce((total, plan) => total + plan.mrrCents, 0) };
  });
}
