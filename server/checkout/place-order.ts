import { and, eq, sql } from "drizzle-orm";
import type { CheckoutInput } from "@core/checkout-schema";
import { deliveryScheduleError } from "@core/delivery-schedule";
import { minimumOrderShortfall, orderSummary } from "@core/pricing";
import { markCartRecovered } from "../cart/index.server";
import { priceCartLines, type PricedCartLine } from "../catalog/index.server";
import type { Database } from "../db/client";
import { verifiedAccountIdByEmail } from "../accounts/index.server";
import { recordPromotionalConsent } from "../consent/index.server";
import { createPendingSubscription } from "../subscriptions/index.server";
import { deliveries, districts, orderItems, orders, orderStatusChanges, organizations, payments } from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { claimSlot, servedDistrictOnDate, SlotUnavailableError } from "../deliveries/index.server";

/** Issue 10: the place was free when the page loaded and was taken before the order was placed. */
export const SLOT_TAKEN_MESSAGE = "Ese horario acaba de llenarse. Elige otra fecha u horario: no se hizo ningún cobro.";

/** A district not in the list, or no longer served (staff changed it at /admin/distritos after the page loaded). */
export const NOT_SERVED_MESSAGE = "Por ahora no repartimos en ese distrito. Elige uno de la lista.";

class DistrictNotServedError extends Error {}

/** A card attempt that is not completed in this window stops being payable (issue 3: expiry). */
export const CARD_PAYMENT_WINDOW_MINUTES = 30;

export type PlaceOrderResult =
  | { ok: true; orderId: string; orderNumber: string; paymentId: string; nextStep: "process_payment"; created: boolean }
  /** Spec §4: a subscription's card form opens next; the subscription waits in pending_payment. */
  | { ok: true; orderId: string; orderNumber: string; paymentId: string; nextStep: "tokenize_card"; subscriptionId: string; created: boolean }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> }
  | { ok: false; reason: "cart_changed"; lines: PricedCartLine[]; unavailable: CheckoutInput["items"] }
  | { ok: false; reason: "minimum"; shortfallCents: number; subtotalCents: number }
  /** A subscription is managed from an account: the buyer must be signed in. */
  | { ok: false; reason: "account_required" }
  /** The date or window filled (or closed) since the page loaded: nothing was written or charged. */
  | { ok: false; reason: "slot_taken"; fieldErrors: Record<string, string> };

/**
 * Creates the order of a checkout: validates the delivery in Lima time, prices every line from the
 * catalogue (the browser's subtotal is only compared), and writes order, items, delivery, status
 * record and payment attempt in one transaction. The checkout key makes a repeated submit return
 * the order it already created.
 */
