import { may } from "@core/staff-permissions";
import { eq } from "drizzle-orm";
import { deliveryFailureReasonLabel, type DeliveryFailureReason } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { limaToday } from "@core/lima-dates";
import { readBrandName } from "../content/index.server";
import { deliveries, deliveryProofs, orders } from "../db/schema";
import { inRefusableTransaction, type DatabaseOrTransaction, type Transaction } from "../db/transaction";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { deliveryDeliveredEmail, deliveryFailedEmail, deliveryOnTheWayEmail, enqueueEmail } from "../notifications/index.server";
import { receiptPath, receiptToken, receiptUrl } from "../orders/index.server";
import { recordGarantiaAtDelivery } from "../garantias/index.server";
import { reorderUrl } from "../reorders/index.server";
import { findPaymentToCollect } from "../payments/index.server";
import { deliveredWhatsapp, enqueueWhatsappTemplate, notDeliveredWhatsapp, onTheWayWhatsapp, whatsappEnabled } from "../whatsapp/index.server";
import { estimatedArrivalWindow } from "./arrival-window";
import { bidonBalance, ledgerCustomerOf, recordBidonMovements } from "./bidon-ledger";
import { stopsBeforeOnRoute } from "./driver-route";
import { deliveryPath, isDeliveryStatus, type DeliveryStatus } from "./delivery-status";
import { transitionDeliveries } from "./transition";

export type DriverConfirmation =
  | { kind: "on_the_way" }
  | {
      kind: "delivered";
      receiverName: string;
      fullBidonesLeft: number;
      emptyBidonesCollected: number;
      /** How the driver took the money of an unpaid code at the door; null when nothing was collected. */
      collected?: "cash" | "yape" | null;
    }
  | { kind: "failed"; reason: DeliveryFailureReason; note: string | null };

export type DriverConfirmationResult =
  /** `changed: false`: the stop was already there (a double tap); nothing was written. */
  | { ok: true; changed: boolean }
  /** Unknown, or not on this driver's route today (another driver's, nobody's, another day's): the caller answers 404 either way. */
  | { ok: false; reason: "not_found" }
  /** The delivery's machine does not allow the move (e.g. delivering a stop that failed). */
  | { ok: false; reason: "not_allowed"; status: string }
  /** The order's code is unpaid: the driver must say how they collected it (or report a failed stop). */
  | { ok: false; reason: "collection_required"; amountCents: number }
  /** The driver says they collected, but the order is already paid: nothing is written. */
  | { ok: false; reason: "already_paid" };

/**
 * What a driver's stop does to its order, passed in by the floor above (order-flows, decision
 * 0083): deliveries moves the stop, the order's status is moved one floor up. Both run in the
 * stop's transaction, with the order (and the open payment) already locked (decision 0025).
 */
export interface DriverStopOrderSteps {
  /** The money of an unpaid code was taken at the door: the payment settles (the order is paid). */
  collectedAtDoor(
    tx: Transaction,
    paymentId: string,
    details: { now: Date; method: "cash" | "yape"; driverEmail: string; siteUrl: string; phoneTime?: Date | null },
  ): Promise<unknown>;
  /** The order follows its deliveries (shipped, delivered), after the stop moved. */
  followDeliveries(tx: Transaction, order: typeof orders.$inferSelect, change: { actor: string; now: Date }): Promise<void>;
}

const TARGET: Record<DriverConfirmation["kind"], DeliveryStatus> = { on_the_way: "in_transit", delivered: "delivered", failed: "failed" };
const AUDIT_ACTION: Record<DriverConfirmation["kind"], string> = {
  on_the_way: "delivery.in_transit",
  delivered: "delivery.delivered",
  failed: "delivery.failed",
};

const NOT_FOUND = { ok: false, reason: "not_found" } as const;

/**
 * The driver's three buttons (issue 10). Decision 0071's order: authorise first (the actor's role,
 * the stop assigned to them, dated today in Lima: their route), then lock in decision 0025's
 * order (the order, its open cash/Yape code, the delivery) and authorise again under the locks
 * (dispatch may have moved the stop a moment ago), then write. Every refusal throws inside the
 * transaction, so nothing commits; a stop that is not on the driver's route gets the answer of a
 * missing one, whatever its order's payment (no oracle on other people's orders). The writes, in
 * one transaction: the money collected at the door, the delivery's move with its history, the
 * proof, the bidones ledger, the order following its deliveries, the audit entry and the
 * customer's e-mail. A stop already in the target status changes nothing, so a double tap counts
 * once and sends one e-mail. What moves the order (the payment at the door, the order following its
 * deliveries) is `orderSteps`, from order-flows, which exports this with its steps in place.
 */
