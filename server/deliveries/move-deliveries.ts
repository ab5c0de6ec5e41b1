import type { StaffActionEntry } from "../audit/index.server";
import { deliveries } from "../db/schema";
import type { Transaction } from "../db/transaction";
import { transitionDeliveries } from "./transition";
import { retimeDriverDays } from "./route-plan";

/** What moving a delivery reads of it (selected FOR UPDATE by the caller, in id order). */
export const deliveryToMoveColumns = {
  id: deliveries.id,
  orderId: deliveries.orderId,
  deliveryNumber: deliveries.deliveryNumber,
  status: deliveries.status,
  districtId: deliveries.districtId,
  districtName: deliveries.districtName,
  deliveryDate: deliveries.deliveryDate,
  deliveryWindow: deliveries.deliveryWindow,
  assignedDriverId: deliveries.assignedDriverId,
  routePosition: deliveries.routePosition,
};

type DeliveryToMove = Pick<(typeof deliveries)["$inferSelect"], "id" | "status" | "deliveryDate" | "deliveryWindow" | "assignedDriverId" | "routePosition">;

/**
 * Moves deliveries to one new date and window: → rescheduled → scheduled, one history entry per
 * step with `note`, and off any driver's route (a route is per day). Despacho's "Reprogramar" and a
 * closed day's rescheduling both move deliveries here, so what must follow a delivery's new date
 * follows it in one place. Returns one audit entry per delivery for the caller to record.
 */
export async function moveDeliveries(
  tx: Transaction,
  rows: DeliveryToMove[],
  to: { date: string; deliveryWindow: string },
  change: { actor: string; now: Date; note: string },
  audit: { action: string; reason?: string | null },
): Promise<StaffActionEntry[]> {
  const ids = rows.map((row) => row.id);
  await transitionDeliveries(tx, ids, "rescheduled", change);
  await transitionDeliveries(tx, ids, "scheduled", {
    ...change,
    set: { deliveryDate: to.date, deliveryWindow: to.deliveryWindow, assignedDriverId: null, routePosition: null, estimatedArrivalAt: null },
  });
  // Issue 26: the routes they left lose a stop, so their other stops are timed again.
  await retimeDriverDays(
    tx,
    rows.map((row) => ({ date: row.deliveryDate, driverId: row.assignedDriverId })),
    change.now,
  );
  return rows.map((row) => ({
    action: audit.action,
    entityType: "delivery",
    entityId: row.id,
    before: {
      status: row.status,
      deliveryDate: row.deliveryDate,
      deliveryWindow: row.deliveryWindow,
      assignedDriverId: row.assignedDriverId,
      routePosition: row.routePosition,
    },
    after: {
      status: "scheduled",
      deliveryDate: to.date,
      deliveryWindow: to.deliveryWindow,
      assignedDriverId: null,
      routePosition: null,
      ...(audit.reason === undefined ? {} : { reason: audit.reason }),
    },
  }));
}
