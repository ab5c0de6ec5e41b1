import { Fragment } from "react";
import { Link } from "react-router";
import { formatPriceRange, formatSoles } from "@core/money";
import type { ShopProduct } from "@server/catalog/index.server";

export const DEFAULT_PRODUCT_IMAGE = "/images/products/default-bottle.svg";

/** An uploaded picture (/media/<hash>-400.webp) also exists at 800 pixels, for 2× screens. */
export function productImageSrcSet(image: string | null): string | undefined {
  return image && /^\/media\/[0-9a-f]+-400\.webp$/.test(image) ? `${image} 1x, ${image.replace(/-400\.webp$/, "-800.webp")} 2x` : undefined;
}

/** Spec §2 Shop card: image (default bottle if none), title and price; opens the detail with the product in navigation state. */
export function ProductCard({
  product,
  headingLevel = "h2",
  inFirstScreen = false,
}: {
  product: ShopProduct;
  headingLevel?: "h2" | "h3";
  /** A card a phone shows without scrolling: its picture is the page's largest paint, so it is fetched at once, not lazily after layout. */
  inFirstScreen?: boolean;
}) {
  const Heading = headingLevel;
  const price = formatPriceRange(product.minPriceCents, product.maxPriceCents);
  return (
    <article
      className="group relative flex h-full flex-col overflow-hidden rounded-3xl border border-slate-100 bg-white shadow-sm transition hover:-translate-y-1 hover:shadow-lg"
      data-testid="product-card"
    >
      <img
        src={product.image ?? DEFAULT_PRODUCT_IMAGE}
        srcSet={productImageSrcSet(product.image)}
        alt=""
        width={400}
        height={400}
        loading={inFirstScreen ? "eager" : "lazy"}
        fetchPriority={inFirstScreen ? "high" : undefined}
        className="aspect-square w-full bg-sky-50 object-contain"
      />
      <div className="flex flex-1 flex-col gap-1 p-4">
        <Heading className="font-semibold text-slate-900">
          <Link
            to={`/tienda/producto/${product.slug}`}
            state={{ product }}
            className="after:absolute after:inset-0 focus-visible:outline-none group-focus-within:underline"
          >
            {product.title}
          </Link>
        </Heading>
        {price && (
          <p className="mt-auto text-lg font-bold text-brand-800" data-testid="product-card-price">
            {/* Each amount stays on one line; a range wraps after its dash on a narrow card (two
                columns on a phone), so the dash and its spaces must sit outside the nowrap spans. */}
            {price.split(" - ").map((amount, index) => (
              <Fragment key={amount}>
                {index > 0 && " - "}
                <span className="whitespace-nowrap">{amount}</span>
              </Fragment>
            ))}
          </p>
        )}
        {product.refillPerBidon && (
          <p className="text-sm text-slate-700" data-testid="product-card-per-bidon">
            Recarga {product.refillPerBidon.from ? "desde " : ""}
            <span className="font-semibold whitespace-nowrap">{formatSoles(product.refillPerBidon.cents)}</span> por bidón
          </p>
        )}
      </div>
    </article>
  );
}
