import { and, desc, eq, inArray } from "drizzle-orm";
import { deliveryScheduleError } from "@core/delivery-schedule";
import { isoWeekday } from "@core/lima-dates";
import type { Database } from "../db/client";
import { readDistrict, readDistrictWeekdays } from "../content/index.server";
import { orderItems, orders, orderStatusChanges, type payments, products, productVariants, refunds } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { currentDelivery, currentDeliveryOf } from "../orders/index.server";
import type { PaymentOrderSteps } from "./order-steps";
import { lockPaymentWithOrder, PaymentNotFoundError, settlePaymentInTransaction, type PaymentMethod } from "./settle";
import { inTransaction } from "../db/transaction";

/** Money a provider confirmed for one of our payment attempts. */
export interface ConfirmedCharge {
  provider: string;
  /** The provider's id of the money: a Culqi charge `chr_…` (refundable by API) or order `ord_…` (cash). */
  reference: string;
  amountCents: number;
  method: PaymentMethod;
}

export type RefundReason = "late_payment" | "duplicate_charge" | "amount_mismatch";

export type ChargeSettlement =
  | { kind: "settled"; orderId: string; alreadySettled: boolean; reopened: boolean }
  | { kind: "refund"; orderId: string; refundId: string; created: boolean; reason: RefundReason };

/** Who ends an order for lack of payment; an order ended by anyone else (staff, later) is never re-opened. */
const PAYMENT_ENDING_ACTORS = ["system", "culqi", "culqi-webhook", "sandbox"];
const OPEN_STATUSES = ["pending", "payment_created"];
const ENDED_STATUSES = ["cancelled", "failed"];
const REOPEN_NOTE = "Pago confirmado después del vencimiento: pedido reabierto";

/**
 * Decision 0026-late-payments-and-refunds: every confirmed charge ends either settled or refunded,
 * never dropped. In one transaction (payment row locked first, then the order, as settling does):
 * - an open order is settled as usual;
 * - an order that ended only because the money was late (expired or declined) is re-opened and
 *   settled when it can still be honoured: a one-time order, its delivery date still bookable for
 *   its district today (from tomorrow, a served weekday, within the booking horizon) and every
 *   product still sold; otherwise the charge is refunded;
 * - a second charge for an order already paid, or a charge whose amount is not the payment's, is
 *   refunded.
 * A refund is only recorded here (one row per charge, so replays find it); the provider is called
 * afterwards, outside the transaction (refunds.ts).
 */
export async function settleConfirmedCharge(
  db: Database,
  paymentId: string,
  charge: ConfirmedCharge,
  details: { now: Date; actor: string; siteUrl: string },
  orderSteps: PaymentOrderSteps,
): Promise<ChargeSettlement> {
  return inTransaction(db, async (tx) => {
    // Decision 0025: the order, then its payment, then (recorded later) its refund.
    const payment = await lockPaymentWithOrder(tx, paymentId);
    if (!payment || payment.provider !== charge.provider) throw new PaymentNotFoundError(paymentId);
    const [existing] = await tx
      .select({ id: refunds.id, reason: refunds.reason })
      .from(refunds)
      .where(eq(refunds.requestKey, lateChargeRefundKey(charge)));
    if (existing) return { kind: "refund", orderId: payment.orderId, refundId: existing.id, created: false, reason: existing.reason as RefundReason };

    const refund = (reason: RefundReason) => recordRefund(tx, { payment, charge, reason, now: details.now });
    if (payment.status === "succeeded") {
      // The driver took this order's money at the door: the code paid as well is a second payment.
      if (payment.collectedAtDoorBy) return refund("duplicate_charge");
      // The same money announced again (or a cash order settled under its ord_ reference).
      if (payment.providerReference === charge.reference || !payment.providerReference?.startsWith("chr_")) {
        return { kind: "settled", orderId: payment.orderId, alreadySettled: true, reopened: false };
      }
      return refund("duplicate_charge");
    }
    if (charge.amountCents !== payment.amountCents) return refund("amount_mismatch");

    const [order] = await tx.select().from(orders).where(eq(orders.id, payment.orderId)).for("update");
    if (!order) throw new PaymentNotFoundError(paymentId);
    const settlement = {
      now: details.now,
      method: charge.method,
      actor: details.actor,
      siteUrl: details.siteUrl,
      providerReference: charge.reference.startsWith("chr_") ? charge.reference : undefined,
    };
    if (OPEN_STATUSES.includes(order.status)) {
      const settled = await settlePaymentInTransaction(tx, payment.id, settlement, orderSteps);
      return { kind: "settled", orderId: settled.orderId, alreadySettled: settled.alreadySettled, reopened: false };
    }
    if (ENDED_STATUSES.includes(order.status)) {
      const blocker = await reopenBlocker(tx, order, details.now);
      if (blocker) {
        console.warn(`[payments] late payment ${charge.reference} for order ${order.orderNumber} cannot be honoured (${blocker}): refunding`);
        return refund("late_payment");
      }
      const settled = await settlePaymentInTransaction(tx, payment.id, { ...settlement, reopenNote: REOPEN_NOTE }, orderSteps);
      console.warn(`[payments] late payment ${charge.reference} re-opened and settled order ${order.orderNumber}`);
      return { kind: "settled", orderId: settled.orderId, alreadySettled: false, reopened: true };
    }
    // Paid, on its way or already closed by another payment: this money is a second payment.
    return refund("duplicate_charge");
  });
}

