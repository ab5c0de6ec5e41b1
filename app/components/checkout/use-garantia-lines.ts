import { useEffect, useState } from "react";
import type { GarantiaLine } from "@core/garantia";
import type { CartItem } from "~/lib/cart";

/**
 * The returnable bidones of the cart and each one's garantía, as the server's price check says
 * (decision 0075): the checkout shows the garantía line from them; the server charges it again
 * when the order is placed. Null until the answer arrives (or when it does not).
 */
export function useGarantiaLines(items: CartItem[]): GarantiaLine[] | null {
  const [lines, setLines] = useState<GarantiaLine[] | null>(null);
  const signature = items.map((item) => `${item.key}:${item.quantity}`).join(",");
  useEffect(() => {
    if (items.length === 0) return;
    let cancelled = false;
    const body = JSON.stringify({ items: items.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity })) });
    fetch("/api/carrito/precios", { method: "POST", headers: { "Content-Type": "application/json" }, body })
      .then((response) => (response.ok ? (response.json() as Promise<{ lines: { garantiaBidones: number; garantiaUnitCents: number }[] }>) : null))
      .then((answer) => {
        if (!cancelled && answer) setLines(answer.lines.map((line) => ({ bidones: line.garantiaBidones, unitCents: line.garantiaUnitCents })));
      })
      // Without an answer the line is not shown; the order is priced by the server anyway.
      .catch(() => {});
    return () => {
      cancelled = true;
    };
    // The signature stands for the items: a re-render with the same lines asks nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);
  return lines;
}
