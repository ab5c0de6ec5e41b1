import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { deliveries, orderItems, products, productVariants } from "../db/schema";
import { listDriverStops, type DriverStop } from "./driver-route";
import { bidonExchange } from "./returnable-bidones";

/**
 * A stop as the driver's phone needs it (issue 40): the route's stop, plus the pin the driver is
 * sent to ("Cómo llegar" goes to the coordinates, the typed address only where there is none) and
 * the full bidones the order carries, which «Bidones llenos dejados» starts at.
 */
export interface DriverRouteStop extends DriverStop {
  /** The stop's own point; null when only the district's centre is known ("ubicación aproximada"). */
  pin: { lat: number; lng: number } | null;
  /** Full bidones the order's lines hand over (recargas, packs, bidón con envase). */
  fullBidonesOrdered: number;
}

/** Today's stops of one driver (listDriverStops' order and content), each with its pin and its bidones. */
export async function listDriverRoute(db: Database, driverId: string, now: Date): Promise<DriverRouteStop[]> {
  const stops = await listDriverStops(db, driverId, now);
  if (stops.length === 0) return [];
  const orderIds = [...new Set(stops.map((stop) => stop.orderId))];
  const [points, lines] = await Promise.all([
    db
      .select({ id: deliveries.id, lat: deliveries.lat, lng: deliveries.lng })
      .from(deliveries)
      .where(
        inArray(
          deliveries.id,
          stops.map((stop) => stop.id),
        ),
      ),
    db
      .select({
        orderId: orderItems.orderId,
        quantity: orderItems.quantity,
        sku: sql<string | null>`coalesce(${productVariants.sku}, ${products.sku})`,
      })
      .from(orderItems)
      .innerJoin(products, eq(products.id, orderItems.productId))
      .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
      .where(inArray(orderItems.orderId, orderIds))
      .orderBy(asc(orderItems.id)),
  ]);
  const pins = new Map(points.map((point) => [point.id, point.lat !== null && point.lng !== null ? { lat: point.lat, lng: point.lng } : null]));
  const fullByOrder = new Map<string, number>();
  for (const line of lines) fullByOrder.set(line.orderId, (fullByOrder.get(line.orderId) ?? 0) + bidonExchange(line.sku, line.quantity).full);
  return stops.map((stop) => ({ ...stop, pin: pins.get(stop.id) ?? null, fullBidonesOrdered: fullByOrder.get(stop.orderId) ?? 0 }));
}