/** Why an ended order cannot be re-opened for its late money, or null when it can. */
async function reopenBlocker(tx: DatabaseOrTransaction, order: typeof orders.$inferSelect, now: Date): Promise<string | null> {
  if (order.subscriptionId || order.orderType !== "one-time") return "subscription order";
  const [ending] = await tx
    .select({ actor: orderStatusChanges.actor })
    .from(orderStatusChanges)
    .where(eq(orderStatusChanges.orderId, order.id))
    .orderBy(desc(orderStatusChanges.createdAt), desc(orderStatusChanges.id))
    .limit(1);
  if (!ending || !PAYMENT_ENDING_ACTORS.includes(ending.actor)) return "ended by someone, not by the payment";
  const district = await readDistrict(tx, order.districtId);
  const days = await readDistrictWeekdays(tx, order.districtId);
  if (!district?.served) return "district no longer served";
  // The date its delivery comes back on: Despacho may have moved it before the order ended (decision 0062).
  const [current] = await tx
    .select({ delivery: currentDeliveryOf(orders.id) })
    .from(orders)
    .where(eq(orders.id, order.id));
  const { date } = currentDelivery(order, current?.delivery ?? null);
  // Only a subscription's delivery waits for a pause (decision 0066), and those never get here.
  if (date === null) return "delivery waits for a paused subscription";
  const scheduleError = deliveryScheduleError({
    districtDays: days,
    dayNumber: isoWeekday(date),
    date,
    now,
  });
  if (scheduleError) return `delivery date ${date} no longer bookable`;
  const items = await tx.select({ productId: orderItems.productId, variantId: orderItems.variantId }).from(orderItems).where(eq(orderItems.orderId, order.id));
  const productIds = [...new Set(items.map((item) => item.productId))];
  const variantIds = items.flatMap((item) => (item.variantId === null ? [] : [item.variantId]));
  const activeProducts = productIds.length
    ? await tx
        .select({ id: products.id })
        .from(products)
        .where(and(inArray(products.id, productIds), eq(products.active, true)))
    : [];
  const activeVariants = variantIds.length
    ? await tx
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(and(inArray(productVariants.id, variantIds), eq(productVariants.active, true)))
    : [];
  if (activeProducts.length !== productIds.length || activeVariants.length !== new Set(variantIds).size) return "a product is no longer sold";
  return null;
}

/** One automatic refund per provider charge: a webhook delivered three times records one. */
function lateChargeRefundKey(charge: ConfirmedCharge): string {
  return `charge:${charge.provider}:${charge.reference}`;
}

async function recordRefund(
  tx: DatabaseOrTransaction,
  input: { payment: typeof payments.$inferSelect; charge: ConfirmedCharge; reason: RefundReason; now: Date },
): Promise<ChargeSettlement> {
  const [row] = await tx
    .insert(refunds)
    .values({
      paymentId: input.payment.id,
      orderId: input.payment.orderId,
      provider: input.charge.provider,
      chargeReference: input.charge.reference,
      amountCents: input.charge.amountCents,
      reason: input.reason,
      requestKey: lateChargeRefundKey(input.charge),
      nextAttemptAt: input.now,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning({ id: refunds.id });
  console.warn(
    `[payments] refund ${row!.id} recorded: ${input.reason}, ${input.charge.provider} ${input.charge.reference}, ${input.charge.amountCents} céntimos, payment ${input.payment.id}`,
  );
  return { kind: "refund", orderId: input.payment.orderId, refundId: row!.id, created: true, reason: input.reason };
}