export async function placeOrder(
  db: Database,
  input: CheckoutInput,
  options: { now: Date; provider: string; userId?: string | null; client?: { address: string; userAgent: string | null } },
): Promise<PlaceOrderResult> {
  // A repeated submit of a placed checkout fails the order's insert on the unique checkout key and
  // is answered below with the order it placed (decision 0064: no lookup before every order). A
  // refusal first looks for that order too, so a repeat is answered with it even if the prices,
  // the calendar or the district changed since it was placed.
  const refuse = async (refusal: PlaceOrderResult) => (await findByCheckoutKey(db, input.checkoutKey)) ?? refusal;

  // The district, its weekdays, the calendar that date and the capacity figures, in one statement (decision 0063).
  const served = await servedDistrictOnDate(db, { districtId: input.districtId, date: input.fecha, window: input.rangoHorario, now: options.now });
  if (!served) return refuse({ ok: false, reason: "invalid", fieldErrors: { districtId: NOT_SERVED_MESSAGE } });
  const district = { id: served.id, name: served.name };
  const scheduleError = deliveryScheduleError({ districtDays: served.dayNumbers, dayNumber: input.diaHabil, date: input.fecha, now: options.now });
  if (scheduleError) return refuse({ ok: false, reason: "invalid", fieldErrors: { [scheduleError.field]: scheduleError.message } });
  // Issue 10: the cut-off the day before and the closed days (holidays) are data staff edit.
  if (served.calendarRefusal) return refuse({ ok: false, reason: "invalid", fieldErrors: { fecha: served.calendarRefusal } });

  const priced = await priceCartLines(db, input.items);
  if (priced.unavailable.length > 0 || priced.subtotalCents !== input.clientSubtotalCents) {
    return refuse({ ok: false, reason: "cart_changed", lines: priced.lines, unavailable: priced.unavailable });
  }
  const shortfallCents = minimumOrderShortfall(priced.subtotalCents);
  if (shortfallCents > 0) return refuse({ ok: false, reason: "minimum", shortfallCents, subtotalCents: priced.subtotalCents });
  const subscribing = input.purchaseType === "subscription";
  if (subscribing && !options.userId) return refuse({ ok: false, reason: "account_required" });
  if (subscribing && input.organizationId !== undefined) {
    const [organization] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.id, input.organizationId), eq(organizations.active, true)));
    if (!organization) return refuse({ ok: false, reason: "invalid", fieldErrors: { organizationId: "Elige una organización de la lista" } });
  }

  const summary = orderSummary(priced.subtotalCents, input.purchaseType, input.subscriptionFrequency);
  const expiresAt = new Date(options.now.getTime() + CARD_PAYMENT_WINDOW_MINUTES * 60_000);
  try {
    return await inTransaction(db, async (tx) => {
      const placed = await writeOrder(tx, { input, options, district, summary, lines: priced.lines, expiresAt });
      if (!placed) throw new DistrictNotServedError();
      const subscriptionId = subscribing
        ? await createPendingSubscription(tx, {
            userId: options.userId!,
            orderId: placed.orderId,
            frequency: input.subscriptionFrequency,
            discountRate: summary.discountRate,
            baseAmountCents: priced.subtotalCents,
            amountCents: summary.totalCents,
            district,
            address: input.direccion,
            deliveryWindow: input.rangoHorario,
            firstDeliveryDate: input.fecha,
            organizationId: input.organizationId ?? null,
            lines: priced.lines.map((line) => ({
              productId: line.productId,
              variantId: line.variantId,
              title: line.title,
              variantTitle: line.variantTitle,
              unitPriceCents: line.unitPriceCents,
              quantity: line.quantity,
            })),
            now: options.now,
          })
        : null;
      // The subscription's first delivery is the order's (its sequence 1).
      if (subscriptionId) await tx.update(deliveries).set({ subscriptionId, subscriptionSequence: 1 }).where(eq(deliveries.id, placed.deliveryId));
      // Issue 12: a ticked box is a consent, stored with the order; an unticked one changes nothing.
      if (input.promociones) {
        const change = { email: input.correo, granted: true, source: "checkout" as const, userId: options.userId ?? null };
        await recordPromotionalConsent(tx, { ...change, clientAddress: options.client?.address, userAgent: options.client?.userAgent }, options.now);
      }
      // Last, right before the commit (decision 0063): every checkout for one date and window waits
      // for this row in turn, so it is held for two statements and the commit, not for the writes
      // above. Locked after the order and the delivery it admits (decision 0025) and counted under
      // the lock, so the last places go to exactly as many checkouts as there are places; the
      // delivery inserted above is this claim's own, not counted as taken.
      const claim = await claimSlot(
        tx,
        { districtId: district.id, date: input.fecha, window: input.rangoHorario },
        {
          excludeDeliveryIds: [placed.deliveryId],
          rules: served.claimRules,
        },
      );
      if (!claim.ok) throw new SlotUnavailableError(claim);
      const result = { ok: true as const, orderId: placed.orderId, orderNumber: placed.orderNumber, paymentId: placed.paymentId, created: true };
      return subscriptionId ? { ...result, nextStep: "tokenize_card" as const, subscriptionId } : { ...result, nextStep: "process_payment" as const };
    });
  } catch (error) {
    if (error instanceof DistrictNotServedError) return { ok: false, reason: "invalid", fieldErrors: { districtId: NOT_SERVED_MESSAGE } };
    if (error instanceof SlotUnavailableError) {
      const message = error.claim.reason === "closed" ? `No repartimos ese día (${error.claim.name}). Elige otra fecha.` : SLOT_TAKEN_MESSAGE;
      return { ok: false, reason: "slot_taken", fieldErrors: { [error.claim.reason === "closed" ? "fecha" : "rangoHorario"]: message } };
    }
    // The checkout key was placed already (a repeated submit, or two at once): the unique key let one through.
    const raced = await findByCheckoutKey(db, input.checkoutKey);
    if (raced) return raced;
    throw error;
  }
}

async function findByCheckoutKey(db: Database, checkoutKey: string): Promise<PlaceOrderResult | null> {
  const [row] = await db
    .select({ orderId: orders.id, orderNumber: orders.orderNumber, paymentId: payments.id, subscriptionId: orders.subscriptionId })
    .from(orders)
    .innerJoin(payments, eq(payments.orderId, orders.id))
    .where(eq(orders.checkoutKey, checkoutKey))
    .orderBy(payments.createdAt)
    .limit(1);
  if (!row) return null;
  const { subscriptionId, ...placed } = row;
  return subscriptionId
    ? { ok: true, ...placed, nextStep: "tokenize_card", subscriptionId, created: false }
    : { ok: true, ...placed, nextStep: "process_payment", created: false };
}

