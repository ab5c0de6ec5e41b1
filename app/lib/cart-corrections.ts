import { cartLineKey, type CartItem } from "./cart";
import { formatSoles } from "@core/money";

export interface CurrentLine {
  productId: number;
  variantId: number | null;
  slug: string;
  title: string;
  variantTitle: string | null;
  image: string | null;
  unitPriceCents: number;
}

/**
 * Brings a stored cart in line with the catalogue as the server priced it: lines that can no
 * longer be bought are removed and price changes applied, each with a note for the customer
 * (never silently). Returns null when nothing changed.
 */
export function correctCart(items: CartItem[], current: CurrentLine[]): { items: CartItem[]; notes: string[] } | null {
  const byKey = new Map(current.map((line) => [cartLineKey(line.productId, line.variantId), line]));
  const notes: string[] = [];
  const corrected: CartItem[] = [];
  let changed = false;
  for (const item of items) {
    const name = item.variantTitle ? `${item.title} (${item.variantTitle})` : item.title;
    const line = byKey.get(item.key);
    if (!line) {
      notes.push(`${name} ya no está disponible y lo quitamos de tu carrito.`);
      changed = true;
      continue;
    }
    if (line.unitPriceCents !== item.price) {
      notes.push(`El precio de ${name} cambió de ${formatSoles(item.price)} a ${formatSoles(line.unitPriceCents)}.`);
    }
    const next: CartItem = {
      ...item,
      slug: line.slug,
      title: line.title,
      variantTitle: line.variantTitle,
      image: line.image,
      price: line.unitPriceCents,
    };
    if (
      next.price !== item.price ||
      next.title !== item.title ||
      next.variantTitle !== item.variantTitle ||
      next.image !== item.image ||
      next.slug !== item.slug
    ) {
      changed = true;
    }
    corrected.push(next);
  }
  return changed ? { items: corrected, notes } : null;
}

/**
 * The server's answer applied to the cart as it is when the answer arrives, not as it was when it
 * was asked: a quantity the customer changed meanwhile stays changed, and a line the question did
 * not include (added in another tab) is left for the next check. Null when nothing changed.
 */
export function correctCartNow(latest: CartItem[], askedKeys: ReadonlySet<string>, current: CurrentLine[]): { items: CartItem[]; notes: string[] } | null {
  const correction = correctCart(
    latest.filter((item) => askedKeys.has(item.key)),
    current,
  );
  if (!correction) return null;
  const corrected = new Map(correction.items.map((item) => [item.key, item]));
  const items = latest.flatMap((item) => (!askedKeys.has(item.key) ? [item] : corrected.has(item.key) ? [corrected.get(item.key)!] : []));
  return { items, notes: correction.notes };
}
