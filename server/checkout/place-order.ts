import { and, eq, sql } from "drizzle-orm";
import { paysWithCents, type CheckoutInput } from "@core/checkout-schema";
import { deliveryScheduleError } from "@core/delivery-schedule";
import { minimumOrderShortfall, orderSummary } from "@core/pricing";
import { monthlySubtotalCents } from "@core/delivery-cadence";
import { markCartRecovered } from "../cart/index.server";
import { cartPricesColumn, pricedCartFromColumn, type PricedCartLine } from "../catalog/index.server";
import type { Database } from "../db/client";
import { requestWhatsappOptIn } from "../whatsapp/index.server";
import { whatsappNumber } from "@core/whatsapp";
import { getIssuer, readDistrict, servedDistrictShareLocked } from "../content/index.server";
import { askForPromotionalConsent } from "../notifications/index.server";
import { createPendingSubscription, liveSubscriptionsOf, secondSubscriptionMessage } from "../subscriptions/index.server";
import { deliveries, orderItems, orders, orderStatusChanges, organizations, payments } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction, type Transaction } from "../db/transaction";
import { preparedStatement } from "../db/prepared-statement";
import { claimSlot, servedDistrictOnDate, SlotUnavailableError } from "../deliveries/index.server";
import { garantiaCreditToApply } from "@core/garantia";
import { availableGarantiaCredit, lockGarantiaCredit } from "../garantias/index.server";
import { priceOrderGarantia, type OrderGarantia } from "./garantia-pricing";
import { doorPaymentOffer } from "./door-payment";
import { DOOR_METHOD_BY_CHOICE, doorPaymentRefusal, PAYS_WITH_TOO_LOW, UNPAID_LIMIT_MESSAGE } from "@core/door-payment";
import { lockAndCountUnpaidHolds, unpaidHoldsFull } from "../orders/index.server";
import { confirmPayAtDoorOrder } from "../payments/index.server";
import { publicSiteUrl } from "../config/env";

/** The payments row's provider for money the driver collects (issue 38). */
export const DOOR_PROVIDER = "contra_entrega";

/** Issue 10: the place was free when the page loaded and was taken before the order was placed. */
export const SLOT_TAKEN_MESSAGE = "Ese horario acaba de llenarse. Elige otra fecha u horario: no se hizo ningún cobro.";

/** A district not in the list, or no longer served (staff changed it at /admin/distritos after the page loaded). */
export const NOT_SERVED_MESSAGE = "Por ahora no repartimos en ese distrito. Elige uno de la lista.";

class DistrictNotServedError extends Error {}
class UnpaidLimitError extends Error {}
class PaysWithTooLowError extends Error {}

/** Contra entrega's own rules (issue 38): never for a subscription, the shop's settings, and "¿con cuánto pagas?" ≥ the total. */
async function doorPaymentRefusalOf(
  db: Database,
  order: { input: CheckoutInput; userId: string | null; totalCents: number; subscribing: boolean },
): Promise<PlaceOrderResult | null> {
  const refused = (message: string, field = "formaPago"): PlaceOrderResult => ({
    ok: false,
    reason: "door_payment_unavailable",
    message,
    fieldErrors: { [field]: message },
  });
  if (order.subscribing) return refused("La suscripción se paga con tarjeta: elige pago en línea.");
  const offer = await doorPaymentOffer(db, order.userId);
  const refusal = doorPaymentRefusal(offer.settings, {
    districtOffers: offer.districtIds.includes(order.input.districtId),
    totalCents: order.totalCents,
    hasDeliveredOrder: offer.hasDeliveredOrder,
  });
  return refusal ? refused(refusal) : null;
}

/** A card attempt that is not completed in this window stops being payable (issue 3: expiry). */
export const CARD_PAYMENT_WINDOW_MINUTES = 30;

