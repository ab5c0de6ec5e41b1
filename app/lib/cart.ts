/**
 * The visitor's cart as the spec describes it (§3 Cart item, §4 Cart): kept in local storage
 * under a versioned key, so a change of shape starts from an empty cart instead of a broken one.
 * Prices here are only what the visitor saw; the server reprices every order.
 */
export const CART_STORAGE_KEY = "va-cart:v1";

export interface CartItem {
  key: string;
  productId: number;
  variantId: number | null;
  slug?: string;
  title: string;
  image: string | null;
  /** Céntimos, as the visitor saw it; the server reprices every order. */
  price: number;
  variantTitle: string | null;
  quantity: number;
}

const isPositiveInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const isNullableString = (value: unknown) => value === null || typeof value === "string";

/**
 * Checks one stored line. Hand-written rather than a zod schema because this runs on every page
 * in the browser, where zod/mini alone would cost ~6 KB of the 120 KB first-load budget (bench/).
 */
export function isCartItem(value: unknown): value is CartItem {
  if (typeof value !== "object" || value === null) return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.key === "string" &&
    line.key.length > 0 &&
    isPositiveInt(line.productId) &&
    (line.variantId === null || isPositiveInt(line.variantId)) &&
    (line.slug === undefined || typeof line.slug === "string") &&
    typeof line.title === "string" &&
    isNullableString(line.image) &&
    Number.isInteger(line.price) &&
    (line.price as number) >= 0 &&
    isNullableString(line.variantTitle) &&
    isPositiveInt(line.quantity)
  );
}

/** Spec §3: product id, plus '__v_' and the variant id when a variant is chosen. */
export function cartLineKey(productId: number, variantId: number | null): string {
  return variantId === null ? String(productId) : `${productId}__v_${variantId}`;
}

/** A line the server priced (a saved cart restored, an order repeated) as the cart stores it, at the server's price. */
export function cartItemFromPricedLine(line: {
  productId: number;
  variantId: number | null;
  slug: string;
  title: string;
  image: string | null;
  unitPriceCents: number;
  variantTitle: string | null;
  quantity: number;
}): CartItem {
  return {
    key: cartLineKey(line.productId, line.variantId),
    productId: line.productId,
    variantId: line.variantId,
    slug: line.slug,
    title: line.title,
    image: line.image,
    price: line.unitPriceCents,
    variantTitle: line.variantTitle,
    quantity: line.quantity,
  };
}

/** An invalid stored value gives an empty cart (spec §4). */
export function parseStoredCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) && parsed.every(isCartItem) ? parsed : [];
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
