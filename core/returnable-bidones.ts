/**
 * Which catalogue items are returnable 20 L bidones, and how many full ones leave and empty ones
 * come back per unit sold (issue 10: "bidones full out / empty expected back"). Defined by the
 * variant's SKU (server/db/seed/catalog-data.ts): the products VA-BH20 (hogar) and VA-BO20
 * (oficina) are the returnable bidones. A recarga swaps a full bidón for the customer's empty one;
 * "Primer bidón con envase" sells the container too, so nothing comes back; a pack of N recargas
 * is N bidones swapped on the same visit. Renewal order lines carry no SKU of their own, so the
 * caller passes the catalogue's (variant, else product) SKU.
 */
export interface BidonExchange {
  /** Full bidones handed over per unit of the line. */
  full: number;
  /** Empty bidones expected back per unit of the line. */
  empty: number;
}

const RETURNABLE_BIDONES: Record<string, BidonExchange> = {
  "VA-BH20-REC": { full: 1, empty: 1 },
  "VA-BH20-ENV": { full: 1, empty: 0 },
  "VA-BH20-R3": { full: 3, empty: 3 },
  "VA-BO20-R4": { full: 4, empty: 4 },
  "VA-BO20-R10": { full: 10, empty: 10 },
  "VA-BO20-R20": { full: 20, empty: 20 },
};

/** Full out and empty back for `quantity` units of the item with this catalogue SKU (0 and 0 for anything that is not a returnable bidón). */
export function bidonExchange(sku: string | null, quantity: number): BidonExchange {
  const perUnit = sku ? RETURNABLE_BIDONES[sku] : undefined;
  return perUnit ? { full: perUnit.full * quantity, empty: perUnit.empty * quantity } : { full: 0, empty: 0 };
}

/**
 * The bidones of a line that carry a garantía when the customer has none of ours to swap
 * (decision 0075): the full bidones of a recarga or pack, which swap one of ours for the
 * customer's empty. "Primer bidón con envase" sells the container (nothing comes back), so the
 * customer owns it and no garantía is charged for it.
 */
export function garantiaBidones(sku: string | null, quantity: number): number {
  const exchange = bidonExchange(sku, quantity);
  return exchange.empty > 0 ? exchange.full : 0;
}
