import { eq } from "drizzle-orm";
import { deliveriesPerPeriod } from "@core/subscription-dates";
import { cadenceOf } from "@core/delivery-cadence";
import { deliveries, type orders } from "../db/schema";
import type { Transaction } from "../db/transaction";
import {
  applyQueuedDriverConfirmations as applyQueuedDriverConfirmationsWith,
  confirmDriverStop as confirmDriverStopWith,
  type DriverStopOrderSteps,
} from "../deliveries/index.server";
import { transitionOrder } from "../orders/index.server";
import { settleCollectedAtDoor } from "./payment-entry-points";
import { withOrderSteps } from "./with-steps";

const LEFT_THE_WAREHOUSE = ["shipped", "in_transit", "delivered"];

/**
 * Issue 10: the order follows its deliveries. The first delivery on its way ships the order
 * (walking paid → processing → shipped, as the order machine allows); once every delivery the order
 * paid for is delivered, the order is delivered. A subscription's order counts the deliveries of its
 * period (1 for mensual, 12 for anual, × 4 or 2 for a weekly or biweekly cadence, decision 0097), since an annual order's later deliveries are created month by
 * month. An order not paid yet (cash or Yape code collected at the door) keeps its status: the
 * machine cannot ship an unpaid order, and recording the payment is the payments domain's work.
 * The caller (a driver's stop, in deliveries) holds the order's lock.
 */
export async function orderFollowsDeliveries(tx: Transaction, order: typeof orders.$inferSelect, change: { actor: string; now: Date }): Promise<void> {
  const rows = await tx.select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.orderId, order.id));
  let status = order.status;
  if (rows.some((row) => LEFT_THE_WAREHOUSE.includes(row.status)) && (status === "paid" || status === "processing")) {
    if (status === "paid") await transitionOrder(tx, order.id, "processing", { actor: change.actor, now: change.now });
    await transitionOrder(tx, order.id, "shipped", { actor: change.actor, now: change.now, note: "Salió a reparto" });
    status = "shipped";
  }
  const expected = order.subscriptionFrequency ? deliveriesPerPeriod(order.subscriptionFrequency, cadenceOf(order.deliveryCadence)) : 1;
  const delivered = rows.filter((row) => row.status === "delivered").length;
  const stillOpen = rows.some((row) => row.status !== "delivered" && row.status !== "cancelled");
  if (status === "shipped" && !stillOpen && delivered >= expected) {
    await transitionOrder(tx, order.id, "delivered", { actor: change.actor, now: change.now, note: "Entregado al cliente" });
  }
}

/** What a driver's stop does to its order (decision 0083): deliveries moves the stop and calls these. */
const driverStopOrderSteps: DriverStopOrderSteps = {
  collectedAtDoor: settleCollectedAtDoor,
  followDeliveries: orderFollowsDeliveries,
};

/** The driver's three buttons (issue 10), deliveries' `confirmDriverStop` with the order's steps. */
export const confirmDriverStop = withOrderSteps(confirmDriverStopWith, driverStopOrderSteps);

/** The driver app's offline queue (decision 0079), deliveries' `applyQueuedDriverConfirmations` with the order's steps. */
export const applyQueuedDriverConfirmations = withOrderSteps(applyQueuedDriverConfirmationsWith, driverStopOrderSteps);
