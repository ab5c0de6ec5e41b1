import { may } from "@core/staff-permissions";
import { and, asc, eq, inArray } from "drizzle-orm";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { readBrandName } from "../content/index.server";
import { deliveries, orders, payments, refunds } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { enqueueEmail, orderCancelledEmail } from "../notifications/index.server";
import { operacionesRefundPolicy, planStaffRefund, writeStaffRefund, type RefundDeps, type StaffRefundResult } from "../payments/index.server";
import { canTransition, orderStatusLabel, receiptUrl, transitionOrder, type OrderStatus } from "../orders/index.server";
import { settleStaffRefund } from "./payment-entry-points";

/** A delivery in one of these has left the warehouse: its order can no longer be cancelled (issue 10). */
const DISPATCHED_DELIVERY_STATUSES = ["shipped", "in_transit", "delivered"];

export type CancelOrderResult =
  { ok: true; alreadyCancelled: boolean; refund: StaffRefundResult | null } | { ok: false; code: "not_found" | "refused"; message: string };

/**
 * Issue 10, "Cancelar pedido": staff cancel an order before dispatch, with a reason. Only where the
 * order machine allows `cancelled` and no delivery has gone out. In one transaction (decision 0025:
 * order → payment → delivery → refund) the order is cancelled (its open deliveries with it), a paid
 * order's full refund is recorded (pending for the provider, or manual for money paid offline), the
 * action audited and the customer's e-mail queued; the provider is called after the commit and the
 * order moves cancelled → refunded when the money is back. A repeated submit changes nothing.
 *
 * The refund is checked before anything is written (decision 0071): for operaciones it counts
 * against the per-order refund limit unless the admin's settings let them cancel any amount; an
 * admin's cancellation above the limit records the admin as its approver. A refusal writes nothing.
 */
export async function cancelOrderByStaff(
  db: Database,
  actor: StaffActor,
  input: { orderId: string; reason: string },
  deps: RefundDeps,
): Promise<CancelOrderResult> {
  const requestKey = `cancel:${input.orderId}`;
  // Cancelling gives the money back: the refunding permission.
  if (!may(actor.role, "reembolsos.emitir")) return { ok: false, code: "not_found", message: "Pedido no encontrado" };
  const outcome = await inTransaction(db, async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) return { ok: false as const, code: "not_found" as const, message: "Pedido no encontrado" };
    const from = order.status as OrderStatus;
    const done = { ok: true as const, alreadyCancelled: true, refundId: null as string | null, refundStatus: null as string | null, refundCents: 0 };
    if (from === "cancelled") return done;
    // Cancelled here earlier and refunded since: the same request again.
    if (from === "refunded" && (await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.requestKey, requestKey))).length > 0) return done;
    if (!canTransition(from, "cancelled")) {
      return {
        ok: false as const,
        code: "refused" as const,
        message: `No se puede cancelar un pedido en estado «${orderStatusLabel(from)}». Solo se cancela antes del despacho.`,
      };
    }
    await tx.select({ id: payments.id }).from(payments).where(eq(payments.orderId, order.id)).orderBy(asc(payments.id)).for("update");
    const ownDeliveries = await tx
      .select({ id: deliveries.id, status: deliveries.status })
      .from(deliveries)
      .where(eq(deliveries.orderId, order.id))
      .orderBy(asc(deliveries.id))
      .for("update");
    if (ownDeliveries.some((delivery) => DISPATCHED_DELIVERY_STATUSES.includes(delivery.status))) {
      return { ok: false as const, code: "refused" as const, message: "Una entrega de este pedido ya salió a reparto: ya no se puede cancelar." };
    }
    const [paid] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.status, "succeeded")))
      .limit(1);

    // The refund is planned as for the cancelled order, before anything is written.
    let plan = null;
    if (paid) {
      const planned = await planStaffRefund(tx, actor, {
        order: { ...order, status: "cancelled" },
        amountCents: null,
        note: `Pedido cancelado: ${input.reason}`,
        requestKey,
        reason: "order_cancelled",
        applyLimit: !(await operacionesRefundPolicy(tx)).mayCancelAnyAmount,
        now: deps.now,
      });
      // Nothing to record when all was given back already or a refund is on its way (it carries the
      // money); any other refusal (over the limit) leaves the order as it was.
      if (planned.ok) plan = planned.plan;
      else if (!planned.nothingToRecord) return { ok: false as const, code: "refused" as const, message: planned.message };
    }

    await transitionOrder(tx, order.id, "cancelled", { actor: actor.email, now: deps.now, note: `Cancelado por el equipo: ${input.reason}` });
    const refund = plan ? await writeStaffRefund(tx, actor, plan) : null;
    await recordStaffAction(tx, actor, {
      action: "order.cancel",
      entityType: "order",
      entityId: order.id,
      before: { status: from, deliveries: ownDeliveries.map((delivery) => ({ id: delivery.id, status: delivery.status })) },
      after: {
        status: "cancelled",
        reason: input.reason,
        refund: refund ? { id: refund.id, amountCents: refund.amountCents, status: refund.status, approvedBy: refund.approvedBy } : null,
      },
    });
    const brandName = await readBrandName(tx);
    const email = orderCancelledEmail({
      brandName,
      firstName: order.customerFirstName,
      orderNumber: order.orderNumber,
      reason: input.reason,
      refundCents: refund?.amountCents ?? null,
      manualRefund: refund?.status === "manual",
      receiptUrl: receiptUrl(order.id, deps.siteUrl),
    });
    await enqueueEmail(tx, { dedupeKey: `order-cancelled:${order.id}`, kind: "order-cancelled", to: order.customerEmail, ...email }, deps.now);
    return {
      ok: true as const,
      alreadyCancelled: false,
      refundId: refund?.id ?? null,
      refundStatus: refund?.status ?? null,
      refundCents: refund?.amountCents ?? 0,
    };
  });
  if (!outcome.ok) return outcome;
  if (outcome.alreadyCancelled) return { ok: true, alreadyCancelled: true, refund: null };
  if (!outcome.refundId) return { ok: true, alreadyCancelled: false, refund: null };
  if (outcome.refundStatus === "manual")
    return { ok: true, alreadyCancelled: false, refund: { ok: true, status: "manual", refundId: outcome.refundId, amountCents: outcome.refundCents } };
  return { ok: true, alreadyCancelled: false, refund: await settleStaffRefund(db, outcome.refundId, deps) };
}

/** Whether the cancel page should offer the button: the machine allows it and no delivery has gone out. */
export async function staffCancellationBlocker(db: Database, orderId: string): Promise<string | null> {
  const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  if (!order) return "Pedido no encontrado";
  if (!canTransition(order.status as OrderStatus, "cancelled"))
    return `No se puede cancelar un pedido en estado «${orderStatusLabel(order.status)}». Solo se cancela antes del despacho.`;
  const gone = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(and(eq(deliveries.orderId, orderId), inArray(deliveries.status, DISPATCHED_DELIVERY_STATUSES)))
    .limit(1);
  return gone.length > 0 ? "Una entrega de este pedido ya salió a reparto: ya no se puede cancelar." : null;
}
