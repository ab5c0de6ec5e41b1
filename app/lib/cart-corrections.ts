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