export async function confirmDriverStop(
  db: DatabaseOrTransaction,
  input: {
    deliveryId: string;
    driver: StaffActor;
    confirmation: DriverConfirmation;
    now: Date;
    siteUrl: string;
    /** The phone's own time of a queued tap the server did not believe (decision 0089); `now` is then the receipt time. */
    phoneTime?: Date | null;
  },
  orderSteps: DriverStopOrderSteps,
): Promise<DriverConfirmationResult> {
  const { driver, confirmation, now } = input;
  // Who may confirm a stop: the repartidor it is assigned to (an admin only on a route of their own).
  if (!may(driver.role, "reparto.usar")) return NOT_FOUND;
  const today = limaToday(now);
  const onRoute = (row: { assignedDriverId: string | null; deliveryDate: string; status: string } | undefined) =>
    row !== undefined && row.assignedDriverId === driver.id && row.deliveryDate === today && row.status !== "cancelled";
  const target = TARGET[confirmation.kind];
  return inRefusableTransaction<DriverConfirmationResult>(db, async (tx, refuse) => {
    const [ref] = await tx
      .select({ orderId: deliveries.orderId, assignedDriverId: deliveries.assignedDriverId, deliveryDate: deliveries.deliveryDate, status: deliveries.status })
      .from(deliveries)
      .where(eq(deliveries.id, input.deliveryId));
    if (!ref || !onRoute(ref)) return refuse(NOT_FOUND);

    const [locked] = await tx.select().from(orders).where(eq(orders.id, ref.orderId)).for("update");
    const open = confirmation.kind === "delivered" ? await findPaymentToCollect(tx, ref.orderId, { lock: true }) : null;
    const [delivery] = await tx.select().from(deliveries).where(eq(deliveries.id, input.deliveryId)).for("update");
    if (!locked || !delivery || !onRoute(delivery)) return refuse(NOT_FOUND);
    if (delivery.status === target) return { ok: true, changed: false };
    // A stop given a new date comes back "Reprogramado"; it goes out again through "Programado".
    const passesScheduled = confirmation.kind === "on_the_way" && delivery.status === "rescheduled";
    const from = passesScheduled ? "scheduled" : delivery.status;
    if (!isDeliveryStatus(from) || !deliveryPath(from, target)) return refuse({ ok: false, reason: "not_allowed", status: delivery.status });

    let order = locked;
    if (confirmation.kind === "delivered") {
      // An unpaid cash or Yape code at the door: the driver says how they collected it and the
      // payment settles here; without that the stop is refused, so goods never leave with the
      // money unrecorded. A driver who says they collected on a paid order is stopped too.
      const collected = confirmation.collected ?? null;
      if (open && !collected) return refuse({ ok: false, reason: "collection_required", amountCents: open.amountCents });
      if (!open && collected) return refuse({ ok: false, reason: "already_paid" });
      if (open && collected) {
        await orderSteps.collectedAtDoor(tx, open.id, {
          now,
          method: collected,
          driverEmail: driver.email,
          siteUrl: input.siteUrl,
          phoneTime: input.phoneTime,
        });
        order = (await tx.select().from(orders).where(eq(orders.id, ref.orderId)))[0] ?? locked;
      }
    }
    const note = historyNote(confirmation);
    if (passesScheduled) await transitionDeliveries(tx, [delivery.id], "scheduled", { actor: driver.email, now });
    await transitionDeliveries(tx, [delivery.id], target, { actor: driver.email, now, note });
    let proofId: string | null = null;
    if (confirmation.kind !== "on_the_way") {
      const [proof] = await tx
        .insert(deliveryProofs)
        .values({
          deliveryId: delivery.id,
          outcome: confirmation.kind,
          receiverName: confirmation.kind === "delivered" ? confirmation.receiverName : null,
          fullBidonesLeft: confirmation.kind === "delivered" ? confirmation.fullBidonesLeft : null,
          emptyBidonesCollected: confirmation.kind === "delivered" ? confirmation.emptyBidonesCollected : null,
          failureReason: confirmation.kind === "failed" ? confirmation.reason : null,
          note: confirmation.kind === "failed" ? confirmation.note : null,
          driverId: driver.id,
          createdAt: now,
        })
        .returning({ id: deliveryProofs.id });
      proofId = proof!.id;
    }
    if (confirmation.kind === "delivered") {
      await recordBidonMovements(tx, {
        deliveryId: delivery.id,
        orderId: order.id,
        userId: order.userId,
        email: order.customerEmail,
        fullLeft: confirmation.fullBidonesLeft,
        emptiesCollected: confirmation.emptyBidonesCollected,
        now,
      });
    }
    await orderSteps.followDeliveries(tx, order, { actor: driver.email, now });
    await recordStaffAction(tx, driver, {
      action: AUDIT_ACTION[confirmation.kind],
      entityType: "delivery",
      entityId: delivery.id,
      before: { status: delivery.status },
      after: { status: target, ...(confirmation.kind === "on_the_way" ? {} : confirmation) },
    });
    let bidonesHeld: number | null = null;
    if (confirmation.kind === "delivered") {
      // The garantía follows the bidones (decision 0075): the order's is held from now on, and
      // what came back beyond what the customer owes is released. After every row lock (its ledger
      // lock comes last, decision 0025).
      const customer = await ledgerCustomerOf(tx, order);
      bidonesHeld = (await bidonBalance(tx, customer)).balance;
      await recordGarantiaAtDelivery(tx, { order, deliveryId: delivery.id, customer, bidonBalance: bidonesHeld, now });
    }
    await tellCustomer(tx, { order, delivery, confirmation, proofId, bidonesHeld, now, siteUrl: input.siteUrl });
    return { ok: true, changed: true };
  });
}

