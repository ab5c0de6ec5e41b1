import { and, asc, eq, inArray } from "drizzle-orm";
import type { GeoPoint } from "@core/geo";
import { recordStaffActions, type StaffActionEntry, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { deliveries, orders } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { isUuid } from "../db/uuid";
import { retimeDriverDays } from "./route-plan";

export type OrderLocationResult = "saved" | "unchanged" | "not_found";

/** Deliveries whose point may still change: not yet handed over, failed or cancelled. */
const MOVABLE = ["pending", "preparing", "scheduled", "rescheduled", "shipped", "in_transit"];

/**
 * Staff set or correct an order's point on /admin/pedidos/{id} (issue 26), or clear it (null: the
 * district's centre stands in). The order is locked, then its deliveries in id order (decision
 * 0025); the deliveries not yet done take the new point and their drivers' days are timed again.
 * One audit row for the order; the same point saved twice changes nothing.
 */
export async function setOrderLocation(
  db: Database,
  actor: StaffActor,
  input: { orderId: string; point: GeoPoint | null; now: Date },
): Promise<OrderLocationResult> {
  if (!isUuid(input.orderId)) return "not_found";
  return inTransaction(db, async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, lat: orders.addressLat, lng: orders.addressLng })
      .from(orders)
      .where(eq(orders.id, input.orderId))
      .for("update");
    if (!order) return "not_found";
    const open = await tx
      .select({ id: deliveries.id, lat: deliveries.lat, lng: deliveries.lng, date: deliveries.deliveryDate, driverId: deliveries.assignedDriverId })
      .from(deliveries)
      .where(and(eq(deliveries.orderId, order.id), inArray(deliveries.status, MOVABLE)))
      .orderBy(asc(deliveries.id))
      .for("update");
    const lat = input.point?.lat ?? null;
    const lng = input.point?.lng ?? null;
    const stale = open.filter((delivery) => delivery.lat !== lat || delivery.lng !== lng);
    if (order.lat === lat && order.lng === lng && stale.length === 0) return "unchanged";
    await tx.update(orders).set({ addressLat: lat, addressLng: lng, updatedAt: input.now }).where(eq(orders.id, order.id));
    if (stale.length) {
      await tx
        .update(deliveries)
        .set({ lat, lng, updatedAt: input.now })
        .where(
          inArray(
            deliveries.id,
            stale.map((delivery) => delivery.id),
          ),
        );
      await retimeDriverDays(tx, stale, input.now);
    }
    const entry: StaffActionEntry = {
      action: "order.location",
      entityType: "order",
      entityId: order.id,
      before: { lat: order.lat, lng: order.lng },
      after: { lat, lng, deliveries: stale.length },
    };
    await recordStaffActions(tx, actor, [entry]);
    return "saved";
  });
}
