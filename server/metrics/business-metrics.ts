import { sql, type SQL } from "drizzle-orm";
import { datesOfRange, weeksOfRange, type MetricsRange } from "@core/metrics-range";
import type { Database } from "../db/client";
import { readDistricts } from "../content/index.server";
import { bidonMovements, deliveries, orders, payments, refunds, subscriptionPeriods, subscriptions } from "../db/schema";
import { activeSubscriptionWeeks, type MetricsActiveWeek, type MetricsPlan } from "./active-subscriptions";
import { MAX_ATTEMPTS } from "../subscriptions/index.server";
import { garantiasHeld } from "../garantias/index.server";

/**
 * The numbers of /admin/metricas (issue 11), each one GROUP BY in the database: PostgreSQL returns
 * at most one row per day, week, district or plan, never the orders themselves, so the cost stays
 * flat in the server however many orders there are (bench/metrics.ts: 100 000 orders, 10 000
 * subscriptions). Every definition is in docs/decisions/0052-business-metrics.md.
 */

export interface MetricsDay {
  date: string;
  /** Net of refunds: paid that day minus what was refunded that day, by the order's type. */
  oneTimeCents: number;
  subscriptionCents: number;
  refundedCents: number;
  orders: number;
  deliveries: number;
}

export interface MetricsDistrict {
  districtId: number;
  name: string;
  orders: number;
  deliveries: number;
}

export interface MetricsWeek {
  /** The week's Monday (Lima). */
  monday: string;
  started: number;
  cancelled: number;
}

export interface BusinessMetrics {
  range: MetricsRange;
  days: MetricsDay[];
  totals: {
    netCents: number;
    oneTimeCents: number;
    subscriptionCents: number;
    grossCents: number;
    refundedCents: number;
    orders: number;
    deliveries: number;
    /** Gross paid total / paid orders, null without orders. */
    averageOrderCents: number | null;
  };
  districts: MetricsDistrict[];
  /** Active at the end of the range's last day (decision 0067-subscription-state-history). */
  plans: MetricsPlan[];
  mrrCents: number;
  weeks: MetricsWeek[];
  /** The same at the end of each week of the range (the last one at the end of the range). */
  activeWeeks: MetricsActiveWeek[];
  churn: { subscribersAtStart: number; cancelled: number; rate: number | null };
  recovery: { failed: number; recovered: number; rate: number | null };
  bidones: { outstanding: number; customers: number };
  /**
   * Bidón garantías (decision 0075): held at the end of the range (charged and delivered, less
   * returned) and how many customers they belong to, and those charged on paid orders not delivered
   * yet (now). A deposit, never revenue: the figures above leave it out.
   */
  garantias: { cents: number; units: number; customers: number; chargedNotDeliveredCents: number };
  /**
   * Issue 38: money drivers took at the door in the range (pago contra entrega and codes paid to the
   * driver), by when it was collected, per method. Part of the paid figures above, shown apart.
   */
  atDoor: { orders: number; cashCents: number; yapeCents: number };
}

const LIMA = sql.raw(`'America/Lima'`);

/** The first instant of the range's first Lima day and the first instant after its last one. */
function instants(range: MetricsRange): { start: SQL; end: SQL } {
  return {
    start: sql`(${range.from}::date::timestamp at time zone ${LIMA})`,
    end: sql`((${range.to}::date + 1)::timestamp at time zone ${LIMA})`,
  };
}

const limaDay = (column: SQL | typeof orders.paidAt) => sql<string>`((${column} at time zone ${LIMA})::date)::text`;
const limaWeek = (column: SQL | typeof subscriptions.cancelledAt) => sql<string>`(date_trunc('week', ${column} at time zone ${LIMA})::date)::text`;
/** node-postgres returns bigint aggregates as strings, PGlite as numbers (stack notes). */
const bigSum = (expression: SQL) => sql<string>`coalesce(sum(${expression}), 0)::bigint`;
const counted = sql<string>`count(*)::bigint`;

/** The refund reasons that give back an order's own counted payment (the automatic ones return money never counted). */
const ORDER_REFUND_REASONS = sql.raw(`('staff_refund', 'order_cancelled')`);