function historyNote(confirmation: DriverConfirmation): string | null {
  if (confirmation.kind === "delivered") return `Recibido por ${confirmation.receiverName}`;
  if (confirmation.kind === "failed") return `${deliveryFailureReasonLabel(confirmation.reason)}${confirmation.note ? `: ${confirmation.note}` : ""}`;
  return null;
}

async function tellCustomer(
  tx: Transaction,
  input: {
    order: typeof orders.$inferSelect;
    delivery: typeof deliveries.$inferSelect;
    confirmation: DriverConfirmation;
    proofId: string | null;
    /** The customer's bidones after a delivered stop. */
    bidonesHeld: number | null;
    now: Date;
    siteUrl: string;
  },
) {
  const { order, delivery, confirmation } = input;
  const brandName = await readBrandName(tx);
  const base = {
    brandName,
    firstName: order.customerFirstName,
    orderNumber: order.orderNumber,
    deliveryNumber: delivery.deliveryNumber,
    orderUrl: receiptUrl(order.id, input.siteUrl),
  };
  const to = order.customerEmail;
  // Issue 25: the same news on WhatsApp, beside each e-mail, for a number that opted in.
  const token = receiptToken(order.id);
  const whatsapp = {
    orderId: order.id,
    orderNumber: order.orderNumber,
    firstName: order.customerFirstName,
    phone: order.customerPhone,
    userId: order.userId,
    email: order.customerEmail,
    siteUrl: input.siteUrl,
    orderPath: receiptPath(order.id),
    deliveryId: delivery.id,
  };
  if (confirmation.kind === "on_the_way") {
    const email = deliveryOnTheWayEmail({ ...base, windowLabel: deliveryWindowLabel(delivery.deliveryWindow) });
    await enqueueEmail(tx, { dedupeKey: `delivery-on-the-way:${delivery.id}`, kind: "delivery-on-the-way", to, ...email }, input.now);
    // The route is read only when the shop has WhatsApp at all.
    if (whatsappEnabled()) {
      const message = onTheWayWhatsapp({
        ...whatsapp,
        windowLabel: deliveryWindowLabel(delivery.deliveryWindow),
        stopsBefore: (await stopsBeforeOnRoute(tx, delivery)) ?? 0,
        arrival: await estimatedArrivalWindow(tx, { deliveryId: delivery.id, now: input.now }),
      });
      await enqueueWhatsappTemplate(tx, message, input.now);
    }
  } else if (confirmation.kind === "delivered") {
    const reorder = new URL(reorderUrl(order.id, { now: input.now, siteUrl: input.siteUrl }));
    const email = deliveryDeliveredEmail({
      ...base,
      receiverName: confirmation.receiverName,
      fullLeft: confirmation.fullBidonesLeft,
      emptiesCollected: confirmation.emptyBidonesCollected,
      bidonBalance: input.bidonesHeld ?? 0,
      reorderUrl: reorder.toString(),
    });
    await enqueueEmail(tx, { dedupeKey: `delivery-delivered:${delivery.id}`, kind: "delivery-delivered", to, ...email }, input.now);
    const message = deliveredWhatsapp({
      ...whatsapp,
      receiverName: confirmation.receiverName,
      fullLeft: confirmation.fullBidonesLeft,
      emptiesCollected: confirmation.emptyBidonesCollected,
      bidonBalance: input.bidonesHeld ?? 0,
      // The button is «Repetir pedido» (decision 0076): the same signed, expiring link as the e-mail's.
      linkPath: `${reorder.pathname.slice(1)}${reorder.search}`,
    });
    await enqueueWhatsappTemplate(tx, message, input.now);
  } else {
    // Each failed attempt is its own proof row, so a second failure after a reschedule is told too.
    const reasonLabel = deliveryFailureReasonLabel(confirmation.reason);
    const newDatePath = `orden/${order.id}/nueva-fecha?token=${token}`;
    const email = deliveryFailedEmail({ ...base, reasonLabel, newDateUrl: new URL(newDatePath, input.siteUrl).toString() });
    await enqueueEmail(tx, { dedupeKey: `delivery-failed:${delivery.id}:${input.proofId}`, kind: "delivery-failed", to, ...email }, input.now);
    await enqueueWhatsappTemplate(tx, notDeliveredWhatsapp({ ...whatsapp, attemptId: input.proofId!, reasonLabel, newDatePath }), input.now);
  }
}
