import { useCallback, useSyncExternalStore } from "react";
import { addToCart, CART_STORAGE_KEY, parseStoredCart, removeFromCart, setCartQuantity, type CartItem } from "./cart";

/**
 * Local-storage cart shared by every component and every tab: the `storage` event carries
 * changes made in other tabs, a custom event those made in this one.
 */
const CHANGE_EVENT = "va-cart-change";
const emptyCart: CartItem[] = [];
let cachedRaw: string | null = null;
let cachedItems: CartItem[] = emptyCart;

function readCart(): CartItem[] {
  const raw = window.localStorage.getItem(CART_STORAGE_KEY);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedItems = parseStoredCart(raw);
  }
  return cachedItems;
}

function writeCart(items: CartItem[]) {
  window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify(items));
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function subscribe(onChange: () => void) {
  const onStorage = (event: StorageEvent) => {
    if (event.key === CART_STORAGE_KEY || event.key === null) onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

export function useCart() {
  // The server never knows the cart: it renders an empty one and the browser fills it in.
  const items = useSyncExternalStore(subscribe, readCart, () => emptyCart);
  const add = useCallback((item: Omit<CartItem, "key">) => writeCart(addToCart(readCart(), item)), []);
  const setQuantity = useCallback((key: string, quantity: number) => writeCart(setCartQuantity(readCart(), key, quantity)), []);
  const remove = useCallback((key: string) => writeCart(removeFromCart(readCart(), key)), []);
  const clear = useCallback(() => writeCart([]), []);
  const replace = useCallback((next: CartItem[]) => writeCart(next), []);
  /** Changes the cart as stored now (not as this render saw it); returning it unchanged writes nothing. */
  const update = useCallback((change: (latest: CartItem[]) => CartItem[]) => {
    const latest = readCart();
    const next = change(latest);
    if (next !== latest) writeCart(next);
  }, []);
  return { items, add, setQuantity, remove, clear, replace, update };
}