interface OrderWrite {
  input: CheckoutInput;
  options: { now: Date; provider: string; userId?: string | null };
  district: { id: number; name: string };
  summary: ReturnType<typeof orderSummary>;
  lines: PricedCartLine[];
  expiresAt: Date;
}

/**
 * The order, its items, its delivery, its first status line, the abandoned cart it recovers and its
 * payment attempt, in ONE statement (decision 0064: they were six round trips, each a socket write
 * and read of the server's CPU), headed by the district's share lock (decision 0053: staff who stop
 * serving it meanwhile wait for this order, or this order sees the change and stops). Null when the
 * district is no longer served; the caller then rolls back what the statement wrote. The sub-statements
 * see one snapshot and take no lock anyone else waits on but the district's (decision 0025) and the
 * recovered cart's row; their foreign keys are checked at the statement's end, once the order exists.
 */
async function writeOrder(
  tx: Transaction,
  { input, options, district, summary, lines, expiresAt }: OrderWrite,
): Promise<{ orderId: string; orderNumber: string; deliveryId: string; paymentId: string } | null> {
  const subscribing = input.purchaseType === "subscription";
  const servedDistrict = tx.$with("served_district").as(
    tx
      .select({ id: districts.id })
      .from(districts)
      .where(and(eq(districts.id, district.id), eq(districts.served, true)))
      .for("share"),
  );
  const placedOrder = tx.$with("placed_order").as(
    tx
      .insert(orders)
      .values({
        checkoutKey: input.checkoutKey,
        // decisions.md: a guest's order belongs to the (verified) account of its email, without signing in.
        userId: options.userId ?? verifiedAccountIdByEmail(input.correo),
        status: "pending",
        orderType: input.purchaseType,
        subscriptionFrequency: subscribing ? input.subscriptionFrequency : null,
        customerFirstName: input.nombre,
        customerLastName: input.apellido,
        customerEmail: input.correo,
        customerPhone: input.telefono,
        documentType: input.tipo_documento,
        documentNumber: input.dni,
        ruc: input.ruc ?? null,
        businessName: input.ruc ? (input.razonSocial ?? null) : null,
        districtId: district.id,
        districtName: district.name,
        address: input.direccion,
        deliveryDate: input.fecha,
        deliveryWindow: input.rangoHorario,
        deliveryNotes: input.referencia || null,
        subtotalCents: summary.subtotalCents,
        discountCents: summary.discountCents,
        shippingCents: 0,
        totalCents: summary.totalCents,
        paymentProvider: options.provider,
        expiresAt,
        createdAt: options.now,
        updatedAt: options.now,
      })
      .returning({ id: orders.id, orderNumber: orders.orderNumber }),
  );
  const orderId = sql<string>`(select ${placedOrder.id} from ${placedOrder})`;
  const placedItems = tx.$with("placed_items").as(
    tx.insert(orderItems).values(
      lines.map((line) => ({
        orderId,
        productId: line.productId,
        variantId: line.variantId,
        title: line.title,
        variantTitle: line.variantTitle,
        sku: line.sku,
        unitPriceCents: line.unitPriceCents,
        quantity: line.quantity,
        lineTotalCents: line.lineTotalCents,
      })),
    ),
  );
  const placedDelivery = tx.$with("placed_delivery").as(
    tx
      .insert(deliveries)
      .values({
        orderId,
        districtId: district.id,
        districtName: district.name,
        address: input.direccion,
        deliveryDate: input.fecha,
        deliveryWindow: input.rangoHorario,
        status: "pending",
        statusHistory: [{ status: "pending", timestamp: options.now.toISOString(), note: null }],
        notes: input.referencia || null,
        createdAt: options.now,
        updatedAt: options.now,
      })
      .returning({ id: deliveries.id }),
  );
  const firstStatus = tx
    .$with("first_status")
    .as(tx.insert(orderStatusChanges).values({ orderId, fromStatus: null, toStatus: "pending", actor: "customer", createdAt: options.now }));
  const recoveredCart = tx.$with("recovered_cart").as(markCartRecovered(tx, input.correo, orderId));
  const placedPayment = tx.$with("placed_payment").as(
    tx
      .insert(payments)
      .values({
        orderId,
        provider: options.provider,
        status: "created",
        amountCents: summary.totalCents,
        expiresAt,
        createdAt: options.now,
        updatedAt: options.now,
      })
      .returning({ id: payments.id }),
  );
  const [placed] = await tx
    .with(servedDistrict, placedOrder, placedItems, placedDelivery, firstStatus, recoveredCart, placedPayment)
    .select({ orderId: placedOrder.id, orderNumber: placedOrder.orderNumber, deliveryId: placedDelivery.id, paymentId: placedPayment.id })
    .from(placedOrder)
    .crossJoin(placedDelivery)
    .crossJoin(placedPayment)
    .crossJoin(servedDistrict);
  return placed ?? null;
}
