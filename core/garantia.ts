/**
 * The bidón garantía (terms §7 "Bidones retornables", decision 0075): a deposit per returnable
 * bidón the customer does not hold yet. Pure rules the checkout shows and the server charges.
 * Money is integer céntimos; the garantía is never part of the S/ 50 minimum (a deposit, not a sale).
 */

/** One order line as the garantía sees it: how many of its bidones carry one, and the product's amount per bidón. */
export interface GarantiaLine {
  bidones: number;
  unitCents: number;
}

export interface GarantiaCharge {
  /** Bidones whose garantía this order charges. */
  units: number;
  cents: number;
}

/**
 * What an order's garantía is: the bidones the customer already holds (ours, full or empty, at
 * home or on their way in a paid order) are swapped for free; only the rest carry a garantía, each
 * at its product's amount. The held ones cover the lines in order.
 */
export function garantiaCharge(lines: readonly GarantiaLine[], heldBidones: number): GarantiaCharge {
  let cover = Math.max(0, Math.floor(heldBidones));
  let units = 0;
  let cents = 0;
  for (const line of lines) {
    if (line.bidones <= 0 || line.unitCents <= 0) continue;
    const covered = Math.min(cover, line.bidones);
    cover -= covered;
    const charged = line.bidones - covered;
    units += charged;
    cents += charged * line.unitCents;
  }
  return { units, cents };
}

/**
 * The least a payment may take once a garantía credit is applied: the providers cannot charge
 * zero, so a credit larger than an order leaves S/ 1.00 to pay and keeps the rest for later.
 */
export const MINIMUM_CHARGE_CENTS = 100;

/** How much of a customer's garantía credit an order uses: all of it, up to the order's total less the minimum charge. */
export function garantiaCreditToApply(availableCents: number, orderTotalCents: number): number {
  return Math.max(0, Math.min(availableCents, orderTotalCents - MINIMUM_CHARGE_CENTS));
}

/**
 * What goes back when bidones come home (decision 0075): `units` of a garantía held as
 * `heldUnits` bidones for `heldCents`. The last bidón takes what rounding left, so a garantía
 * returned bidón by bidón adds up to what was paid, to the céntimo.
 */
export function garantiaReturnCents(heldUnits: number, heldCents: number, units: number): number {
  if (units >= heldUnits) return heldCents;
  return Math.round((heldCents * units) / heldUnits);
}

/** How a returned garantía comes back: through the payment provider, or as credit on the next order. */
export type GarantiaReturnPreference = "refund" | "credit";
export const DEFAULT_GARANTIA_RETURN: GarantiaReturnPreference = "refund";

export const garantiaReturnLabels: Record<GarantiaReturnPreference, string> = {
  refund: "Devolución al medio de pago con el que pagaste",
  credit: "Crédito para tu próximo pedido",
};

/** Where the comprobante puts the garantía (an accountant's decision, VERIFY; decision 0075). */
export type GarantiaComprobanteMode = "inafecto" | "fuera";
export const garantiaComprobanteModeLabels: Record<GarantiaComprobanteMode, string> = {
  inafecto: "Línea aparte, inafecta al IGV",
  fuera: "Fuera del comprobante (solo en el pedido)",
};
