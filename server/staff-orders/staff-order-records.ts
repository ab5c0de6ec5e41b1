import { eq } from "drizzle-orm";
import { whatsappNumber } from "@core/whatsapp";
import type { StaffPaymentChoice } from "@core/staff-order-form";
import { hasStaffAction, recordStaffActions, type StaffActionEntry, type StaffActor } from "../audit/index.server";
import { getIssuer } from "../content/index.server";
import type { Database } from "../db/client";
import { orders } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { askForPromotionalConsent } from "../notifications/index.server";
import { requestWhatsappOptIn, type WhatsappOptInOutcome } from "../whatsapp/index.server";

export const STAFF_CREATED_ACTION = "order.staff_created";
export const CAPACITY_OVERRIDE_ACTION = "order.capacity_override";

export interface StaffOrderPlacement {
  actor: StaffActor;
  now: Date;
  orderId: string;
  orderNumber: string;
  /** Who it is for: an account found by the search, a guest found by their orders, or a new customer. */
  customer: "account" | "guest" | "new";
  userId: string | null;
  email: string;
  phone: string;
  payment: StaffPaymentChoice;
  capacityOverride: { reason: string; date: string; window: string } | null;
  /** The boxes the office ticked as the customer said on the phone (decision 0091). */
  promociones: boolean;
  whatsapp: boolean;
}

/**
 * What follows an order the office placed (decision 0091), once per order: the audit row
 * `order.staff_created` (who, for whom, how it is paid, what the customer agreed to on the phone),
 * `order.capacity_override` with the reason when it passed a full window, and the consent the
 * customer gave on the phone, asked the way every box asks (decisions 0072, 0088): the
 * promotions' confirmation e-mail; for WhatsApp, the question to the number, or the opt-in itself
 * when the number is already proven the account's. Sources `telefono`.
 *
 * `placeOrder` commits the order in its own transaction, so this is a second one; it runs under
 * the order's row lock and writes nothing when `order.staff_created` is there already, so a double
 * submit, or the retry of one that failed after the order committed, records it exactly once.
 */
export async function recordStaffOrderPlaced(db: Database, placement: StaffOrderPlacement): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, placement.orderId)).for("update");
    if (!order) return;
    if (await hasStaffAction(tx, { action: STAFF_CREATED_ACTION, entityType: "order", entityId: placement.orderId })) return;

    const promotions = placement.promociones
      ? (await askForPromotionalConsent(
          tx,
          { email: placement.email, source: "telefono", userId: placement.userId, clientAddress: placement.actor.clientAddress, userAgent: null },
          await getIssuer(tx),
          placement.now,
        ))
        ? "asked"
        : "not_asked"
      : null;
    const phone = placement.whatsapp ? whatsappNumber(placement.phone) : null;
    const whatsapp: WhatsappOptInOutcome | "not_a_mobile" | null = placement.whatsapp
      ? phone
        ? await requestWhatsappOptIn(
            tx,
            {
              phone,
              source: "telefono",
              userId: placement.userId,
              email: placement.email,
              orderId: placement.orderId,
              orderNumber: placement.orderNumber,
              clientAddress: placement.actor.clientAddress,
              userAgent: null,
            },
            placement.now,
          )
        : "not_a_mobile"
      : null;

    const entries: StaffActionEntry[] = [
      {
        action: STAFF_CREATED_ACTION,
        entityType: "order",
        entityId: placement.orderId,
        before: null,
        after: {
          orderNumber: placement.orderNumber,
          customer: placement.customer,
          userId: placement.userId,
          payment: placement.payment,
          consentByPhone: { promociones: promotions, whatsapp },
        },
      },
    ];
    if (placement.capacityOverride)
      entries.push({
        action: CAPACITY_OVERRIDE_ACTION,
        entityType: "order",
        entityId: placement.orderId,
        before: null,
        after: placement.capacityOverride,
      });
    await recordStaffActions(tx, placement.actor, entries);
  });
}
