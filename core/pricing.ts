import { formatSoles } from "./money";
/**
 * Order summary rules of spec §9, in céntimos. The browser shows them; the server computes them
 * again from its own catalogue and never takes the browser's numbers.
 */
export type PurchaseType = "one-time" | "subscription";
export type SubscriptionFrequency = "mensual" | "anual";

export const MINIMUM_ORDER_CENTS = 5000;
export const SUBSCRIPTION_DISCOUNT = { mensual: 0.05, anual: 0.15 } as const;
export const IGV_RATE = 0.18;

export interface OrderSummary {
  /** What the lines add up to (for anual: twelve months of them). */
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  discountRate: number;
}

export function orderSummary(cartSubtotalCents: number, purchaseType: PurchaseType, frequency: SubscriptionFrequency): OrderSummary {
  if (purchaseType === "one-time") {
    return { subtotalCents: cartSubtotalCents, discountCents: 0, totalCents: cartSubtotalCents, discountRate: 0 };
  }
  if (frequency === "mensual") {
    const discountCents = Math.round(cartSubtotalCents * SUBSCRIPTION_DISCOUNT.mensual);
    // Spec §9: the larger of S/ 50 and 95% of the subtotal.
    const totalCents = Math.max(MINIMUM_ORDER_CENTS, cartSubtotalCents - discountCents);
    return { subtotalCents: cartSubtotalCents, discountCents: cartSubtotalCents - totalCents, totalCents, discountRate: SUBSCRIPTION_DISCOUNT.mensual };
  }
  const yearCents = cartSubtotalCents * 12;
  const discountCents = Math.round(yearCents * SUBSCRIPTION_DISCOUNT.anual);
  return { subtotalCents: yearCents, discountCents, totalCents: yearCents - discountCents, discountRate: SUBSCRIPTION_DISCOUNT.anual };
}

/** Spec §5: what is missing to reach the minimum order, 0 when reached. */
export function minimumOrderShortfall(cartSubtotalCents: number): number {
  return Math.max(0, MINIMUM_ORDER_CENTS - cartSubtotalCents);
}

/**
 * Spec §5 'Pedido Mínimo Requerido': at checkout it names a 'de suscripción' or 'único' order. A
 * subscription's minimum is per delivery (decision 0097): each delivery is a trip, and the cart is
 * what each delivery carries, whatever the cadence.
 */
export function minimumOrderText(orderKind?: "suscripción" | "único"): string {
  const minimum = formatSoles(MINIMUM_ORDER_CENTS);
  if (orderKind === "suscripción") return `El pedido mínimo de suscripción es de ${minimum} por entrega: cada entrega lleva al menos ${minimum} en productos.`;
  return orderKind === "único" ? `El pedido mínimo único es de ${minimum}.` : `El pedido mínimo es de ${minimum}.`;
}

/** Prices include IGV (decisions.md): the taxable base and the tax inside a total. */
export function igvBreakdown(totalCents: number): { taxableCents: number; igvCents: number } {
  const taxableCents = Math.round(totalCents / (1 + IGV_RATE));
  return { taxableCents, igvCents: totalCents - taxableCents };
}
