import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { QuantityStepper } from "./quantity-stepper";
import { ProductGallery } from "./product-gallery";
import { formatSoles } from "@core/money";
import { bidonExchange, garantiaBidones } from "@core/returnable-bidones";
import { useCart } from "~/lib/use-cart";
import type { ProductDetail } from "@server/catalog/index.server";

/** Spec §2 info table fixed texts, used when a product has no measurements of its own. */
const FALLBACK_WEIGHT = "8kg";
const FALLBACK_DIMENSIONS = "18.7 x 38.8 x 18.7cm";

/**
 * The two ways to a first bidón, compared in one line (issue 41), from the product's own prices: one
 * recarga plus its garantía (which comes back with the bidón), or the bidón sold with its container
 * (nothing comes back, so no garantía). Null when the product does not sell both.
 */
function firstBidonChoices(product: ProductDetail) {
  if (product.garantiaCents <= 0) return null;
  const refill = product.variants.find((variant) => {
    const exchange = bidonExchange(variant.sku, 1);
    return exchange.full === 1 && exchange.empty === 1;
  });
  const withContainer = product.variants.find((variant) => {
    const exchange = bidonExchange(variant.sku, 1);
    return exchange.full === 1 && exchange.empty === 0;
  });
  return refill && withContainer ? { refill, withContainer } : null;
}

/** The page's query with the chosen variant and picture, each link keeping the other's choice. */
function choiceHref(variant: string | number | null, image: string | number | null): string {
  const query = new URLSearchParams();
  if (variant !== null) query.set("variante", String(variant));
  if (image !== null) query.set("imagen", String(image));
  return `?${query.toString()}`;
}

/** The selected variant comes from the URL so it works without JavaScript and can be shared. */
export function selectedVariant(product: ProductDetail, variantParam: string | null) {
  const requested = product.variants.find((variant) => String(variant.id) === variantParam);
  return requested ?? product.variants[0] ?? null;
}

export function ProductDetailView({ product, variantParam, imageParam }: { product: ProductDetail; variantParam: string | null; imageParam: string | null }) {
  const variant = selectedVariant(product, variantParam);
  const [quantity, setQuantity] = useState(1);
  const { add } = useCart();
  const navigate = useNavigate();
  const priceCents = variant?.priceCents ?? product.priceCents ?? 0;
  const sku = variant?.sku ?? product.sku;
  // Decision 0075: a recarga of a returnable bidón carries a garantía when the customer has none of ours to swap.
  const bidonesPerUnit = product.garantiaCents > 0 ? garantiaBidones(sku, 1) : 0;
  const firstBidon = firstBidonChoices(product);

  function addToCart() {
    add({
      productId: product.id,
      variantId: variant?.id ?? null,
      slug: product.slug,
      title: product.title,
      image: product.image,
      price: priceCents,
      variantTitle: variant?.title ?? null,
      quantity,
    });
    void navigate("/carrito"); // failures reach the error boundary, not this promise
  }

  return (
    <div className="grid gap-10 md:grid-cols-2">
      <ProductGallery title={product.title} images={product.images} imageParam={imageParam} hrefOf={(position) => choiceHref(variantParam, position)} />
      <div className="flex flex-col gap-5">
        <h1 className="text-3xl font-bold text-brand-900">{product.title}</h1>
        <p className="text-3xl font-bold text-brand-800" data-testid="product-price">
          {formatSoles(priceCents)}
        </p>
        {bidonesPerUnit > 0 && (
          <p className="rounded-xl bg-brand-50 p-3 text-sm text-slate-800" data-testid="product-garantia">
            <strong>Garantía de bidón: {formatSoles(product.garantiaCents)}</strong> por cada bidón retornable
            {bidonesPerUnit > 1 ? ` (${bidonesPerUnit} en esta presentación)` : ""}. Se cobra solo con tus primeros bidones, si aún no tienes nuestros para
            cambiar, y te la devolvemos cuando nos los devuelves.
          </p>
        )}
        {firstBidon && (
          <p className="text-sm text-slate-800" data-testid="product-first-bidon">
            Tu primer bidón:{" "}
            <strong>
              {firstBidon.refill.title.replace(/\s*\(.*\)$/, "")} {formatSoles(firstBidon.refill.priceCents)}
            </strong>{" "}
            + garantía {formatSoles(product.garantiaCents)} (devolvible) o{" "}
            <strong>
              {firstBidon.withContainer.title} {formatSoles(firstBidon.withContainer.priceCents)}
            </strong>{" "}
            (el envase es tuyo).
          </p>
        )}
        <p className="leading-relaxed text-slate-700">{product.description}</p>

        {product.variants.length > 0 && (
          <div>
            <p id="variant-label" className="mb-2 font-semibold">
              Presentación
            </p>
            <ul className="flex flex-wrap gap-2" aria-labelledby="variant-label">
              {product.variants.map((option) => {
                const active = option.id === variant?.id;
                return (
                  <li key={option.id}>
                    <Link
                      to={choiceHref(option.id, imageParam)}
                      replace
                      preventScrollReset
                      aria-current={active ? "true" : undefined}
                      className={`block rounded-full border px-4 py-2 text-sm font-medium transition ${
                        active ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 text-slate-800 hover:border-brand-600"
                      }`}
                    >
                      {option.title}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        )}

        <div className="flex flex-wrap items-center gap-4">
          <QuantityStepper value={quantity} onChange={setQuantity} />
          <button type="button" onClick={addToCart} className="rounded-full bg-brand-700 px-8 py-3 font-semibold text-white shadow hover:bg-brand-800">
            Añadir al carrito
          </button>
        </div>

        <table className="mt-2 w-full text-left text-sm">
          <caption className="sr-only">Información del producto</caption>
          <tbody className="divide-y divide-slate-100">
            <tr>
              <th scope="row" className="py-2 pr-4 font-semibold text-slate-700">
                SKU
              </th>
              <td className="py-2" data-testid="product-sku">
                {sku ?? "-"}
              </td>
            </tr>
            <tr>
              <th scope="row" className="py-2 pr-4 font-semibold text-slate-700">
                Peso
              </th>
              <td className="py-2">{product.weightLabel ?? FALLBACK_WEIGHT}</td>
            </tr>
            <tr>
              <th scope="row" className="py-2 pr-4 font-semibold text-slate-700">
                Dimensiones
              </th>
              <td className="py-2">{product.dimensionsLabel ?? FALLBACK_DIMENSIONS}</td>
            </tr>
          </tbody>
        </table>
      </div>
    </div>
  );
}
