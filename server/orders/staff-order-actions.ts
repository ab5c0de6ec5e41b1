import { and, desc, eq, gt, sql } from "drizzle-orm";
import { orderPlanLabel } from "@core/delivery-cadence";
import { liveSaleInvoiceOf } from "../invoices/index.server";
import type { Database } from "../db/client";
import { readBrandName } from "../content/index.server";
import { invoices, orderItems, orderNotes, orders, outboxEmails, staffActions } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { isUuid } from "../db/uuid";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { enqueueEmail, orderConfirmationEmail } from "../notifications/index.server";
import { reorderUrl } from "../reorders/index.server";
import { orderClaimUrl } from "../accounts/index.server";
import { currentDelivery, currentDeliveryOf } from "./current-delivery";
import { receiptUrl } from "./receipt-access";
import { staffOrderActions } from "./staff-order-detail";

export class StaffOrderNotFoundError extends Error {
  override name = "StaffOrderNotFoundError";
}

/** Locks the order row (decision 0025: the order comes before the rows this transaction inserts). */
async function lockOrder(tx: DatabaseOrTransaction, orderId: string) {
  if (!isUuid(orderId)) throw new StaffOrderNotFoundError(orderId);
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order) throw new StaffOrderNotFoundError(orderId);
  return order;
}

/**
 * Appends an internal note. `requestKey` comes with the form, so the same submission sent twice
 * (double click, a retried request) adds one note and one audit line.
 */
export async function addOrderNote(
  db: Database,
  input: { orderId: string; body: string; requestKey: string; author: StaffActor & { name: string }; now: Date },
): Promise<{ added: boolean }> {
  return inTransaction(db, async (tx) => {
    await lockOrder(tx, input.orderId);
    const [note] = await tx
      .insert(orderNotes)
      .values({
        orderId: input.orderId,
        authorId: input.author.id,
        authorName: input.author.name,
        authorEmail: input.author.email,
        body: input.body,
        requestKey: input.requestKey,
        createdAt: input.now,
      })
      .onConflictDoNothing({ target: orderNotes.requestKey })
      .returning({ id: orderNotes.id });
    if (!note) return { added: false };
    await recordStaffAction(tx, input.author, {
      action: "order.note",
      entityType: "order",
      entityId: input.orderId,
      after: { noteId: note.id, body: input.body },
    });
    return { added: true };
  });
}

export const RESEND_CONFIRMATION_INTERVAL_MS = 60_000;

export type ResendConfirmationResult = { status: "sent" | "already_sent"; to: string } | { status: "too_soon" } | { status: "not_confirmed" };

/**
 * "Reenviar confirmación": the order-confirmation e-mail queued again through the outbox, with the
 * invoice it was confirmed with. The form's `requestKey` is part of the outbox key, so a
 * double-clicked button queues one e-mail; a second resend within a minute (another tab, a
 * reload) is refused, checked under the order's lock so two at once cannot both pass.
 */
export async function resendOrderConfirmation(
  db: Database,
  input: { orderId: string; requestKey: string; actor: StaffActor; siteUrl: string; now: Date },
): Promise<ResendConfirmationResult> {
  return inTransaction(db, async (tx) => {
    const order = await lockOrder(tx, input.orderId);
    const dedupeKey = `order-confirmation:${order.id}:resend:${input.requestKey}`;
    const [queued] = await tx.select({ to: outboxEmails.toAddress }).from(outboxEmails).where(eq(outboxEmails.dedupeKey, dedupeKey));
    if (queued) return { status: "already_sent", to: queued.to };
    const [invoice] = await tx.select({ invoiceNumber: invoices.invoiceNumber }).from(invoices).where(liveSaleInvoiceOf(order.id));
    if (!staffOrderActions({ status: order.status, capturedCents: 0, refundedCents: 0, invoiced: Boolean(invoice) }).resendConfirmation)
      return { status: "not_confirmed" };
    const [recent] = await tx
      .select({ id: staffActions.id })
      .from(staffActions)
      .where(
        and(
          eq(staffActions.entityType, "order"),
          eq(staffActions.entityId, order.id),
          eq(staffActions.action, "order.resend_confirmation"),
          gt(staffActions.createdAt, sql`now() - ${`${RESEND_CONFIRMATION_INTERVAL_MS} milliseconds`}::interval`),
        ),
      )
      .orderBy(desc(staffActions.id))
      .limit(1);
    // Measured on the database's clock, which stamps staff_actions.created_at.
    if (recent) return { status: "too_soon" };

    // In turn: a transaction's one connection takes one query at a time.
    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.id);
    const brandName = await readBrandName(tx);
    // Decision 0062: the date the delivery has now, not the one first asked for.
    const [current] = await tx
      .select({ delivery: currentDeliveryOf(orders.id) })
      .from(orders)
      .where(eq(orders.id, order.id));
    const delivery = currentDelivery(order, current?.delivery ?? null);
    const email = orderConfirmationEmail({
      brandName,
      orderNumber: order.orderNumber,
      invoiceNumber: invoice!.invoiceNumber,
      firstName: order.customerFirstName,
      totalCents: order.totalCents,
      plan: orderPlanLabel(order),
      items,
      address: order.address,
      districtName: order.districtName,
      deliveryDate: delivery.date,
      deliveryPausedUntil: delivery.pausedUntil,
      deliveryWindow: delivery.deliveryWindow,
      receiptUrl: receiptUrl(order.id, input.siteUrl),
      // A resent e-mail carries a fresh link (decision 0076).
      reorderUrl: reorderUrl(order.id, { now: input.now, siteUrl: input.siteUrl }),
      // Issue 39: still a guest order of a proven account's address, the resent e-mail offers it again.
      attachUrl: await orderClaimUrl(tx, order, input.siteUrl),
      garantiaCents: order.garantiaCents,
      garantiaUnits: order.garantiaUnits,
      garantiaCreditCents: order.garantiaCreditCents,
    });
    await enqueueEmail(tx, { dedupeKey, kind: "order-confirmation", to: order.customerEmail, ...email }, input.now);
    await recordStaffAction(tx, input.actor, {
      action: "order.resend_confirmation",
      entityType: "order",
      entityId: order.id,
      after: { to: order.customerEmail },
    });
    return { status: "sent", to: order.customerEmail };
  });
}
