import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { deliveries, orders, subscriptions } from "../db/schema";

/** Where an order's goods are going now: a delivery's date and window, or the order's own when it has no delivery yet. */
export interface CurrentDelivery {
  /** Lima date, YYYY-MM-DD; null while the delivery waits for its paused subscription (then `pausedUntil` is set). */
  date: string | null;
  deliveryWindow: string;
  /** What the customer asked for (checkout, or their subscription's date change); differs once a delivery was moved. */
  requestedDate: string;
  requestedWindow: string;
  /** The paused subscription's last day of pause, when the delivery waits for it (decision 0066); null otherwise. */
  pausedUntil: string | null;
}

/** What `currentDeliveryOf` reads: a date, or none and the day the subscription holding it back resumes. */
export type CurrentDeliveryRow = { date: string | null; window: string; pausedUntil?: string | null };

/**
 * Decision 0062: the order's delivery date is the date the customer asked for ("fecha pedida");
 * a delivery can be moved afterwards (Despacho, "Reprogramar el día", the subscription scheduler
 * finding a day closed or full), and an annual plan's order has twelve deliveries. Every reader
 * shows the order's current delivery: the first one still to come (earliest date; a failed one
 * waits for its new date), or else the last one that went out or was called off. One correlated
 * subquery (deliveries_order_idx), so a list reads it in the same statement.
 *
 * Decision 0066: a delivery a pause handed back (cancelled with its subscription number released,
 * pause.ts) is not called off: it is owed, and created again after the pause. Until a delivery
 * of the order created after it replaces it, it ranks after the deliveries still to come and
 * before those gone out, and says what its subscription says: no date while paused (with the
 * pause's last day), the subscription's next delivery date once resumed (the date the scheduler
 * creates it on), or, if the subscription ended meanwhile, its own date (called off). Once
 * replaced it is never the current one. An
 * order with no delivery yet (a monthly renewal's, created a week ahead) whose subscription is
 * paused past its date waits the same way. The subscription is read only for those rows.
 */
export function currentDeliveryOf(orderId: PgColumn | SQL): SQL<CurrentDeliveryRow | null> {
  return sql<CurrentDeliveryRow | null>`(select json_build_object('date', cd.delivery_date, 'window', cd.delivery_window, 'pausedUntil', cd.paused_until)
    from (${currentDeliveryRow(orderId)}) cd limit 1)`;
}

/**
 * The same current delivery as a lateral subquery named `current_delivery` (plain columns
 * `delivery_date`, `delivery_window`, `paused_until`; no row for an order without a delivery that
 * waits for nothing), to join with `leftJoinLateral(currentDeliveryLateral(orders.id), sql\`true\`)`:
 * the staff CSV reads 100 000 of them, without a JSON object built and parsed per row.
 */
export function currentDeliveryLateral(orderId: PgColumn): SQL {
  return sql`(${currentDeliveryRow(orderId)}) current_delivery`;
}

/** The rule above as at most one row (`delivery_date`, `delivery_window`, `paused_until`), the one body both readers share. */
function currentDeliveryRow(orderId: PgColumn | SQL): SQL {
  // Plain column names under an alias: a single-table select strips the table from the columns at
  // the top of a selected expression, which inside this subquery would name the delivery's own id.
  // The outer id stays qualified inside its own fragment.
  const outer = sql`${orderId}`;
  // Handed back by a pause (pause.ts is the only writer of a cancelled subscription delivery without its number).
  const handedBack = sql.raw(`(d.status = 'cancelled' and d.subscription_id is not null and d.subscription_sequence is null)`);
  // The rank is computed once per delivery in a window query (which the planner does not flatten,
  // so the ordering does not repeat it): 0 still to come, 1 handed back and not replaced by a
  // delivery created after it, 2 gone out or called off, 3 handed back and replaced. The
  // subscription is joined for the chosen row only, and only when it is a handed-back one.
  return sql`(select case when c.rank = 1 and s.status = 'paused' then null
          when c.rank = 1 and s.status <> 'cancelled' then coalesce(s.next_delivery_date, c.delivery_date)
          else c.delivery_date end as delivery_date,
        case when c.rank = 1 and s.status <> 'cancelled' then s.delivery_window else c.delivery_window end as delivery_window,
        case when c.rank = 1 and s.status = 'paused' then s.paused_until end as paused_until
      from (select d.delivery_date, d.delivery_window, d.delivery_number, d.subscription_id,
          case when not ${handedBack} then case when d.status in ('delivered', 'cancelled') then 2 else 0 end
            when d.created_at < max(case when not ${handedBack} then d.created_at end) over () then 3
            else 1 end as rank
        from ${deliveries} d where d.order_id = ${outer}) c
      left join ${subscriptions} s on c.rank = 1 and s.id = c.subscription_id
      order by c.rank, case when c.rank = 0 then c.delivery_date end asc, c.delivery_date desc, c.delivery_number asc
      limit 1)
    union all
    -- Only for an order with no delivery at all: a monthly renewal's, whose paused subscription holds it back.
    (select null::date, s.delivery_window, s.paused_until from ${orders} o join ${subscriptions} s on s.id = o.subscription_id
      where o.id = ${outer} and o.status in ('paid', 'processing') and s.status = 'paused' and s.next_delivery_date <= s.paused_until
        and not exists (select 1 from ${deliveries} d where d.order_id = ${outer}))`;
}

/** The order's row and its current delivery (from `currentDeliveryOf`) as the view models show them. */
export function currentDelivery(order: { deliveryDate: string; deliveryWindow: string }, current: CurrentDeliveryRow | null): CurrentDelivery {
  return {
    date: current ? current.date : order.deliveryDate,
    deliveryWindow: current?.window ?? order.deliveryWindow,
    requestedDate: order.deliveryDate,
    requestedWindow: order.deliveryWindow,
    pausedUntil: current?.date === null ? (current.pausedUntil ?? null) : null,
  };
}

/**
 * The current delivery as the receipt, the account's and the staff's order pages show it: its date
 * and window (decision 0062), the date asked for when it moved, and no date while it waits for its
 * paused subscription, with the pause's last day instead (decision 0066).
 */
export interface ShownDelivery {
  deliveryDate: string | null;
  deliveryWindow: string;
  /** Set only when there is a date to compare and it differs. */
  requestedDeliveryDate: string | null;
  deliveryPausedUntil: string | null;
}

export function shownDelivery(delivery: CurrentDelivery): ShownDelivery {
  return {
    deliveryDate: delivery.date,
    deliveryWindow: delivery.deliveryWindow,
    requestedDeliveryDate: delivery.date !== null && delivery.date !== delivery.requestedDate ? delivery.requestedDate : null,
    deliveryPausedUntil: delivery.pausedUntil,
  };
}
