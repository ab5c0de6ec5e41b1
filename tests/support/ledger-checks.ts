/**
 * "Nothing lost, nothing doubled", asked of the database after a concurrent or faulty run: every
 * paid order has its items, its invoice and exactly one settled payment (one-time orders their
 * delivery too); no provider charge recorded twice; invoice numbers without repeats or gaps in each
 * series; no job left a row behind in job_row_failures. Returns the broken rules, so a test can
 * assert an empty list and show every problem at once.
 */
import { sql } from "drizzle-orm";
import type { Database } from "@server/db/client";
import { rowsOf } from "./test-database";

export async function ledgerProblems(db: Database, options: { createdFrom: Date }): Promise<string[]> {
  // Demo data is written directly, not through checkout and payment: only what the run made is asked.
  const from = options.createdFrom.toISOString();
  const problems: string[] = [];
  const rows = async (query: ReturnType<typeof sql>) => rowsOf(await db.execute(query));

  const paidWithout = await rows(sql`
    select o.order_number,
      (select count(*) from order_items i where i.order_id = o.id) as items,
      (select count(*) from invoices v where v.order_id = o.id) as invoices,
      (select count(*) from payments p where p.order_id = o.id and p.status = 'succeeded') as settled,
      (select count(*) from deliveries d where d.order_id = o.id) as deliveries,
      o.order_type
    from orders o
    where o.status in ('paid', 'processing', 'shipped', 'delivered') and o.created_at >= ${from}`);
  for (const order of paidWithout) {
    const [items, invoices, settled, deliveries] = [order.items, order.invoices, order.settled, order.deliveries].map(Number);
    if (items === 0) problems.push(`${order.order_number} is paid without items`);
    if (invoices !== 1) problems.push(`${order.order_number} is paid with ${invoices} invoices`);
    if (settled !== 1) problems.push(`${order.order_number} is paid with ${settled} settled payments`);
    if (order.order_type === "one-time" && deliveries === 0) problems.push(`${order.order_number} is paid without a delivery`);
  }

  const settledUnpaid = await rows(sql`
    select o.order_number, o.status from orders o
    where exists (select 1 from payments p where p.order_id = o.id and p.status = 'succeeded')
      and o.status not in ('paid', 'processing', 'shipped', 'delivered', 'refunded') and o.created_at >= ${from}`);
  for (const order of settledUnpaid) problems.push(`${order.order_number} has a settled payment but is ${order.status}`);

  const chargedTwice = await rows(sql`
    select split_part(charge_key, ':', 1) || ':' || split_part(charge_key, ':', 2) as period, count(*) as charges
    from sandbox_charges where paid group by 1 having count(*) > 1`);
  for (const row of chargedTwice) problems.push(`period ${row.period} was charged ${row.charges} times`);

  // A renewal's order belongs to its period; a paid one that no period (nor the sign-up) owns was a second charge.
  const orphanRenewals = await rows(sql`
    select o.order_number from orders o
    where o.subscription_id is not null and o.status in ('paid', 'processing', 'shipped', 'delivered')
      and not exists (select 1 from subscription_periods p where p.order_id = o.id)
      and not exists (select 1 from subscriptions s where s.order_id = o.id) and o.created_at >= ${from}`);
  for (const row of orphanRenewals) problems.push(`${row.order_number} is a paid renewal no period owns`);

  const numbering = await rows(sql`
    select series, count(*) as issued, count(distinct number) as distinct_numbers, min(number) as first, max(number) as last
    from invoices where issued_at >= ${from} group by series`);
  for (const series of numbering) {
    const [issued = 0, distinctNumbers = 0, first = 0, last = 0] = [series.issued, series.distinct_numbers, series.first, series.last].map(Number);
    if (issued !== distinctNumbers) problems.push(`series ${series.series} repeats a number (${issued} invoices, ${distinctNumbers} numbers)`);
    if (last - first + 1 !== distinctNumbers) problems.push(`series ${series.series} skips numbers (${first}…${last}, ${distinctNumbers} issued)`);
  }

  const failures = await rows(sql`select job, row_id, message from job_row_failures`);
  for (const failure of failures) problems.push(`job ${failure.job} failed on ${failure.row_id}: ${failure.message}`);
  return problems;
}
