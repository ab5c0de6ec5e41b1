import { describe, expect, it } from "vitest";
import { addToCart, cartItemCount, cartLineKey, cartSubtotalCents, parseStoredCart, removeFromCart, setCartQuantity, type CartItem } from "~/lib/cart";

const water = { productId: 1, variantId: 2, title: "Agua 625 ml", image: null, price: 3000, variantTitle: "Pack x 12", quantity: 1 };

describe("cart", () => {
  it("keys a line by product, plus __v_ and the variant when one is chosen", () => {
    expect(cartLineKey(7, null)).toBe("7");
    expect(cartLineKey(7, 3)).toBe("7__v_3");
  });

  it("gives an empty cart for a missing, malformed or wrongly shaped stored value", () => {
    expect(parseStoredCart(null)).toEqual([]);
    expect(parseStoredCart("{not json")).toEqual([]);
    expect(parseStoredCart(JSON.stringify({ items: [] }))).toEqual([]);
    expect(parseStoredCart(JSON.stringify([{ ...water, key: "1__v_2", quantity: 0 }]))).toEqual([]);
  });

  it("reads back a valid stored cart", () => {
    const items = addToCart([], water);
    expect(parseStoredCart(JSON.stringify(items))).toEqual(items);
  });

  it("adds to the quantity of an existing line instead of duplicating it", () => {
    const once = addToCart([], { ...water, quantity: 2 });
    const twice = addToCart(once, { ...water, quantity: 3 });
    expect(twice).toHaveLength(1);
    expect(twice[0]!.quantity).toBe(5);
    const other = addToCart(twice, { ...water, variantId: null });
    expect(other.map((line) => line.key)).toEqual(["1__v_2", "1"]);
  });

  it("never lets a quantity drop below 1", () => {
    const items: CartItem[] = addToCart([], water);
    expect(setCartQuantity(items, "1__v_2", 0)[0]!.quantity).toBe(1);
    expect(setCartQuantity(items, "1__v_2", -4)[0]!.quantity).toBe(1);
    expect(setCartQuantity(items, "1__v_2", Number.NaN)[0]!.quantity).toBe(1);
    expect(setCartQuantity(items, "1__v_2", 6)[0]!.quantity).toBe(6);
  });

  it("removes lines and totals count and subtotal", () => {
    let items = addToCart([], { ...water, quantity: 2 });
    items = addToCart(items, { ...water, productId: 9, variantId: null, price: 5990, quantity: 1 });
    expect(cartItemCount(items)).toBe(3);
    expect(cartSubtotalCents(items)).toBe(2 * 3000 + 5990);
    expect(removeFromCart(items, "9")).toHaveLength(1);
  });
});