export async function businessMetrics(db: Database, range: MetricsRange): Promise<BusinessMetrics> {
  const { start, end } = instants(range);
  const paidInRange = sql`${orders.paidAt} >= ${start} and ${orders.paidAt} < ${end}`;
  const deliveredInRange = sql`${deliveries.status} = 'delivered' and ${deliveries.deliveryDate} between ${range.from}::date and ${range.to}::date`;

  // One statement at a time: a PGlite connection runs them one by one anyway, and a pooled
  // PostgreSQL connection per statement would cost more than these few milliseconds each.
  const paid = await db
    // The bidón garantía is a deposit, not revenue (decision 0075).
    .select({ day: limaDay(orders.paidAt), type: orders.orderType, orders: counted, cents: bigSum(sql`${orders.totalCents} - ${orders.garantiaCents}`) })
    .from(orders)
    .where(paidInRange)
    .groupBy(sql`1`, sql`2`);
  const refunded = await db
    // What a refund gives back of the sale itself: never more than the order's total less its garantía (decision 0075).
    .select({
      day: limaDay(sql`${refunds.refundedAt}`),
      type: orders.orderType,
      cents: bigSum(sql`least(${refunds.amountCents}, ${orders.totalCents} - ${orders.garantiaCents})`),
    })
    .from(refunds)
    .innerJoin(orders, sql`${orders.id} = ${refunds.orderId}`)
    .where(
      sql`${refunds.status} = 'succeeded' and ${refunds.reason} in ${ORDER_REFUND_REASONS} and ${refunds.refundedAt} >= ${start} and ${refunds.refundedAt} < ${end}`,
    )
    .groupBy(sql`1`, sql`2`);
  const deliveredByDay = await db
    .select({ day: sql<string>`${deliveries.deliveryDate}::text`, deliveries: counted })
    .from(deliveries)
    .where(deliveredInRange)
    .groupBy(sql`1`);
  const ordersByDistrict = await db.select({ districtId: orders.districtId, orders: counted }).from(orders).where(paidInRange).groupBy(orders.districtId);
  const deliveredByDistrict = await db
    .select({ districtId: deliveries.districtId, deliveries: counted })
    .from(deliveries)
    .where(deliveredInRange)
    .groupBy(deliveries.districtId);
  const activeWeeks = await activeSubscriptionWeeks(db, range, weeksOfRange(range), end);
  const started = await db
    .select({ monday: sql<string>`(date_trunc('week', ${subscriptions.startDate}::timestamp)::date)::text`, count: counted })
    .from(subscriptions)
    .where(sql`${subscriptions.startDate} between ${range.from}::date and ${range.to}::date`)
    .groupBy(sql`1`);
  const cancelled = await db
    .select({ monday: limaWeek(subscriptions.cancelledAt), count: counted })
    .from(subscriptions)
    // A signup abandoned before its first payment is closed as cancelled too, but it never started.
    .where(sql`${subscriptions.startDate} is not null and ${subscriptions.cancelledAt} >= ${start} and ${subscriptions.cancelledAt} < ${end}`)
    .groupBy(sql`1`);
  const startedBefore = sql`${subscriptions.startDate} < ${range.from}::date`;
  const [churn] = await db
    .select({
      atStart: sql<string>`count(*) filter (where ${startedBefore} and (${subscriptions.cancelledAt} is null or ${subscriptions.cancelledAt} >= ${start}))::bigint`,
      cancelled: sql<string>`count(*) filter (where ${startedBefore} and ${subscriptions.cancelledAt} >= ${start} and ${subscriptions.cancelledAt} < ${end})::bigint`,
    })
    .from(subscriptions);
  const [recovery] = await db
    .select({
      failed: sql<string>`count(*) filter (where ${subscriptionPeriods.attempts} >= 2 or ${subscriptionPeriods.status} = 'failed')::bigint`,
      recovered: sql<string>`count(*) filter (where ${subscriptionPeriods.status} = 'paid' and ${subscriptionPeriods.attempts} between 2 and ${MAX_ATTEMPTS})::bigint`,
    })
    .from(subscriptionPeriods)
    .innerJoin(subscriptions, sql`${subscriptions.id} = ${subscriptionPeriods.subscriptionId}`)
    .where(
      sql`${subscriptions.billingMethod} = 'card' and ${subscriptionPeriods.periodNumber} >= 2 and ${subscriptionPeriods.billingDate} between ${range.from}::date and ${range.to}::date`,
    );
  const balances = db
    .select({
      balance: sql<number>`sum(case when ${bidonMovements.kind} = 'lent' then ${bidonMovements.quantity} else -${bidonMovements.quantity} end)`.as("balance"),
    })
    .from(bidonMovements)
    .where(sql`${bidonMovements.createdAt} < ${end}`)
    .groupBy(sql`coalesce(${bidonMovements.userId}, 'guest:' || ${bidonMovements.customerEmail})`)
    .as("balances");
  const [bidones] = await db
    .select({
      outstanding: sql<string>`coalesce(sum(${balances.balance}), 0)::bigint`,
      customers: sql<string>`count(*) filter (where ${balances.balance} > 0)::bigint`,
    })
    .from(balances);
  const garantias = await garantiasHeld(db, end);
  const [atDoor] = await db
    .select({
      orders: counted,
      cash: bigSum(sql`case when ${payments.method} = 'cash' then ${payments.amountCents} else 0 end`),
      yape: bigSum(sql`case when ${payments.method} = 'yape' then ${payments.amountCents} else 0 end`),
    })
    .from(payments)
    .where(
      sql`${payments.collectedAtDoorBy} is not null and ${payments.status} = 'succeeded' and ${payments.settledAt} >= ${start} and ${payments.settledAt} < ${end}`,
    );
  const districtIds = [...new Set([...ordersByDistrict, ...deliveredByDistrict].map((row) => row.districtId))];
  const names = await readDistricts(db, districtIds);

  const assembled = assemble(range, {
    paid,
    refunded,
    deliveredByDay,
    ordersByDistrict,
    deliveredByDistrict,
    names,
    activeWeeks,
    started,
    cancelled,
    churn: churn!,
    recovery: recovery!,
    bidones: bidones!,
  });
  return { ...assembled, garantias, atDoor: { orders: Number(atDoor!.orders), cashCents: Number(atDoor!.cash), yapeCents: Number(atDoor!.yape) } };
}

