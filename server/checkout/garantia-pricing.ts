import { garantiaCharge, type GarantiaCharge } from "@core/garantia";
import type { PricedCartLine } from "../catalog/index.server";
import { getSiteSettings } from "../content/index.server";
import type { Database } from "../db/client";
import { bidonBalance } from "../deliveries/index.server";
import { availableGarantiaCredit, garantiaCustomerForCheckout, garantiaUnitsOnTheirWay, type GarantiaBasis } from "../garantias/index.server";

export interface OrderGarantia extends GarantiaCharge {
  /** How the customer's bidones were known; null when the order has no returnable bidón. */
  basis: GarantiaBasis | null;
  /** Whether the comprobante carries it as its own inafecto line (the setting now). */
  onComprobante: boolean;
}

/**
 * The bidón garantía of an order being placed (decision 0075), priced by the server like
 * everything else: the returnable bidones of its lines that the customer does not hold yet, at each
 * product's amount. The customer holds their ledger's balance (full left − empties collected) plus
 * the garantía bidones of their paid orders still on the way. An order without returnable bidones
 * asks nothing more of the database.
 */
export async function priceOrderGarantia(
  db: Database,
  input: { lines: readonly PricedCartLine[]; userId: string | null; email: string; phone: string },
): Promise<OrderGarantia> {
  const lines = input.lines.map((line) => ({ bidones: line.garantiaBidones, unitCents: line.garantiaUnitCents }));
  if (!lines.some((line) => line.bidones > 0 && line.unitCents > 0)) return { units: 0, cents: 0, basis: null, onComprobante: true };
  const known = await garantiaCustomerForCheckout(db, input);
  const held = known.customer ? Math.max(0, (await bidonBalance(db, known.customer)).balance) + (await garantiaUnitsOnTheirWay(db, known.customer)) : 0;
  const charge = garantiaCharge(lines, held);
  const settings = charge.cents > 0 ? await getSiteSettings(db) : null;
  return { ...charge, basis: known.basis, onComprobante: settings?.garantiaComprobanteMode !== "fuera" };
}

/**
 * What the checkout page shows a signed-in customer before they order (their own data): the bidones
 * they hold for the garantía line, and the garantía credit a one-time order would spend. A guest's
 * page assumes none held (the server may find them by e-mail and phone when the order is placed).
 */
export async function checkoutGarantiaContext(db: Database, userId: string): Promise<{ heldBidones: number; creditCents: number }> {
  const known = await garantiaCustomerForCheckout(db, { userId, email: "", phone: "" });
  const balance = known.customer ? Math.max(0, (await bidonBalance(db, known.customer)).balance) : 0;
  const onTheWay = known.customer ? await garantiaUnitsOnTheirWay(db, known.customer) : 0;
  return { heldBidones: balance + onTheWay, creditCents: await availableGarantiaCredit(db, userId) };
}
