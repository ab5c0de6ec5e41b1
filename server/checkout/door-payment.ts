import { sql } from "drizzle-orm";
import type { DoorPaymentCustomers, DoorPaymentSettings } from "@core/door-payment";
import type { DatabaseOrTransaction } from "../db/transaction";

export interface DoorPaymentOffer {
  settings: DoorPaymentSettings;
  /** Served districts where staff offer it (/admin/distritos). */
  districtIds: number[];
  /** The signed-in account (or the customer staff picked) has had an order delivered. */
  hasDeliveredOrder: boolean;
}

/**
 * Where and to whom pago contra entrega is offered (issue 38), in one statement: the shop's
 * switch, its maximum and its customer rule, the districts that offer it, and whether this account
 * already received an order (a guest counts as new: an e-mail typed at checkout proves nothing).
 */
export async function doorPaymentOffer(db: DatabaseOrTransaction, userId: string | null): Promise<DoorPaymentOffer> {
  const result = await db.execute(sql`
    select s.door_payment_enabled as enabled, s.door_payment_max_cents as max_cents, s.door_payment_customers as customers,
      coalesce((select array_agg(d.id order by d.id) from districts d where d.served and d.door_payment), '{}') as district_ids,
      exists (select 1 from orders o where o.user_id = ${userId}::text and o.status = 'delivered') as has_delivered
    from site_settings s where s.id = 1`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  if (!row) return { settings: { enabled: false, maxCents: 0, customers: "all" }, districtIds: [], hasDeliveredOrder: false };
  return {
    settings: {
      enabled: row.enabled === true,
      maxCents: Number(row.max_cents),
      customers: row.customers === "delivered" ? "delivered" : ("all" satisfies DoorPaymentCustomers),
    },
    districtIds: (row.district_ids as (number | string)[]).map(Number),
    hasDeliveredOrder: row.has_delivered === true,
  };
}
