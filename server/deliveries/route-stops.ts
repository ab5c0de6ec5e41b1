import { and, asc, eq, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { GeoPoint } from "@core/geo";
import type { DatabaseOrTransaction } from "../db/transaction";
import { districtsToJoin } from "../content/index.server";
import { deliveries, deliveryProofs, orderItems, orders, productVariants } from "../db/schema";
import { compareStops, dispatchableOrder } from "./dispatch-scope";
import { bidonExchange } from "./returnable-bidones";

/**
 * One delivery of a day as route planning sees it (issue 26): where it is (its own point, else its
 * district's centre, flagged approximate), when it may be served, what it weighs on the van, and
 * where it stands on its driver's route.
 */
export interface RouteStopRow {
  id: string;
  deliveryNumber: string;
  orderId: string;
  status: string;
  districtId: number;
  districtName: string;
  deliveryWindow: string;
  driverId: string | null;
  routePosition: number | null;
  /** The point the van drives to; null only when neither the delivery nor its district has one. */
  point: GeoPoint | null;
  /** True when `point` is the district's centre: "ubicación aproximada". */
  approximate: boolean;
  estimatedArrivalAt: Date | null;
  /** Litres of water the stop takes off the van (its items), rounded up. */
  loadLitres: number;
  /** When the driver finished it (delivered or could not deliver), from the latest proof. */
  doneAt: Date | null;
}

/** Statuses route optimisation never moves (issue 26): on the road or finished. */
export const KEPT_STATUSES: readonly string[] = ["shipped", "in_transit", "delivered", "failed"];
/** Finished stops: what counts as done in a route's progress. */
export const DONE_STATUSES: readonly string[] = ["delivered", "failed"];

/**
 * Litres of one order line: the volume in the product's title ("… 625 ml", "… 20 L") times the
 * units of the line (a pack's bottles, a bidón pack's recargas), times its quantity. A title
 * without a volume weighs nothing.
 */
export function litresOfLine(line: { title: string; variantTitle: string | null; packSize: number | null; sku: string | null; quantity: number }): number {
  const volume = /(\d+(?:[.,]\d+)?)\s*(ml|l)\b/i.exec(line.title);
  if (!volume) return 0;
  const litres = Number(volume[1]!.replace(",", ".")) / (volume[2]!.toLowerCase() === "ml" ? 1000 : 1);
  const packFromTitle = line.variantTitle ? /x\s*(\d+)/i.exec(line.variantTitle) : null;
  const units = bidonExchange(line.sku, 1).full || line.packSize || (packFromTitle ? Number(packFromTitle[1]) : 1);
  return litres * units * line.quantity;
}

/**
 * The day's stops of the given drivers, or of every driver and none (`drivers: "all"`), in route
 * order per driver. Cancelled deliveries and orders Despacho does not work on are left out. Three
 * queries whatever the number of stops.
 */
export async function loadRouteStops(
  db: DatabaseOrTransaction,
  input: { date: string; drivers: string[] | "all"; includeUnassigned?: boolean; deliveryIds?: string[] },
): Promise<RouteStopRow[]> {
  const driverScope: SQL | undefined =
    input.drivers === "all"
      ? undefined
      : input.includeUnassigned
        ? or(isNull(deliveries.assignedDriverId), input.drivers.length ? inArray(deliveries.assignedDriverId, input.drivers) : undefined)
        : input.drivers.length
          ? inArray(deliveries.assignedDriverId, input.drivers)
          : sql`false`;
  const rows = await db
    .select({
      id: deliveries.id,
      deliveryNumber: deliveries.deliveryNumber,
      orderId: deliveries.orderId,
      status: deliveries.status,
      districtId: deliveries.districtId,
      districtName: deliveries.districtName,
      deliveryWindow: deliveries.deliveryWindow,
      driverId: deliveries.assignedDriverId,
      routePosition: deliveries.routePosition,
      lat: deliveries.lat,
      lng: deliveries.lng,
      centerLat: districtsToJoin.centerLat,
      centerLng: districtsToJoin.centerLng,
      estimatedArrivalAt: deliveries.estimatedArrivalAt,
    })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .leftJoin(districtsToJoin, eq(districtsToJoin.id, deliveries.districtId))
    .where(
      and(
        eq(deliveries.deliveryDate, input.date),
        ne(deliveries.status, "cancelled"),
        dispatchableOrder,
        driverScope,
        input.deliveryIds ? inArray(deliveries.id, input.deliveryIds) : undefined,
      ),
    )
    .orderBy(asc(deliveries.id));
  if (rows.length === 0) return [];
  const orderIds = [...new Set(rows.map((row) => row.orderId))];
  const ids = rows.map((row) => row.id);
  const [lines, proofs] = await Promise.all([
    db
      .select({
        orderId: orderItems.orderId,
        title: orderItems.title,
        variantTitle: orderItems.variantTitle,
        quantity: orderItems.quantity,
        packSize: productVariants.packSize,
        sku: sql<string | null>`coalesce(${productVariants.sku}, ${orderItems.sku})`,
      })
      .from(orderItems)
      .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
      .where(inArray(orderItems.orderId, orderIds)),
    db
      .select({ deliveryId: deliveryProofs.deliveryId, at: sql<Date>`max(${deliveryProofs.createdAt})`.mapWith(deliveryProofs.createdAt) })
      .from(deliveryProofs)
      .where(inArray(deliveryProofs.deliveryId, ids))
      .groupBy(deliveryProofs.deliveryId),
  ]);
  const litres = new Map<string, number>();
  for (const line of lines) litres.set(line.orderId, (litres.get(line.orderId) ?? 0) + litresOfLine(line));
  const doneAt = new Map(proofs.map((proof) => [proof.deliveryId, proof.at]));
  const stops = rows.map((row): RouteStopRow => {
    const own = row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null;
    const centre = row.centerLat !== null && row.centerLng !== null ? { lat: row.centerLat, lng: row.centerLng } : null;
    return {
      id: row.id,
      deliveryNumber: row.deliveryNumber,
      orderId: row.orderId,
      status: row.status,
      districtId: row.districtId,
      districtName: row.districtName,
      deliveryWindow: row.deliveryWindow,
      driverId: row.driverId,
      routePosition: row.routePosition,
      point: own ?? centre,
      approximate: own === null,
      estimatedArrivalAt: row.estimatedArrivalAt,
      loadLitres: Math.ceil(litres.get(row.orderId) ?? 0),
      doneAt: DONE_STATUSES.includes(row.status) ? (doneAt.get(row.id) ?? null) : null,
    };
  });
  return stops.sort((a, b) => (a.driverId ?? "").localeCompare(b.driverId ?? "") || compareStops(a, b));
}

/** A day's stops grouped by driver, each list in route order. */
export function stopsByDriver(stops: readonly RouteStopRow[]): Map<string, RouteStopRow[]> {
  const grouped = new Map<string, RouteStopRow[]>();
  for (const stop of stops) {
    if (!stop.driverId) continue;
    grouped.set(stop.driverId, [...(grouped.get(stop.driverId) ?? []), stop]);
  }
  return grouped;
}
