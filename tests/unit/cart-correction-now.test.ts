import { describe, expect, it } from "vitest";
import type { CartItem } from "~/lib/cart";
import { correctCartNow, type CurrentLine } from "~/lib/cart-corrections";

const box: CartItem = {
  key: "6",
  productId: 6,
  variantId: null,
  slug: "caja-20l",
  title: "Caja de 20 L",
  image: null,
  price: 5990,
  variantTitle: null,
  quantity: 1,
};
const pack: CartItem = {
  key: "1__v_1",
  productId: 1,
  variantId: 1,
  slug: "agua-625",
  title: "Agua 625 ml",
  image: null,
  price: 3000,
  variantTitle: "Pack x 12",
  quantity: 1,
};
const server = (item: CartItem, changes: Partial<CurrentLine> = {}): CurrentLine =>
  Object.assign(
    {
      productId: item.productId,
      variantId: item.variantId,
      slug: item.slug ?? "",
      title: item.title,
      variantTitle: item.variantTitle,
      image: item.image,
      unitPriceCents: item.price,
    },
    changes,
  );

describe("a price check's answer applied to the cart as it is when the answer arrives", () => {
  it("keeps a quantity the customer changed while the answer was on its way", () => {
    // Asked with one of each; meanwhile "Aumentar cantidad" made it two boxes.
    const latest = [{ ...box, quantity: 2 }, pack];
    const result = correctCartNow(latest, new Set(["6", "1__v_1"]), [server(box, { image: "/media/caja-400.webp" }), server(pack)]);
    expect(result).toEqual({ items: [{ ...box, quantity: 2, image: "/media/caja-400.webp" }, pack], notes: [] });
  });

  it("applies a new price with its note, and removes a line the shop no longer sells", () => {
    const result = correctCartNow([box, pack], new Set(["6", "1__v_1"]), [server(box, { unitPriceCents: 6290 })]);
    expect(result).toEqual({
      items: [{ ...box, price: 6290 }],
      notes: ["El precio de Caja de 20 L cambió de S/ 59.90 a S/ 62.90.", "Agua 625 ml (Pack x 12) ya no está disponible y lo quitamos de tu carrito."],
    });
  });

  it("leaves a line the question did not include (added in another tab) for the next check", () => {
    const result = correctCartNow([box, pack], new Set(["6"]), [server(box, { unitPriceCents: 6290 })]);
    expect(result?.items).toEqual([{ ...box, price: 6290 }, pack]);
  });

  it("says nothing changed when the answer matches the cart", () => {
    expect(correctCartNow([box, pack], new Set(["6", "1__v_1"]), [server(box), server(pack)])).toBeNull();
  });
});
