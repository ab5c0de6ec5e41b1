import { sql, type SQL } from "drizzle-orm";
import { addDays } from "@core/lima-dates";
import type { MetricsRange } from "@core/metrics-range";
import type { Database } from "../db/client";
import { subscriptionStateChanges } from "../db/schema";

/**
 * Active subscriptions by plan and MRR as they stood at past instants (decision
 * 0067-subscription-state-history), from `subscription_state_changes`: each row is a move of +1
 * subscription (and its price) into the plan it became active on and −1 out of the one it was
 * active on before (the row carries both). PostgreSQL sums the moves per Lima week in one scan
 * (everything before the first week in one row), so it returns one row per week whatever the number
 * of subscriptions; Node adds them up week by week.
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

export async function activeSubscriptionWeeks(db: Database, range: MetricsRange, weeks: string[], end: SQL): Promise<MetricsActiveWeek[]> {
  const firstMonday = sql`(${weeks[0]!}::date::timestamp at time zone 'America/Lima')`;
  const h = subscriptionStateChanges;
  // A row moves one subscription into the plan it is now active on and out of the one it was active on.
  const into = (plan: string) => sql`${h.status} = 'active' and ${h.frequency} = ${plan}`;
  const outOf = (plan: string) => sql`${h.previousStatus} = 'active' and ${h.previousFrequency} = ${plan}`;
  const moves = (plan: string) => ({
    active: sql<string>`sum((case when ${into(plan)} then 1 else 0 end) - (case when ${outOf(plan)} then 1 else 0 end))::bigint`,
    cents: sql<string>`sum((case when ${into(plan)} then ${h.amountCents} else 0 end) - (case when ${outOf(plan)} then ${h.previousAmountCents} else 0 end))::bigint`,
  });
  const rows = await db
    .select({
      monday: sql<
        string | null
      >`case when ${h.changedAt} < ${firstMonday} then null else (date_trunc('week', ${h.changedAt} at time zone 'America/Lima')::date)::text end`,
      mensual: moves("mensual").active,
      mensualCents: moves("mensual").cents,
      anual: moves("anual").active,
      anualCents: moves("anual").cents,
    })
    .from(h)
    .where(sql`${h.changedAt} < ${end} and (${h.status} = 'active' or ${h.previousStatus} = 'active')`)
    .groupBy(sql`1`);

  const running = { mensual: { active: 0, cents: 0 }, anual: { active: 0, cents: 0 } };
  const add = (monday: string | null) => {
    const row = rows.find((candidate) => candidate.monday === monday);
    if (!row) return;
    running.mensual.active += Number(row.mensual);
    running.mensual.cents += Number(row.mensualCents);
    running.anual.active += Number(row.anual);
    running.anual.cents += Number(row.anualCents);
  };
  add(null);
  return weeks.map((monday) => {
    add(monday);
    const plans = PLANS.map((plan) => {
      const { active, cents } = running[plan];
      return { plan, active, periodCents: cents, mrrCents: plan === "anual" ? Math.round(cents / 12) : cents };
    });
    const sunday = addDays(monday, 6);
    return { monday, asOf: sunday < range.to ? sunday : range.to, plans, mrrCents: plans.reduce((total, plan) => total + plan.mrrCents, 0) };
  });
}
