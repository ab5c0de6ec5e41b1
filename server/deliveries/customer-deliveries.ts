import { and, asc, desc, eq, gte, inArray, type SQL } from "drizzle-orm";
import { customerDelivery, type CustomerDelivery } from "@core/customer-delivery";
import { inTransitDeliveryStatuses, upcomingDeliveryStatuses, type DeliveryFilter } from "@core/delivery-labels";
import { limaToday } from "@core/lima-dates";
import type { Database } from "../db/client";
import { deliveries, deliveryProofs, orders, type DeliveryStatusEntry } from "../db/schema";
import { isUuid } from "../db/uuid";
import { listOrderLines, type OrderLine } from "../orders/index.server";

/** Spec §7/§9: the upcoming tab shows the next 5 deliveries. */
export const UPCOMING_DELIVERIES_LIMIT = 5;

export interface CustomerDeliveryRow {
  id: string;
  deliveryNumber: string;
  /** Lima calendar date, `YYYY-MM-DD`. */
  deliveryDate: string;
  deliveryWindow: string;
  status: string;
  address: string;
  districtName: string;
  orderId: string;
  orderNumber: string;
  /** '2 × Agua alcalina deportiva 1 L (Pack x 12), 1 × …' */
  itemSummary: string;
}

export interface CustomerDeliveryDetail extends CustomerDelivery {
  /** Oldest first: the timeline reads in the order things happened. */
  statusHistory: DeliveryStatusEntry[];
  order: { id: string; orderNumber: string; subtotalCents: number; discountCents: number; shippingCents: number; totalCents: number };
  items: OrderLine[];
  /** What the driver recorded at the door, latest attempt (issue 10). */
  proof: {
    outcome: string;
    receiverName: string | null;
    fullBidonesLeft: number | null;
    emptyBidonesCollected: number | null;
    failureReason: string | null;
  } | null;
}

const rowColumns = {
  id: deliveries.id,
  deliveryNumber: deliveries.deliveryNumber,
  deliveryDate: deliveries.deliveryDate,
  deliveryWindow: deliveries.deliveryWindow,
  status: deliveries.status,
  address: deliveries.address,
  districtName: deliveries.districtName,
  orderId: deliveries.orderId,
  orderNumber: orders.orderNumber,
};

/** What each tab of 'Mis Envíos' holds besides "belongs to this customer" (spec §2, §4, §7). */
function filterCondition(filter: DeliveryFilter, today: string): SQL | undefined {
  switch (filter) {
    case "upcoming":
      return and(inArray(deliveries.status, [...upcomingDeliveryStatuses]), gte(deliveries.deliveryDate, today));
    case "in_transit":
      return inArray(deliveries.status, [...inTransitDeliveryStatuses]);
    case "delivered":
      return eq(deliveries.status, "delivered");
    case "all":
      return undefined;
  }
}

/**
 * The customer's deliveries for one tab: upcoming ones from today in Lima, soonest first, at most
 * 5 (spec §7); every other tab newest date first.
 */
export async function listDeliveriesForUser(
  db: Database,
  userId: string,
  /** `limit` defaults to 5 for upcoming (the dashboard home asks for 3) and to none for the other tabs. */
  options: { filter?: DeliveryFilter; now: Date; limit?: number },
): Promise<CustomerDeliveryRow[]> {
  const filter = options.filter ?? "upcoming";
  const upcoming = filter === "upcoming";
  const limit = options.limit ?? (upcoming ? UPCOMING_DELIVERIES_LIMIT : undefined);
  const query = db
    .select(rowColumns)
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .where(and(eq(orders.userId, userId), filterCondition(filter, limaToday(options.now))))
    .orderBy(...(upcoming ? [asc(deliveries.deliveryDate), asc(deliveries.deliveryNumber)] : [desc(deliveries.deliveryDate), desc(deliveries.deliveryNumber)]));
  const rows = limit === undefined ? await query : await query.limit(limit);
  const lines = await listOrderLines(db, [...new Set(rows.map((row) => row.orderId))]);
  return rows.map((row) => ({ ...row, itemSummary: summarize(lines.get(row.orderId) ?? []) }));
}

function summarize(lines: OrderLine[]): string {
  return lines.map((line) => `${line.quantity} × ${line.title}${line.variantTitle ? ` (${line.variantTitle})` : ""}`).join(", ");
}

/** One of the customer's deliveries for its tracking page; null when malformed, unknown or someone else's. */
export async function findDeliveryForUser(db: Database, userId: string, deliveryId: string): Promise<CustomerDeliveryDetail | null> {
  if (!isUuid(deliveryId)) return null;
  const [found] = await db
    .select({ delivery: deliveries, order: orders })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .where(and(eq(deliveries.id, deliveryId), eq(orders.userId, userId)));
  if (!found) return null;
  const { delivery, order } = found;
  const lines = await listOrderLines(db, [order.id]);
  const [proof] = await db
    .select({
      outcome: deliveryProofs.outcome,
      receiverName: deliveryProofs.receiverName,
      fullBidonesLeft: deliveryProofs.fullBidonesLeft,
      emptyBidonesCollected: deliveryProofs.emptyBidonesCollected,
      failureReason: deliveryProofs.failureReason,
    })
    .from(deliveryProofs)
    .where(eq(deliveryProofs.deliveryId, delivery.id))
    .orderBy(desc(deliveryProofs.createdAt))
    .limit(1);
  return {
    ...customerDelivery(delivery),
    statusHistory: [...delivery.statusHistory].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp)),
    order: {
      id: order.id,
      orderNumber: order.orderNumber,
      subtotalCents: order.subtotalCents,
      discountCents: order.discountCents,
      shippingCents: order.shippingCents,
      totalCents: order.totalCents,
    },
    items: lines.get(order.id) ?? [],
    proof: proof ?? null,
  };
}
