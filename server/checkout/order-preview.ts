import { garantiaCreditToApply } from "@core/garantia";
import { minimumOrderShortfall, orderSummary } from "@core/pricing";
import { priceCartLines, type CartLineRequest, type PricedCartLine } from "../catalog/index.server";
import type { Database } from "../db/client";
import { availableGarantiaCredit } from "../garantias/index.server";
import { priceOrderGarantia } from "./garantia-pricing";

export interface OneTimeOrderPreview {
  lines: PricedCartLine[];
  /** Lines whose product or presentation is no longer on sale. */
  unavailable: CartLineRequest[];
  subtotalCents: number;
  /** What is missing to reach the S/ 50 minimum (0 when reached); the garantía never counts. */
  shortfallCents: number;
  garantiaUnits: number;
  garantiaCents: number;
  /** The order's total: subtotal plus garantía. */
  totalCents: number;
  /** The account's garantía credit the order would spend. */
  creditCents: number;
  /** What the customer pays: the total less the credit. */
  toPayCents: number;
}

/**
 * What a one-time order would cost if it were placed now, priced exactly as `placeOrder` prices
 * it (catalogue prices, the minimum, the bidón garantía for the bidones the customer does not hold,
 * an account's garantía credit), for the office's live total on "Nuevo pedido" (issue 38). Reads
 * only; placing the order prices it again.
 */
export async function previewOneTimeOrder(
  db: Database,
  input: { lines: CartLineRequest[]; userId: string | null; email: string; phone: string },
): Promise<OneTimeOrderPreview> {
  const priced = await priceCartLines(db, input.lines);
  const summary = orderSummary(priced.subtotalCents, "one-time", "mensual");
  const garantia = await priceOrderGarantia(db, { lines: priced.lines, userId: input.userId, email: input.email, phone: input.phone });
  const totalCents = summary.totalCents + garantia.cents;
  const available = input.userId && totalCents > 0 ? await availableGarantiaCredit(db, input.userId) : 0;
  const creditCents = available > 0 ? garantiaCreditToApply(available, totalCents) : 0;
  return {
    lines: priced.lines,
    unavailable: priced.unavailable,
    subtotalCents: priced.subtotalCents,
    shortfallCents: minimumOrderShortfall(priced.subtotalCents),
    garantiaUnits: garantia.units,
    garantiaCents: garantia.cents,
    totalCents,
    creditCents,
    toPayCents: totalCents - creditCents,
  };
}