type Numeric = string | number;

/** The aggregates laid out as the page shows them: every day and week of the range, zero where nothing happened. */
function assemble(
  range: MetricsRange,
  rows: {
    paid: { day: string; type: string; orders: Numeric; cents: Numeric }[];
    refunded: { day: string; type: string; cents: Numeric }[];
    deliveredByDay: { day: string; deliveries: Numeric }[];
    ordersByDistrict: { districtId: number; orders: Numeric }[];
    deliveredByDistrict: { districtId: number; deliveries: Numeric }[];
    names: { id: number; name: string }[];
    activeWeeks: MetricsActiveWeek[];
    started: { monday: string; count: Numeric }[];
    cancelled: { monday: string; count: Numeric }[];
    churn: { atStart: Numeric; cancelled: Numeric };
    recovery: { failed: Numeric; recovered: Numeric };
    bidones: { outstanding: Numeric; customers: Numeric };
  },
): Omit<BusinessMetrics, "garantias" | "atDoor"> {
  const days = new Map<string, MetricsDay>(
    datesOfRange(range).map((date) => [date, { date, oneTimeCents: 0, subscriptionCents: 0, refundedCents: 0, orders: 0, deliveries: 0 }]),
  );
  let grossCents = 0;
  for (const row of rows.paid) {
    const day = days.get(row.day)!;
    const cents = Number(row.cents);
    grossCents += cents;
    day.orders += Number(row.orders);
    if (row.type === "subscription") day.subscriptionCents += cents;
    else day.oneTimeCents += cents;
  }
  for (const row of rows.refunded) {
    const day = days.get(row.day)!;
    const cents = Number(row.cents);
    day.refundedCents += cents;
    if (row.type === "subscription") day.subscriptionCents -= cents;
    else day.oneTimeCents -= cents;
  }
  for (const row of rows.deliveredByDay) days.get(row.day)!.deliveries = Number(row.deliveries);
  const dayList = [...days.values()];
  const sum = (pick: (day: MetricsDay) => number) => dayList.reduce((total, day) => total + pick(day), 0);
  const oneTimeCents = sum((day) => day.oneTimeCents);
  const subscriptionCents = sum((day) => day.subscriptionCents);
  const orderCount = sum((day) => day.orders);

  const nameOf = new Map(rows.names.map((row) => [row.id, row.name]));
  const byDistrict = new Map<number, MetricsDistrict>();
  const district = (id: number) => {
    if (!byDistrict.has(id)) byDistrict.set(id, { districtId: id, name: nameOf.get(id) ?? String(id), orders: 0, deliveries: 0 });
    return byDistrict.get(id)!;
  };
  for (const row of rows.ordersByDistrict) district(row.districtId).orders = Number(row.orders);
  for (const row of rows.deliveredByDistrict) district(row.districtId).deliveries = Number(row.deliveries);

  const atEnd = rows.activeWeeks.at(-1)!;
  const countOf = (list: { monday: string; count: Numeric }[], monday: string) => Number(list.find((row) => row.monday === monday)?.count ?? 0);
  const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);
  const subscribersAtStart = Number(rows.churn.atStart);
  const churned = Number(rows.churn.cancelled);
  const failed = Number(rows.recovery.failed);
  const recovered = Number(rows.recovery.recovered);

  return {
    range,
    days: dayList,
    totals: {
      netCents: oneTimeCents + subscriptionCents,
      oneTimeCents,
      subscriptionCents,
      grossCents,
      refundedCents: sum((day) => day.refundedCents),
      orders: orderCount,
      deliveries: sum((day) => day.deliveries),
      averageOrderCents: orderCount > 0 ? Math.round(grossCents / orderCount) : null,
    },
    districts: [...byDistrict.values()].sort((a, b) => b.orders - a.orders || b.deliveries - a.deliveries || a.name.localeCompare(b.name, "es")),
    plans: atEnd.plans,
    mrrCents: atEnd.mrrCents,
    weeks: weeksOfRange(range).map((monday) => ({ monday, started: countOf(rows.started, monday), cancelled: countOf(rows.cancelled, monday) })),
    activeWeeks: rows.activeWeeks,
    churn: { subscribersAtStart, cancelled: churned, rate: ratio(churned, subscribersAtStart) },
    recovery: { failed, recovered, rate: ratio(recovered, failed) },
    bidones: { outstanding: Number(rows.bidones.outstanding), customers: Number(rows.bidones.customers) },
  };
}
