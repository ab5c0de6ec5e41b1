import { and, eq, inArray } from "drizzle-orm";
import { formatSoles } from "@core/money";
import { MINIMUM_ORDER_CENTS, minimumOrderShortfall, orderSummary } from "@core/pricing";
import { cadenceOf, monthlySubtotalCents } from "@core/delivery-cadence";
import { priceCartLines, type CartLineRequest } from "../../catalog/index.server";
import type { Database } from "../../db/client";
import { subscriptionItems, subscriptionPeriods, subscriptions } from "../../db/schema";
import type { DatabaseOrTransaction } from "../../db/transaction";
import {
  changeOwnedSubscription,
  refuse,
  shortDate,
  stateRefusal,
  type Refusal,
  type SelfServiceContext,
  type SelfServiceResult,
  type Subscription,
} from "./change";

type Frequency = "mensual" | "anual";

/** "S/ 57.00 al mes" / "S/ 612.00 al año": what one billing period charges. */
export function perPeriodLabel(amountCents: number, frequency: Frequency): string {
  return `${formatSoles(amountCents)} ${frequency === "anual" ? "al año" : "al mes"}`;
}

/** Spec §5 'Pedido Mínimo Requerido', the cart's message, for a subscription's monthly subtotal. */
export function minimumOrderMessage(subtotalCents: number): string {
  return `Pedido Mínimo Requerido: el pedido mínimo de suscripción es de ${formatSoles(MINIMUM_ORDER_CENTS)}. Monto actual: ${formatSoles(subtotalCents)}. Te faltan: ${formatSoles(minimumOrderShortfall(subtotalCents))}`;
}

/**
 * The next unpaid period's ledger row, if renewals already created it (a declined renewal waiting
 * for its retry), takes a new price too; one being charged right now cannot change.
 */
export async function repriceOpenPeriod(
  tx: DatabaseOrTransaction,
  subscription: Subscription,
  baseAmountCents: number,
  frequency: Frequency,
  now: Date,
): Promise<Refusal | null> {
  const [period] = await tx
    .select({ id: subscriptionPeriods.id, status: subscriptionPeriods.status })
    .from(subscriptionPeriods)
    .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.periodNumber, subscription.nextPeriodNumber)))
    .for("update");
  if (period?.status === "charging") return refuse("Estamos cobrando tu suscripción en este momento. Intenta nuevamente en unos minutos.");
  if (period) {
    await tx
      .update(subscriptionPeriods)
      .set({ amountCents: orderSummary(baseAmountCents, "subscription", frequency).totalCents, updatedAt: now })
      .where(and(eq(subscriptionPeriods.id, period.id), inArray(subscriptionPeriods.status, ["due", "failed"])));
  }
  return null;
}

/**
 * Change products and quantities (issue 5): priced by the server from the active catalogue, at
 * least S/ 50 a month (spec §5), effective from the next period. The period already paid keeps
 * its order and products; the next charge and the deliveries it pays for use the new ones.
 */
export async function changeSubscriptionProducts(
  db: Database,
  input: SelfServiceContext & { lines: CartLineRequest[]; invalidQuantities?: boolean },
): Promise<SelfServiceResult> {
  const priced = await priceCartLines(db, mergeLines(input.lines));
  return changeOwnedSubscription(db, input, "products", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "products");
    if (refusal) return refusal;
    if (input.invalidQuantities || input.lines.some((line) => !Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > 99)) {
      return refuse("Las cantidades deben ser números enteros entre 0 y 99", "products");
    }
    if (input.lines.length === 0) return refuse("Elige al menos un producto", "products");
    if (priced.unavailable.length > 0) return refuse("Algunos productos ya no están disponibles. Revisa tu selección.", "products");
    if (minimumOrderShortfall(priced.subtotalCents) > 0) return refuse(minimumOrderMessage(priced.subtotalCents), "products");

    const current = await tx.select().from(subscriptionItems).where(eq(subscriptionItems.subscriptionId, subscription.id));
    if (sameLines(current, priced.lines)) return refuse("No hay cambios en tus productos", "products");
    const frequency = subscription.frequency as Frequency;
    const nextFrequency = (subscription.pendingFrequency ?? subscription.frequency) as Frequency;
    // Decision 0097: the monthly base is one delivery's products × the cadence's deliveries a month.
    const baseAmountCents = monthlySubtotalCents(priced.subtotalCents, cadenceOf(subscription.deliveryCadence));
    const repriced = await repriceOpenPeriod(tx, subscription, baseAmountCents, nextFrequency, input.now);
    if (repriced) return repriced;

    await tx.delete(subscriptionItems).where(eq(subscriptionItems.subscriptionId, subscription.id));
    await tx.insert(subscriptionItems).values(
      priced.lines.map((line) => ({
        subscriptionId: subscription.id,
        productId: line.productId,
        variantId: line.variantId,
        title: line.title,
        variantTitle: line.variantTitle,
        unitPriceCents: line.unitPriceCents,
        quantity: line.quantity,
      })),
    );
    await tx
      .update(subscriptions)
      .set({
        baseAmountCents,
        amountCents: orderSummary(baseAmountCents, "subscription", frequency).totalCents,
        updatedAt: input.now,
      })
      .where(eq(subscriptions.id, subscription.id));
    const nextCharge = orderSummary(baseAmountCents, "subscription", nextFrequency).totalCents;
    const list = priced.lines.map((line) => `${line.quantity} × ${line.title}${line.variantTitle ? ` (${line.variantTitle})` : ""}`).join(", ");
    return {
      kind: "products_changed",
      description: `Productos cambiados desde el cobro del ${shortDate(subscription.nextBillingDate!)}: ${list}. Nuevo cobro: ${perPeriodLabel(nextCharge, nextFrequency)}.`,
      details: {
        previous: current.map((item) => ({ productId: item.productId, variantId: item.variantId, quantity: item.quantity })),
        lines: priced.lines.map((line) => ({ productId: line.productId, variantId: line.variantId, quantity: line.quantity })),
        baseAmountCents,
        nextChargeCents: nextCharge,
      },
    };
  });
}

function mergeLines(lines: CartLineRequest[]): CartLineRequest[] {
  const merged = new Map<string, CartLineRequest>();
  for (const line of lines) {
    const key = `${line.productId}:${line.variantId ?? ""}`;
    const existing = merged.get(key);
    merged.set(key, existing ? { ...existing, quantity: existing.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

function sameLines(
  current: (typeof subscriptionItems.$inferSelect)[],
  next: { productId: number; variantId: number | null; quantity: number; unitPriceCents: number }[],
): boolean {
  const key = (line: { productId: number; variantId: number | null; quantity: number; unitPriceCents: number }) =>
    `${line.productId}:${line.variantId ?? ""}:${line.quantity}:${line.unitPriceCents}`;
  const a = current.map(key).sort();
  const b = next.map(key).sort();
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
