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
 * The order row and its lines, as `status` says: `pending` for a period paid later through its
 * link, `paid` for a card renewal whose charge already went through. A subscription without lines
 * throws: an order with nothing in it is never written.
 */
async function insertOrderWithLines(
  tx: DatabaseOrTransaction,
  subscription: Subscription,
  period: Period,
  source: RenewalOrderSource,
  options: NewRenewalOrder & { paid: boolean },
) {
  if (!source.customer) throw new Error(`Subscription ${subscription.id} has no first order to copy the customer from`);
  if (source.items.length === 0) throw new Error(`Subscription ${subscription.id} has no items: its renewal order would be empty`);
  // The period was priced with the frequency in force when it began (a pending change included).
  const frequency = frequencyOfNextPeriod(subscription);
  const summary = orderSummary(subscription.baseAmountCents, "subscription", frequency);
  const [order] = await tx
    .insert(orders)
    .values({
      userId: subscription.userId,
      subscriptionId: subscription.id,
      status: options.paid ? "paid" : "pending",
      orderType: "subscription",
      subscriptionFrequency: frequency,
      ...source.customer,
      districtId: subscription.districtId,
      districtName: subscription.districtName,
      address: subscription.address,
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
    })
    .returning();
  const lines = source.items.map((item) => ({
    orderId: order!.id,
    productId: item.productId,
    variantId: item.variantId,
    title: item.title,
    variantTitle: item.variantTitle,
    unitPriceCents: item.unitPriceCents,
    quantity: item.quantity,
    lineTotalCents: item.unitPriceCents * item.quantity,
  }));
  await tx.insert(orderItems).values(lines);
  return { order: order!, lines };
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
  const { order } = await insertOrderWithLines(tx, subscription, period, source, { ...options, paid: false });
  await tx.insert(orderStatusChanges).values({
    orderId: order.id,
    fromStatus: null,
    toStatus: "pending",
    actor: "system",
    note: `Renovación periodo ${period.periodNumber}`,
    createdAt: options.now,
  });
  const [payment] = await tx
    .insert(payments)
    .values({
      orderId: order.id,
      provider: options.provider,
      method: options.method,
      status: "created",
      amountCents: period.amountCents,
      expiresAt: options.expiresAt,
      createdAt: options.now,
      updatedAt: options.now,
    })
    .returning({ id: payments.id });
  return { orderId: order.id, paymentId: payment!.id, orderNumber: order.orderNumber };
}

/**
 * A card renewal's order, written already paid: the order, its lines, the history a pending order
 * settled by the charge would have (created pending, then paid by the system) and its one settled
 * payment carrying the provider's charge id. Four inserts where creating it pending and settling
 * it took about fourteen statements; the invoice and the confirmation e-mail follow through the
 * payments domain's `confirmPaidOrder`, as settlement does them.
 */
export async function insertPaidRenewalOrder(
  tx: DatabaseOrTransaction,
  subscription: Subscription,
  period: Period,
  source: RenewalOrderSource,
  charge: { provider: string; chargeId: string; now: Date },
) {
  const { order, lines } = await insertOrderWithLines(tx, subscription, period, source, {
    provider: charge.provider,
    method: "card",
    now: charge.now,
    expiresAt: null,
    paid: true,
  });
  await tx.insert(orderStatusChanges).values([
    { orderId: order.id, fromStatus: null, toStatus: "pending", actor: "system", note: `Renovación periodo ${period.periodNumber}`, createdAt: charge.now },
    { orderId: order.id, fromStatus: "pending", toStatus: "paid", actor: "system", note: null, createdAt: charge.now },
  ]);
  await tx.insert(payments).values({
    orderId: order.id,
    provider: charge.provider,
    method: "card",
    status: "succeeded",
    amountCents: period.amountCents,
    providerReference: charge.chargeId,
    settledAt: charge.now,
    expiresAt: null,
    createdAt: charge.now,
    updatedAt: charge.now,
  });
  return { order, lines };
}
