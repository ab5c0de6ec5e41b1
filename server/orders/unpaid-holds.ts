import { sql } from "drizzle-orm";
import { MAX_OPEN_UNPAID_ORDERS } from "@core/door-payment";
import type { DatabaseOrTransaction } from "../db/transaction";

/**
 * Orders that hold a delivery place without their money (issue 38): unpaid, with an open payment
 * to collect — pago contra entrega, or a cash/Yape code not yet expired. Card attempts are not
 * counted: they stop holding their place after CARD_PAYMENT_WINDOW_MINUTES.
 */
export interface UnpaidHoldKey {
  /** The order's phone, as checkout normalises it (9 digits). */
  phone: string;
  districtId: number;
  address: string;
}

/** An address as typed, reduced to letters and digits: "Av. Larco 123" and "av larco  123" are one door. */
export function addressKey(districtId: number, address: string): string {
  return `${districtId}:${address
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]/g, "")}`;
}

function phoneKey(phone: string): string {
  return phone.replace(/\D/g, "").slice(-9);
}

/**
 * Takes this phone's and this address's hold locks (decision 0025: advisory locks right after the
 * reference rows, in key order) and says how many unpaid orders hold places under either, leaving
 * out `excludeOrderId`. Two checkouts of one phone at once count one after the other, so the limit
 * is exact under a burst, on several server processes too.
 */
export async function lockAndCountUnpaidHolds(
  tx: DatabaseOrTransaction,
  key: UnpaidHoldKey,
  options: { now: Date; excludeOrderId?: string | null },
): Promise<number> {
  const phone = phoneKey(key.phone);
  const address = addressKey(key.districtId, key.address);
  const [first, second] = [`unpaid-hold:phone:${phone}`, `unpaid-hold:address:${address}`].sort();
  // Two statements: a statement's snapshot is taken when it starts, so a count in the statement that
  // waited for the lock would not see the order the lock's previous holder committed.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${first}, 0)), pg_advisory_xact_lock(hashtextextended(${second}, 0))`);
  const result = await tx.execute<{ holds: number | string }>(sql`
    select count(*) as holds from orders o
     where o.status in ('pending', 'payment_created')
       and o.id is distinct from ${options.excludeOrderId ?? null}::uuid
       and (right(regexp_replace(o.customer_phone, '[^0-9]', '', 'g'), 9) = ${phone}
            or (o.district_id = ${key.districtId}
                and regexp_replace(translate(lower(o.address), 'áéíóúüñ', 'aeiouun'), '[^a-z0-9]', '', 'g') = ${address.slice(address.indexOf(":") + 1)}))
       and exists (select 1 from payments p
                    where p.order_id = o.id and p.status = 'pending' and p.method in ('cash', 'yape')
                      and (p.expires_at is null or p.expires_at > ${options.now.toISOString()}::timestamptz))`);
  return Number((result as unknown as { rows: { holds: number | string }[] }).rows[0]?.holds ?? 0);
}

/** Whether one more unpaid order may hold a place for this phone and address. */
export function unpaidHoldsFull(holds: number): boolean {
  return holds >= MAX_OPEN_UNPAID_ORDERS;
}