export type PlaceOrderResult =
  | { ok: true; orderId: string; orderNumber: string; paymentId: string; nextStep: "process_payment"; created: boolean }
  /** Issue 38: pago contra entrega: confirmed at once, paid to the driver. */
  | { ok: true; orderId: string; orderNumber: string; paymentId: string; nextStep: "pay_at_door"; created: boolean }
  /** Spec §4: a subscription's card form opens next; the subscription waits in pending_payment. */
  | { ok: true; orderId: string; orderNumber: string; paymentId: string; nextStep: "tokenize_card"; subscriptionId: string; created: boolean }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> }
  | { ok: false; reason: "cart_changed"; lines: PricedCartLine[]; unavailable: CheckoutInput["items"] }
  | { ok: false; reason: "minimum"; shortfallCents: number; subtotalCents: number }
  /** A subscription is managed from an account: the buyer must be signed in. */
  | { ok: false; reason: "account_required" }
  /** The date or window filled (or closed) since the page loaded: nothing was written or charged. */
  | { ok: false; reason: "slot_taken"; fieldErrors: Record<string, string> }
  /** Issue 38: this phone or address already holds MAX_OPEN_UNPAID_ORDERS unpaid orders. */
  | { ok: false; reason: "unpaid_limit"; message: string }
  /** Issue 38: contra entrega is not offered for this district, amount or customer. */
  | { ok: false; reason: "door_payment_unavailable"; message: string; fieldErrors: Record<string, string> };

export interface PlaceOrderOptions {
  now: Date;
  provider: string;
  userId?: string | null;
  client?: { address: string; userAgent: string | null };
  /** Who placed it, for the order's history: "customer" (checkout), a staff e-mail ("Nuevo pedido"), "whatsapp". */
  actor?: string;
  /** Staff only ("Nuevo pedido"): place it even when the window is full; the caller audits the reason. */
  capacityOverride?: { reason: string };
  /** The public origin for the e-mail's links (contra entrega confirms at once). */
  siteUrl?: string;
}

/**
 * Creates the order of a checkout: validates the delivery in Lima time, prices every line from the
 * catalogue (the browser's subtotal is only compared), and writes order, items, delivery, status
 * record and payment attempt in one transaction. The checkout key makes a repeated submit return
 * the order it already created.
 */
