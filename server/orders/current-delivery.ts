import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { deliveries } from "../db/schema";

/** Where an order's goods are going now: a delivery's date and window, or the order's own when it has no delivery yet. */
export interface CurrentDelivery {
  /** Lima date, YYYY-MM-DD. */
  date: string;
  deliveryWindow: string;
  /** What the customer asked for (checkout, or their subscription's date change); differs once a delivery was moved. */
  requestedDate: string;
  requestedWindow: string;
}

/**
 * Decision 0062's order of one order's deliveries (aliased `d`), whose first is its current one:
 * the first still to come (earliest date; a failed one waits for its new date), or else the last
 * one that went out or was called off; the delivery number settles a tie. deliveries_order_idx
 * holds each order's deliveries in this order (the same expressions), so the first is read off the
 * index without a sort.
 */
const CURRENT_FIRST = sql`d.status in ('delivered', 'cancelled'),
      case when d.status in ('delivered', 'cancelled') then null else d.delivery_date end asc,
      d.delivery_date desc, d.delivery_number asc`;

/**
 * Decision 0062: the order's delivery date is the date the customer asked for ("fecha pedida");
 * a delivery can be moved afterwards (Despacho, "Reprogramar el día", the subscription scheduler
 * finding a day closed or full), and an annual plan's order has twelve deliveries. Every reader
 * shows the order's current delivery (CURRENT_FIRST). One correlated subquery on
 * deliveries_order_idx, so a page reads it in the statement it already runs.
 */
export function currentDeliveryOf(orderId: PgColumn | SQL): SQL<{ date: string; window: string } | null> {
  // Plain column names under an alias: a single-table select strips the table from the columns at
  // the top of a selected expression, which inside this subquery would name the delivery's own id.
  // The outer id stays qualified inside its own fragment.
  const outer = sql`${orderId}`;
  return sql<{ date: string; window: string } | null>`(select json_build_object('date', d.delivery_date, 'window', d.delivery_window)
    from ${deliveries} d where d.order_id = ${outer}
    order by ${CURRENT_FIRST}
    limit 1)`;
}

/**
 * The same current delivery as a lateral subquery named `current_delivery` (columns
 * `delivery_date`, `delivery_window`; no row for an order without a delivery), to join with
 * `leftJoinLateral(currentDeliveryLateral(orders.id), sql\`true\`)` in a select that has other
 * tables: plain columns, no JSON object built and parsed per row, for the CSV's 100 000 rows.
 */
export function currentDeliveryLateral(orderId: PgColumn): SQL {
  return sql`(select d.delivery_date, d.delivery_window from ${deliveries} d where d.order_id = ${orderId}
    order by ${CURRENT_FIRST}
    limit 1) current_delivery`;
}

/** The order's row and its current delivery (from `currentDeliveryOf` or `currentDeliveryLateral`) as the view models show them. */
export function currentDelivery(order: { deliveryDate: string; deliveryWindow: string }, current: { date: string; window: string } | null): CurrentDelivery {
  return {
    date: current?.date ?? order.deliveryDate,
    deliveryWindow: current?.window ?? order.deliveryWindow,
    requestedDate: order.deliveryDate,
    requestedWindow: order.deliveryWindow,
  };
}
