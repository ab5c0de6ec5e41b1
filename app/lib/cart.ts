/**
 * The visitor's cart as the spec describes it (§3 Cart item, §4 Cart): kept in local storage
 * under a versioned key, so a change of shape starts from an empty cart instead of a broken one.
 * Prices here are only what the visitor saw; the server reprices every order.
 */
// zod/mini keeps the browser bundle small; the schema is the same one the server can reuse.
import * as z from "zod/mini";

export const CART_STORAGE_KEY = "va-cart:v1";

export const cartItemSchema = z.object({
  key: z.string().check(z.minLength(1)),
  productId: z.int().check(z.positive()),
  variantId: z.nullable(z.int().check(z.positive())),
  slug: z.optional(z.string()),
  title: z.string(),
  image: z.nullable(z.string()),
  price: z.int().check(z.nonnegative()),
  variantTitle: z.nullable(z.string()),
  quantity: z.int().check(z.gte(1)),
});

export type CartItem = z.infer<typeof cartItemSchema>;

const storedCartSchema = z.array(cartItemSchema);

/** Spec §3: product id, plus '__v_' and the variant id when a variant is chosen. */
export function cartLineKey(productId: number, variantId: number | null): string {
  return variantId === null ? String(productId) : `${productId}__v_${variantId}`;
}

/** An invalid stored value gives an empty cart (spec §4). */
export function parseStoredCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  try {
    const parsed = storedCartSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Adding an existing key adds to its quantity, otherwise a new line (spec §4). */
export function addToCart(items: CartItem[], item: Omit<CartItem, "key">): CartItem[] {
  const key = cartLineKey(item.productId, item.variantId);
  const quantity = Math.max(1, Math.floor(item.quantity));
  const existing = items.find((line) => line.key === key);
  if (existing) {
    return items.map((line) => (line.key === key ? { ...line, quantity: line.quantity + quantity } : line));
  }
  return [...items, { ...item, key, quantity }];
}

/** Quantity never goes below 1 (spec §4). */
export function setCartQuantity(items: CartItem[], key: string, quantity: number): CartItem[] {
  const safe = Number.isFinite(quantity) ? Math.max(1, Math.floor(quantity)) : 1;
  return items.map((line) => (line.key === key ? { ...line, quantity: safe } : line));
}

export function removeFromCart(items: CartItem[], key: string): CartItem[] {
  return items.filter((line) => line.key !== key);
}

export function cartItemCount(items: CartItem[]): number {
  return items.reduce((sum, line) => sum + line.quantity, 0);
}

export function cartSubtotalCents(items: CartItem[]): number {
  return items.reduce((sum, line) => sum + line.price * line.quantity, 0);
}