export async function placeOrder(db: Database, input: CheckoutInput, options: PlaceOrderOptions): Promise<PlaceOrderResult> {
  // A repeated submit of a placed checkout fails the order's insert on the unique checkout key and
  // is answered below with the order it placed (decision 0069: no lookup before every order). A
  // refusal first looks for that order too, so a repeat is answered with it even if the prices,
  // the calendar or the district changed since it was placed.
  const refuse = async (refusal: PlaceOrderResult) => (await findByCheckoutKey(db, input.checkoutKey)) ?? refusal;

  // The district, its weekdays, the calendar that date, the capacity figures (decision 0063) and
  // the cart's prices as they are now, in one statement (decision 0101): every figure still read
  // from the database for this order, every check below still the server's.
  const { served, row } = await servedDistrictOnDate(
    db,
    { districtId: input.districtId, date: input.fecha, window: input.rangoHorario, now: options.now },
    cartPricesColumn(input.items),
  );
  if (!served) return refuse({ ok: false, reason: "invalid", fieldErrors: { districtId: NOT_SERVED_MESSAGE } });
  const district = { id: served.id, name: served.name };
  const scheduleError = deliveryScheduleError({ districtDays: served.dayNumbers, dayNumber: input.diaHabil, date: input.fecha, now: options.now });
  if (scheduleError) return refuse({ ok: false, reason: "invalid", fieldErrors: { [scheduleError.field]: scheduleError.message } });
  // Issue 10: the cut-off the day before and the closed days (holidays) are data staff edit.
  if (served.calendarRefusal) return refuse({ ok: false, reason: "invalid", fieldErrors: { fecha: served.calendarRefusal } });

  const priced = pricedCartFromColumn(row, input.items);
  if (priced.unavailable.length > 0 || priced.subtotalCents !== input.clientSubtotalCents) {
    return refuse({ ok: false, reason: "cart_changed", lines: priced.lines, unavailable: priced.unavailable });
  }
  const shortfallCents = minimumOrderShortfall(priced.subtotalCents);
  if (shortfallCents > 0) return refuse({ ok: false, reason: "minimum", shortfallCents, subtotalCents: priced.subtotalCents });
  const subscribing = input.purchaseType === "subscription";
  if (subscribing && !options.userId) return refuse({ ok: false, reason: "account_required" });
  if (subscribing && !input.otraSuscripcion) {
    // Issue 41: a second live subscription only when the customer said so ("¿Quieres otra?").
    const live = await liveSubscriptionsOf(db, options.userId!);
    if (live.length > 0) return refuse({ ok: false, reason: "invalid", fieldErrors: { otraSuscripcion: secondSubscriptionMessage(live) } });
  }
  const atDoor = input.formaPago === "contra_entrega";
  if (subscribing && input.organizationId !== undefined) {
    const [organization] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.id, input.organizationId), eq(organizations.active, true)));
    if (!organization) return refuse({ ok: false, reason: "invalid", fieldErrors: { organizationId: "Elige una organización de la lista" } });
  }

  // Decision 0097: a subscription is priced on its monthly base, one delivery's products × the
  // cadence's deliveries a month; the cart's minimum above stays per delivery.
  const baseAmountCents = subscribing ? monthlySubtotalCents(priced.subtotalCents, input.deliveryCadence) : priced.subtotalCents;
  const summary = orderSummary(baseAmountCents, input.purchaseType, input.subscriptionFrequency);
  // Decision 0075: the bidón garantía is its own line of the total, never part of the minimum above.
  const garantia = await priceOrderGarantia(db, { lines: priced.lines, userId: options.userId ?? null, email: input.correo, phone: input.telefono });
  const totalCents = summary.totalCents + garantia.cents;
  if (atDoor) {
    const refusal = await doorPaymentRefusalOf(db, { input, userId: options.userId ?? null, totalCents, subscribing });
    if (refusal) return refuse(refusal);
  }
  // A one-time order of a signed-in customer spends their garantía credit (read again under the lock below).
  const creditUser = !subscribing && options.userId && (await availableGarantiaCredit(db, options.userId)) > 0 ? options.userId : null;
  // An order paid at the door has no deadline: it holds its place until delivered or cancelled.
  const expiresAt = atDoor ? null : new Date(options.now.getTime() + CARD_PAYMENT_WINDOW_MINUTES * 60_000);
  try {
    return await inTransaction(db, async (tx) => {
      if (atDoor) {
        // Decision 0025: the district (a reference row) before the phone's and address's hold locks.
        await readDistrict(tx, district.id, "share");
        const holds = await lockAndCountUnpaidHolds(tx, { phone: input.telefono, districtId: district.id, address: input.direccion }, { now: options.now });
        if (unpaidHoldsFull(holds)) throw new UnpaidLimitError();
      }
      let creditCents = 0;
      if (creditUser) {
        // Decision 0025: the district (a reference row, share-locked again by the order's statement)
        // before the customer, whose lock keeps two checkouts from spending the same credit.
        if (!atDoor) await readDistrict(tx, district.id, "share");
        creditCents = garantiaCreditToApply(await lockGarantiaCredit(tx, creditUser), totalCents);
      }
      // "¿Con cuánto pagas?" against what the driver collects: the total less the garantía credit spent.
      const paysWith = paysWithCents(input);
      if (paysWith !== null && paysWith < totalCents - creditCents) throw new PaysWithTooLowError();
      const placed = await writeOrder(tx, { input, options, district, summary, garantia, totalCents, creditCents, lines: priced.lines, expiresAt });
      if (!placed) throw new DistrictNotServedError();
      const subscriptionId = subscribing
        ? await createPendingSubscription(tx, {
            userId: options.userId!,
            orderId: placed.orderId,
            frequency: input.subscriptionFrequency,
            discountRate: summary.discountRate,
            deliveryCadence: input.deliveryCadence,
            baseAmountCents,
            amountCents: summary.totalCents,
            district,
            address: input.direccion,
            point: input.ubicacion,
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
      // Issue 24 (decision 0072): a ticked box asks, with the order; the consent exists once the
      // address's owner confirms it from the e-mail this queues. An unticked one changes nothing.
      if (input.promociones) {
        const ask = { email: input.correo, source: "checkout" as const, userId: options.userId ?? null };
        const evidence = { clientAddress: options.client?.address, userAgent: options.client?.userAgent };
        await askForPromotionalConsent(tx, { ...ask, ...evidence }, await getIssuer(tx), options.now);
      }
      // Issue 25: the WhatsApp box asks for the order's number, with the order; unticked changes
      // nothing. Issue 39: a typed number proves nothing, so the number itself is asked first.
      const whatsappPhone = input.whatsapp ? whatsappNumber(input.telefono) : null;
      if (whatsappPhone) {
        const evidence = { clientAddress: options.client?.address, userAgent: options.client?.userAgent };
        const request = { phone: whatsappPhone, source: "checkout" as const, email: input.correo, userId: options.userId ?? null };
        await requestWhatsappOptIn(tx, { ...request, orderId: placed.orderId, orderNumber: placed.orderNumber, ...evidence }, options.now);
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
      // Staff may take a place beyond a full window (with a reason they are audited for), never a closed day.
      if (!claim.ok && !(claim.reason === "full" && options.capacityOverride)) throw new SlotUnavailableError(claim);
      const result = { ok: true as const, orderId: placed.orderId, orderNumber: placed.orderNumber, paymentId: placed.paymentId, created: true };
      if (subscriptionId) return { ...result, nextStep: "tokenize_card" as const, subscriptionId };
      if (atDoor) {
        await confirmPayAtDoorOrder(tx, placed.orderId, { now: options.now, siteUrl: options.siteUrl ?? publicSiteUrl() });
        return { ...result, nextStep: "pay_at_door" as const };
      }
      return { ...result, nextStep: "process_payment" as const };
    });
  } catch (error) {
    if (error instanceof PaysWithTooLowError)
      return refuse({ ok: false, reason: "door_payment_unavailable", message: PAYS_WITH_TOO_LOW, fieldErrors: { pagaCon: PAYS_WITH_TOO_LOW } });
    if (error instanceof UnpaidLimitError) return refuse({ ok: false, reason: "unpaid_limit", message: UNPAID_LIMIT_MESSAGE });
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
    .select({ orderId: orders.id, orderNumber: orders.orderNumber, paymentId: payments.id, subscriptionId: orders.subscriptionId, provider: payments.provider })
    .from(orders)
    .innerJoin(payments, eq(payments.orderId, orders.id))
    .where(eq(orders.checkoutKey, checkoutKey))
    .orderBy(payments.createdAt)
    .limit(1);
  if (!row) return null;
  const { subscriptionId, provider, ...placed } = row;
  if (subscriptionId) return { ok: true, ...placed, nextStep: "tokenize_card", subscriptionId, created: false };
  return { ok: true, ...placed, nextStep: provider === DOOR_PROVIDER ? "pay_at_door" : "process_payment", created: false };
}

interface OrderWrite {
  input: CheckoutInput;
  options: PlaceOrderOptions;
  district: { id: number; name: string };
  summary: ReturnType<typeof orderSummary>;
  garantia: OrderGarantia;
  /** The order's total: the summary's plus the garantía. */
  totalCents: number;
  /** Garantía credit spent: the payment asks for the total less this. */
  creditCents: number;
  lines: PricedCartLine[];
  expiresAt: Date | null;
}

interface PlacedRow extends Record<string, unknown> {
  order_id: string;
  order_number: string;
  delivery_id: string;
  payment_id: string;
}

/**
 * The order, its items, its delivery, its first status line, the abandoned cart it recovers and its
 * payment attempt, in ONE statement (decision 0069: they were six round trips, each a socket write
 * and read of the server's CPU), headed by the district's share lock (decision 0053: staff who stop
 * serving it meanwhile wait for this order, or this order sees the change and stops). Null when the
 * district is no longer served; the caller then rolls back what the statement wrote. The
 * sub-statements see one snapshot and take no lock anyone else waits on but the district's
 * (decision 0025) and the recovered cart's row; their foreign keys are checked at the statement's
 * end, once the order exists.
 */
async function writeOrder(
  tx: Transaction,
  { input, options, district, summary, garantia, totalCents, creditCents, lines, expiresAt }: OrderWrite,
): Promise<{ orderId: string; orderNumber: string; deliveryId: string; paymentId: string } | null> {
  const subscribing = input.purchaseType === "subscription";
  const atDoor = input.formaPago === "contra_entrega";
  const values: Record<string, unknown> = {
    districtId: district.id,
    districtName: district.name,
    checkoutKey: input.checkoutKey,
    userId: options.userId ?? null,
    // Checkout's schema gives it trimmed and in lower case.
    email: input.correo,
    orderType: input.purchaseType,
    subscriptionFrequency: subscribing ? input.subscriptionFrequency : null,
    deliveryCadence: subscribing ? input.deliveryCadence : null,
    firstName: input.nombre,
    lastName: input.apellido,
    phone: input.telefono,
    documentType: input.tipo_documento,
    documentNumber: input.dni,
    ruc: input.ruc ?? null,
    businessName: input.ruc ? (input.razonSocial ?? null) : null,
    address: input.direccion,
    // Issue 26: the customer's pin, or null (the district's centre stands in for the route).
    lat: input.ubicacion?.lat ?? null,
    lng: input.ubicacion?.lng ?? null,
    date: input.fecha,
    window: input.rangoHorario,
    notes: input.referencia || null,
    subtotalCents: summary.subtotalCents,
    discountCents: summary.discountCents,
    totalCents,
    garantiaUnits: garantia.units,
    garantiaCents: garantia.cents,
    garantiaBasis: garantia.basis,
    garantiaOnComprobante: garantia.onComprobante,
    garantiaCreditCents: creditCents,
    paymentCents: totalCents - creditCents,
    provider: atDoor ? DOOR_PROVIDER : options.provider,
    // Contra entrega's payment waits for the driver (pending, cash or Yape); an online one for the provider.
    paymentStatus: atDoor ? "pending" : "created",
    paymentMethod: atDoor ? DOOR_METHOD_BY_CHOICE[input.metodoContraEntrega] : null,
    paysWithCents: paysWithCents(input),
    actor: options.actor ?? "customer",
    // Cast in the statement: a null would not pass the timestamp column's own mapping.
    expiresAt: expiresAt?.toISOString() ?? null,
    now: options.now,
    statusHistory: [{ status: "pending", timestamp: options.now.toISOString(), note: null }],
  };
  lines.forEach((line, index) => {
    for (const [key, value] of Object.entries(line)) values[`line${index}_${key}`] = value;
  });
  const [placed] = await placeOrderStatement(lines.length)(tx, values);
  return placed ? { orderId: placed.order_id, orderNumber: placed.order_number, deliveryId: placed.delivery_id, paymentId: placed.payment_id } : null;
}

/** One statement per number of lines (at most MAX_ORDER_LINES), each built once. */
const placeOrderStatements = new Map<number, ReturnType<typeof preparedStatement<PlacedRow>>>();

function placeOrderStatement(lineCount: number) {
  let statement = placeOrderStatements.get(lineCount);
  if (!statement) {
    statement = preparedStatement<PlacedRow>(`checkout_place_order_${lineCount}`, (tx) => buildPlaceOrder(tx, lineCount));
    placeOrderStatements.set(lineCount, statement);
  }
  return statement;
}

function buildPlaceOrder(tx: DatabaseOrTransaction, lineCount: number) {
  const value = (name: string) => sql.placeholder(name);
  const servedDistrict = tx.$with("served_district").as(servedDistrictShareLocked(tx, value("districtId")));
  const now = value("now");
  const placedOrder = tx.$with("placed_order").as(
    tx
      .insert(orders)
      .values({
        checkoutKey: value("checkoutKey"),
        // Issue 39 (decision 0072): only the signed-in buyer's account. An e-mail typed at a guest
        // checkout is the order's contact, nothing more: the order enters an account only when its
        // owner adds it, signed in, from the confirmation e-mail's link (server/accounts/order-claim.ts).
        userId: value("userId"),
        status: "pending",
        orderType: value("orderType"),
        subscriptionFrequency: value("subscriptionFrequency"),
        deliveryCadence: value("deliveryCadence"),
        customerFirstName: value("firstName"),
        customerLastName: value("lastName"),
        customerEmail: value("email"),
        customerPhone: value("phone"),
        documentType: value("documentType"),
        documentNumber: value("documentNumber"),
        ruc: value("ruc"),
        businessName: value("businessName"),
        districtId: value("districtId"),
        districtName: value("districtName"),
        address: value("address"),
        addressLat: sql`${value("lat")}::double precision`,
        addressLng: sql`${value("lng")}::double precision`,
        deliveryDate: value("date"),
        deliveryWindow: value("window"),
        deliveryNotes: value("notes"),
        subtotalCents: value("subtotalCents"),
        discountCents: value("discountCents"),
        shippingCents: 0,
        totalCents: value("totalCents"),
        garantiaUnits: value("garantiaUnits"),
        garantiaCents: value("garantiaCents"),
        garantiaBasis: value("garantiaBasis"),
        garantiaOnComprobante: value("garantiaOnComprobante"),
        garantiaCreditCents: value("garantiaCreditCents"),
        paymentProvider: value("provider"),
        expiresAt: sql`${value("expiresAt")}::timestamptz`,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: orders.id, orderNumber: orders.orderNumber }),
  );
  const orderId = sql<string>`(select ${placedOrder.id} from ${placedOrder})`;
  const placedItems = tx.$with("placed_items").as(
    tx.insert(orderItems).values(
      Array.from({ length: lineCount }, (_, index) => {
        const line = (key: keyof PricedCartLine) => value(`line${index}_${key}`);
        return {
          orderId,
          productId: line("productId"),
          variantId: line("variantId"),
          title: line("title"),
          variantTitle: line("variantTitle"),
          sku: line("sku"),
          unitPriceCents: line("unitPriceCents"),
          quantity: line("quantity"),
          lineTotalCents: line("lineTotalCents"),
        };
      }),
    ),
  );
  const placedDelivery = tx.$with("placed_delivery").as(
    tx
      .insert(deliveries)
      .values({
        orderId,
        districtId: value("districtId"),
        districtName: value("districtName"),
        address: value("address"),
        lat: sql`${value("lat")}::double precision`,
        lng: sql`${value("lng")}::double precision`,
        deliveryDate: value("date"),
        deliveryWindow: value("window"),
        status: "pending",
        statusHistory: value("statusHistory"),
        notes: value("notes"),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: deliveries.id }),
  );
  const firstStatus = tx
    .$with("first_status")
    .as(tx.insert(orderStatusChanges).values({ orderId, fromStatus: null, toStatus: "pending", actor: value("actor"), createdAt: now }));
  const recoveredCart = tx.$with("recovered_cart").as(markCartRecovered(tx, value("email"), orderId));
  const placedPayment = tx.$with("placed_payment").as(
    tx
      .insert(payments)
      .values({
        orderId,
        provider: value("provider"),
        status: value("paymentStatus"),
        method: value("paymentMethod"),
        paysWithCents: value("paysWithCents"),
        amountCents: value("paymentCents"),
        expiresAt: sql`${value("expiresAt")}::timestamptz`,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: payments.id }),
  );
  return tx
    .with(servedDistrict, placedOrder, placedItems, placedDelivery, firstStatus, recoveredCart, placedPayment)
    .select({
      orderId: sql<string>`${placedOrder.id}`.as("order_id"),
      orderNumber: sql<string>`${placedOrder.orderNumber}`.as("order_number"),
      deliveryId: sql<string>`${placedDelivery.id}`.as("delivery_id"),
      paymentId: sql<string>`${placedPayment.id}`.as("payment_id"),
    })
    .from(placedOrder)
    .crossJoin(placedDelivery)
    .crossJoin(placedPayment)
    .crossJoin(servedDistrict);
}
