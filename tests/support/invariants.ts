/**
 * What must hold in the shop's books after any fault, crash or race: nothing lost, nothing doubled.
 * Read straight from the database with plain SQL (no domain code), so a bug in the domains cannot
 * hide itself from the check. Shared by the reliability suite and the concurrency stress tests.
 */
import { sql, type SQL } from "drizzle-orm";
import { expect } from "vitest";
import type { Database } from "@server/db/client";
import { OPEN_DELIVERY_STATUSES } from "@server/deliveries/index.server";

/** A charge the payment provider says it took (from its own books, e.g. the local Culqi). */
export interface ProviderCharge {
  id: string;
  /** Our payment id, as sent in the charge's metadata. */
  paymentId: string;
  /** Given back to the customer since (an auto-refund of a charge that came too late). */
  refunded?: boolean;
}

export interface InvariantOptions {
  /** The provider's successful charges: each must be the one settled payment of a paid order, or refunded. */
  providerCharges?: ProviderCharge[];
  /**
   * Only orders created from this moment are asked about their items, delivery, invoice and payment:
   * rows a fixture wrote directly (the due renewals of the stress suite start from a first order
   * inserted as activation would leave it) are not the run's doing.
   */
  ordersCreatedFrom?: Date;
}

/** Orders in these statuses have been paid and not given back. */
const PAID_STATUSES = ["paid", "processing", "shipped", "delivered"];
/** Orders in these statuses were never paid: holding money for them is money kept by mistake. */
const UNPAID_STATUSES = ["pending", "payment_created", "failed"];

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  // node-postgres and PGlite both answer raw SQL with `{ rows }`; bigint counts are cast to int.
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const list = (values: string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** Every broken rule, one line each; an empty list means the books are whole. */
export async function findInvariantViolations(db: Database, options: InvariantOptions = {}): Promise<string[]> {
  const violations: string[] = [];

  // Every paid order has its items, a delivery, one invoice for its total and exactly one settled
  // payment for its total. A subscription's renewal orders pay a period: the period's deliveries
  // are scheduled by the subscription as their dates come, not with the order.
  const paid = await rows<{
    order_number: string;
    renewal: boolean;
    items: number;
    deliveries: number;
    invoices: number;
    invoice_total: number | null;
    settled: number;
    settled_total: number | null;
    total_cents: number;
  }>(
    db,
    sql`select o.order_number, o.total_cents,
          exists (select 1 from subscription_periods sp where sp.order_id = o.id and sp.period_number > 1) as renewal,
          (select count(*)::int from order_items i where i.order_id = o.id) as items,
          (select count(*)::int from deliveries d where d.order_id = o.id) as deliveries,
          (select count(*)::int from invoices v where v.order_id = o.id) as invoices,
          (select max(v.total_cents) from invoices v where v.order_id = o.id) as invoice_total,
          (select count(*)::int from payments p where p.order_id = o.id and p.status = 'succeeded') as settled,
          (select sum(p.amount_cents)::int from payments p where p.order_id = o.id and p.status = 'succeeded') as settled_total
        from orders o where o.status in (${list(PAID_STATUSES)})
          and (${options.ordersCreatedFrom?.toISOString() ?? null}::timestamptz is null or o.created_at >= ${options.ordersCreatedFrom?.toISOString() ?? null}::timestamptz)`,
  );
  for (const order of paid) {
    if (order.items < 1) violations.push(`${order.order_number} is paid but has no items`);
    if (order.deliveries < 1 && !order.renewal) violations.push(`${order.order_number} is paid but has no delivery`);
    if (order.invoices !== 1) violations.push(`${order.order_number} is paid but has ${order.invoices} invoices`);
    else if (order.invoice_total !== order.total_cents)
      violations.push(`${order.order_number}: invoice of ${order.invoice_total} for a total of ${order.total_cents}`);
    if (order.settled !== 1) violations.push(`${order.order_number} is paid but has ${order.settled} settled payments`);
    else if (order.settled_total !== order.total_cents)
      violations.push(`${order.order_number}: settled ${order.settled_total} for a total of ${order.total_cents}`);
  }

  // Money never sits on an order that was not paid, and no order is settled twice.
  const misplaced = await rows<{ order_number: string; status: string; settled: number }>(
    db,
    sql`select o.order_number, o.status, count(*)::int as settled from payments p join orders o on o.id = p.order_id
        where p.status = 'succeeded' group by o.id, o.order_number, o.status
        having count(*) > 1 or o.status in (${list(UNPAID_STATUSES)})`,
  );
  for (const order of misplaced) violations.push(`${order.order_number} (${order.status}) holds ${order.settled} settled payments`);

  // A provider's charge is recorded on one payment only.
  const sharedReferences = await rows<{ provider: string; provider_reference: string; uses: number }>(
    db,
    sql`select provider, provider_reference, count(*)::int as uses from payments where provider_reference is not null
        group by provider, provider_reference having count(*) > 1`,
  );
  for (const reference of sharedReferences)
    violations.push(`${reference.provider} charge ${reference.provider_reference} is recorded on ${reference.uses} payments`);

  // Invoice numbers run 1…N in each series, each used once, and the series counter stands at N.
  const series = await rows<{ series: string; invoices: number; distinct_numbers: number; lowest: number; highest: number; last_number: number | null }>(
    db,
    sql`select v.series, count(*)::int as invoices, count(distinct v.number)::int as distinct_numbers, min(v.number) as lowest, max(v.number) as highest,
          (select s.last_number from invoice_series s where s.series = v.series) as last_number
        from invoices v group by v.series`,
  );
  for (const entry of series) {
    if (entry.distinct_numbers !== entry.invoices)
      violations.push(`series ${entry.series}: ${entry.invoices - entry.distinct_numbers} invoice numbers used twice`);
    if (entry.lowest !== 1 || entry.highest !== entry.distinct_numbers) {
      violations.push(`series ${entry.series}: numbers ${entry.lowest}…${entry.highest} for ${entry.distinct_numbers} invoices (numbers skipped)`);
    }
    if (entry.last_number !== entry.highest) violations.push(`series ${entry.series}: counter at ${entry.last_number}, last invoice ${entry.highest}`);
  }

  // One outbox message per dedupe key (one confirmation per order, one reminder per cart…).
  const doubledEmails = await rows<{ dedupe_key: string; copies: number }>(
    db,
    sql`select dedupe_key, count(*)::int as copies from outbox_emails group by dedupe_key having count(*) > 1`,
  );
  for (const email of doubledEmails) violations.push(`outbox message ${email.dedupe_key} queued ${email.copies} times`);
  // The same for WhatsApp messages (decision 0074), and one row per message Meta accepted.
  const doubledWhatsapp = await rows<{ key: string; copies: number }>(
    db,
    sql`select dedupe_key as key, count(*)::int as copies from whatsapp_messages group by dedupe_key having count(*) > 1
        union all select wamid, count(*)::int from whatsapp_messages where wamid is not null group by wamid having count(*) > 1`,
  );
  for (const message of doubledWhatsapp) violations.push(`WhatsApp message ${message.key} held ${message.copies} times`);

  // A subscription's billing period is renewed once: one period row and at most one order each.
  const doubledPeriods = await rows<{ subscription_id: string; period_number: number; copies: number }>(
    db,
    sql`select subscription_id, period_number, count(*)::int as copies from subscription_periods
        group by subscription_id, period_number having count(*) > 1`,
  );
  for (const period of doubledPeriods) violations.push(`subscription ${period.subscription_id} period ${period.period_number} exists ${period.copies} times`);
  const periodOrders = await rows<{ order_id: string; periods: number }>(
    db,
    sql`select order_id, count(*)::int as periods from subscription_periods where order_id is not null group by order_id having count(*) > 1`,
  );
  for (const entry of periodOrders) violations.push(`order ${entry.order_id} pays ${entry.periods} subscription periods`);

  // A renewal's order belongs to its period; a paid one that no period (nor the sign-up) owns was a second charge.
  const orphanRenewals = await rows<{ order_number: string }>(
    db,
    sql`select o.order_number from orders o
        where o.subscription_id is not null and o.status in (${list(PAID_STATUSES)})
          and not exists (select 1 from subscription_periods p where p.order_id = o.id)
          and not exists (select 1 from subscriptions s where s.order_id = o.id)`,
  );
  for (const order of orphanRenewals) violations.push(`${order.order_number} is a paid renewal no period owns`);

  // The sandbox's own books: a charge key is subscription:period:attempt, so two paid keys with one
  // subscription:period are one period charged twice.
  const chargedTwice = await rows<{ period: string; charges: number }>(
    db,
    sql`select split_part(charge_key, ':', 1) || ':' || split_part(charge_key, ':', 2) as period, count(*)::int as charges
        from sandbox_charges where paid group by 1 having count(*) > 1`,
  );
  for (const entry of chargedTwice) violations.push(`period ${entry.period} was charged ${entry.charges} times`);

  // A job that could not handle a row leaves a line (decision 0025): nothing should be left behind.
  const leftBehind = await rows<{ job: string; row_id: string; message: string }>(db, sql`select job, row_id, message from job_row_failures`);
  for (const failure of leftBehind) violations.push(`job ${failure.job} failed on ${failure.row_id}: ${failure.message}`);

  if (options.providerCharges) violations.push(...(await providerChargeViolations(db, options.providerCharges)));
  violations.push(...(await slotCounterViolations(db)));
  return violations;
}

/**
 * The provider's side of the books: every charge it kept is the settled payment of a paid order,
 * and no order was charged twice without the extra charge being given back.
 */
async function providerChargeViolations(db: Database, charges: ProviderCharge[]): Promise<string[]> {
  const violations: string[] = [];
  // A charge the shop has recorded a refund for is being given back (the jobs retry the call).
  const [table] = await rows<{ present: boolean }>(db, sql`select to_regclass('public.refunds') is not null as present`);
  const refunded = new Set(
    table?.present ? (await rows<{ charge_reference: string }>(db, sql`select charge_reference from refunds`)).map((row) => row.charge_reference) : [],
  );
  const kept = charges.filter((charge) => !charge.refunded && !refunded.has(charge.id));
  const payments = await rows<{ id: string; order_id: string; status: string; provider_reference: string | null; order_status: string; order_number: string }>(
    db,
    sql`select p.id, p.order_id, p.status, p.provider_reference, o.status as order_status, o.order_number
        from payments p join orders o on o.id = p.order_id`,
  );
  const byId = new Map(payments.map((payment) => [payment.id, payment]));
  const chargesPerOrder = new Map<string, number>();
  for (const charge of kept) {
    const payment = byId.get(charge.paymentId);
    if (!payment) {
      violations.push(`provider charge ${charge.id} names payment ${charge.paymentId}, which does not exist`);
      continue;
    }
    chargesPerOrder.set(payment.order_id, (chargesPerOrder.get(payment.order_id) ?? 0) + 1);
    if (payment.status !== "succeeded" || payment.provider_reference !== charge.id || !PAID_STATUSES.includes(payment.order_status)) {
      violations.push(
        `provider charge ${charge.id} was kept but ${payment.order_number} is ${payment.order_status} with its payment ${payment.status} (${payment.provider_reference ?? "no reference"})`,
      );
    }
  }
  for (const [orderId, count] of chargesPerOrder) {
    if (count > 1) violations.push(`order ${orderId} was charged ${count} times by the provider`);
  }
  return violations;
}

/**
 * Decision 0102: every slot's `open_count` (kept by migration 0049's triggers) equals a fresh count
 * of its open deliveries, the pool worked out here from the districts' own figures rather than by
 * the database function the triggers use. One line per slot that differs; none before migration 0049.
 */
export async function slotCounterViolations(db: Database): Promise<string[]> {
  const [column] = await rows<{ present: boolean }>(
    db,
    sql`select exists (select 1 from information_schema.columns where table_name = 'delivery_slots' and column_name = 'open_count') as present`,
  );
  if (!column?.present) return [];
  const counted = await rows<{ slot: string; counter: number | null; fresh: number | null }>(
    db,
    sql`with fresh as (
          select d.delivery_date, d.delivery_window, case when o.district_id is null then 'shop' else 'district:' || d.district_id end as scope, count(*)::int as n
          from deliveries d
          left join delivery_capacity_overrides o
            on o.district_id = d.district_id and o.day_number = extract(isodow from d.delivery_date)::int and o.delivery_window = d.delivery_window
          where d.status in (${list([...OPEN_DELIVERY_STATUSES])})
          group by 1, 2, 3
        )
        select coalesce(f.delivery_date, s.delivery_date)::text || ' ' || coalesce(f.delivery_window, s.delivery_window) || ' ' || coalesce(f.scope, s.scope) as slot,
          s.open_count as counter, f.n as fresh
        from fresh f full join delivery_slots s on s.delivery_date = f.delivery_date and s.delivery_window = f.delivery_window and s.scope = f.scope
        where coalesce(s.open_count, 0) <> coalesce(f.n, 0) or (s.open_count is null and f.n is not null)
        order by 1`,
  );
  return counted.map((row) => `slot ${row.slot} counts ${row.counter ?? "no row"} open deliveries, but ${row.fresh ?? 0} are open`);
}

/** Fails the test with every broken rule listed. */
export async function expectShopInvariants(db: Database, options: InvariantOptions = {}): Promise<void> {
  expect(await findInvariantViolations(db, options), "the shop's books after the scenario").toEqual([]);
}
