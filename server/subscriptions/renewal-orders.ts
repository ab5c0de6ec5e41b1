import { asc, eq, sql } from "drizzle-orm";
import { orderSummary } from "@core/pricing";
import { orderItems, orders, orderStatusChanges, payments, subscriptionItems, subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { frequencyOfNextPeriod, type Period, type Subscription } from "./period-ledger";

/**
 * A period's order: the customer's details copied from the subscription's first (checkout) order,
 * the lines from the subscription's own items (their stored prices, decision 0023).
 */

/** What a renewal order copies: the first order's customer fields and the subscription's lines. */
export interface RenewalOrderSource {
  customer: Pick<
    typeof orders.$inferSelect,
    "customerFirstName" | "customerLastName" | "customerEmail" | "customerPhone" | "documentType" | "documentNumber" | "ruc" | "businessName"
  >;
  items: Pick<typeof subscriptionItems.$inferSelect, "productId" | "variantId" | "title" | "variantTitle" | "unitPriceCents" | "quantity">[];
}

/** The first order's customer fields, selectable beside the subscription (see `lockSubscriptionForRenewal`). */
export const firstOrderCustomer = {
  customerFirstName: orders.customerFirstName,
  customerLastName: orders.customerLastName,
  customerEmail: orders.customerEmail,
  customerPhone: orders.customerPhone,
  documentType: orders.documentType,
  documentNumber: orders.documentNumber,
  ruc: orders.ruc,
  businessName: orders.businessName,
};

/** The subscription's lines as one JSON column, in id order, so they come with the row that selects the subscription. */
export const subscriptionLines = sql<RenewalOrderSource["items"]>`(
  select coalesce(json_agg(json_build_object(
    'productId', si.product_id, 'variantId', si.variant_id, 'title', si.title, 'variantTitle', si.variant_title,
    'unitPriceCents', si.unit_price_cents, 'quantity', si.quantity) order by si.id), '[]'::json)
  from ${subscriptionItems} si where si.subscription_id = ${subscriptions.id})`;

/**
 * Reads the source on its own (two statements): the payment-link path, which creates one order
 * per period and is not the hot path.
 */
async function readRenewalOrderSource(tx: DatabaseOrTransaction, subscription: Subscription): Promise<RenewalOrderSource> {
  const [customer] = await tx.select(firstOrderCustomer).from(orders).where(eq(orders.id, subscription.orderId!));
  const items = await tx
    .select({
      productId: subscriptionItems.productId,
      variantId: subscriptionItems.variantId,
      title: subscriptionItems.title,
      variantTitle: subscriptionItems.variantTitle,
      unitPriceCents: subscriptionItems.unitPriceCents,
      quantity: subscriptionItems.quantity,
    })
    .from(subscriptionItems)
    .where(eq(subscriptionItems.subscriptionId, subscription.id))
    .orderBy(asc(subscriptionItems.id));
  return { customer: customer!, items };
}

interface NewRenewalOrder {
  provider: string;
  method: "card" | null;
  now: Date;
  expiresAt: Date | null;
}

/**
 * The order row of a period, as `paid` says: `pending` for a period paid later through its link,
 * `paid` for a card renewal whose charge already went through. A subscription without lines
 * throws: an order with nothing in it is never written.
 */
function renewalOrderValues(subscription: Subscription, period: Period, source: RenewalOrderSource, options: NewRenewalOrder & { paid: boolean }) {
  if (!source.customer) throw new Error(`Subscription ${subscription.id} has no first order to copy the customer from`);
  if (source.items.length === 0) throw new Error(`Subscription ${subscription.id} has no items: its renewal order would be empty`);
  // The period was priced with the frequency in force when it began (a pending change included).
  const frequency = frequencyOfNextPeriod(subscription);
  const summary = orderSummary(subscription.baseAmountCents, "subscription", frequency);
  return {
    userId: subscription.userId,
    subscriptionId: subscription.id,
    status: options.paid ? "paid" : "pending",
    orderType: "subscription",
    subscriptionFrequency: frequency,
    // Decision 0097: its deliveries are counted by the cadence it was billed with (the base already holds it).
    deliveryCadence: subscription.deliveryCadence,
    ...source.customer,
    districtId: subscription.districtId,
    districtName: subscription.districtName,
    address: subscription.address,
    addressLat: subscription.addressLat,
    addressLng: subscription.addressLng,
    deliveryDate: subscription.nextDeliveryDate ?? period.billingDate,
    deliveryWindow: subscription.deliveryWindow,
    subtotalCents: summary.subtotalCents,
    discountCents: summary.discountCents,
    totalCents: period.amountCents,
    paymentProvider: options.provider,
    paymentMethod: options.method,
    paidAt: options.paid ? options.now : null,
    expiresAt: options.expiresAt,
    createdAt: options.now,
    updatedAt: options.now,
  } satisfies typeof orders.$inferInsert;
}

/** The order's lines, copied from the subscription's items. */
function renewalLineValues(orderId: string, source: RenewalOrderSource) {
  return source.items.map((item) => ({
    orderId,
    productId: item.productId,
    variantId: item.variantId,
    title: item.title,
    variantTitle: item.variantTitle,
    unitPriceCents: item.unitPriceCents,
    quantity: item.quantity,
    lineTotalCents: item.unitPriceCents * item.quantity,
  }));
}

/**
 * A period's order, pending with its payment attempt, for the customer to pay through the emailed
 * link (payment_link billing).
 */
export async function insertRenewalOrder(
  tx: DatabaseOrTransaction,
  subscription: Subscription,
  period: Period,
  options: NewRenewalOrder,
): Promise<{ orderId: string; paymentId: string; orderNumber: string }> {
  const source = await readRenewalOrderSource(tx, subscription);
  const [order] = await tx
    .insert(orders)
    .values(renewalOrderValues(subscription, period, source, { ...options, paid: false }))
    .returning({ id: orders.id, orderNumber: orders.orderNumber });
  await tx.insert(orderItems).values(renewalLineValues(order!.id, source));
  await tx.insert(orderStatusChanges).values({
    orderId: order!.id,
    fromStatus: null,
    toStatus: "pending",
    actor: "system",
    note: `Renovación periodo ${period.periodNumber}`,
    createdAt: options.now,
  });
  const [payment] = await tx
    .insert(payments)
    .values({
      orderId: order!.id,
      provider: options.provider,
      method: options.method,
      status: "created",
      amountCents: period.amountCents,
      expiresAt: options.expiresAt,
      createdAt: options.now,
      updatedAt: options.now,
    })
    .returning({ id: payments.id });
  return { orderId: order!.id, paymentId: payment!.id, orderNumber: order!.orderNumber };
}

export interface PaidRenewal {
  subscription: Subscription;
  period: Period;
  source: RenewalOrderSource;
  charge: { provider: string; chargeId: string };
}

/**
 * Card renewals' orders, written already paid (decision 0046): each order, its lines, the history
 * a pending order settled by the charge would have (created pending, then paid by the system) and
 * its one settled payment carrying the provider's charge id. Four inserts for the whole batch,
 * whatever its size; the invoices and confirmation e-mails follow through the payments domain's
 * `confirmPaidOrders`. Returns each renewal's order and lines, in the order of `paid`.
 */
export async function insertPaidRenewalOrders(tx: DatabaseOrTransaction, paid: readonly PaidRenewal[], now: Date) {
  if (paid.length === 0) return [];
  const inserted = await tx
    .insert(orders)
    .values(
      paid.map(({ subscription, period, source, charge }) =>
        renewalOrderValues(subscription, period, source, { provider: charge.provider, method: "card", now, expiresAt: null, paid: true }),
      ),
    )
    .returning();
  // A batch holds one period per subscription, so the subscription names its order.
  const orderOf = new Map(inserted.map((order) => [order.subscriptionId, order]));
  const ordered = paid.map(({ subscription }) => orderOf.get(subscription.id)!);
  const lines = await tx
    .insert(orderItems)
    .values(paid.flatMap(({ source }, index) => renewalLineValues(ordered[index]!.id, source)))
    .returning();
  await tx.insert(orderStatusChanges).values(
    paid.flatMap(({ period }, index) => [
      {
        orderId: ordered[index]!.id,
        fromStatus: null,
        toStatus: "pending",
        actor: "system",
        note: `Renovación periodo ${period.periodNumber}`,
        createdAt: now,
      },
      { orderId: ordered[index]!.id, fromStatus: "pending", toStatus: "paid", actor: "system", note: null, createdAt: now },
    ]),
  );
  await tx.insert(payments).values(
    paid.map(({ period, charge }, index) => ({
      orderId: ordered[index]!.id,
      provider: charge.provider,
      method: "card",
      status: "succeeded",
      amountCents: period.amountCents,
      providerReference: charge.chargeId,
      settledAt: now,
      expiresAt: null,
      createdAt: now,
      updatedAt: now,
    })),
  );
  // In id order, as the invoice's lines read them (saleTotalsOf).
  const linesOf = new Map<string, typeof lines>();
  for (const line of [...lines].sort((a, b) => a.id - b.id)) linesOf.set(line.orderId, [...(linesOf.get(line.orderId) ?? []), line]);
  return ordered.map((order) => ({ order, lines: linesOf.get(order.id)! }));
}
