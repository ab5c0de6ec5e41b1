import { formatPriceRange } from "@core/money";
import type { ProductDetail } from "../catalog/index.server";
import { cachedShareImage, shareImageVersion } from "./cache";
import { renderShareCard } from "./share-card";

/** The shop's SVG drawings, by their public path ("/images/products/personal-625.svg"); the hero by its source path. */
export type Artwork = (publicPath: string) => string | undefined;

export type FixedShareCard = "inicio" | "tienda";

const FIXED_CARDS: Record<FixedShareCard, { artwork: string[]; title: string; subtitle: string }> = {
  inicio: {
    artwork: ["/app/components/home/hero.svg"],
    title: "Cuidamos de ti y del planeta",
    subtitle: "Compra única o suscripción con hasta 15% de descuento.",
  },
  tienda: {
    artwork: ["/images/products/personal-625.svg", "/images/products/familiar-8l.svg", "/images/products/bidon-hogar-20l.svg"],
    title: "Tienda de agua alcalina",
    subtitle: "Botellas, bidones y cajas de 20 L con delivery en Lima.",
  },
};

export function isFixedShareCard(name: string): name is FixedShareCard {
  return Object.hasOwn(FIXED_CARDS, name);
}

export function fixedShareImage(name: FixedShareCard, brandName: string, artwork: Artwork): Promise<Buffer> {
  const card = FIXED_CARDS[name];
  return cachedShareImage(`fixed:${name}:${brandName}`, () =>
    renderShareCard({ brandName, title: card.title, subtitle: card.subtitle, artwork: card.artwork.map((path) => artwork(path) ?? "") }),
  );
}

function priceLine(product: ProductDetail): string | null {
  const prices = product.variants.length > 0 ? product.variants.map((variant) => variant.priceCents) : product.priceCents === null ? [] : [product.priceCents];
  return prices.length > 0 ? formatPriceRange(Math.min(...prices), Math.max(...prices)) : null;
}

/** What a product's card shows changes its URL (`?v=`), so the picture can be cached for a year. */
export function productShareImageVersion(product: ProductDetail, brandName: string): string {
  return shareImageVersion(brandName, product.title, product.image, priceLine(product));
}

export function productShareImagePath(product: ProductDetail, brandName: string): string {
  return `/og/producto/${encodeURIComponent(product.slug)}.png?v=${productShareImageVersion(product, brandName)}`;
}

const DEFAULT_PRODUCT_ART = "/images/products/default-bottle.svg";

export function productShareImage(product: ProductDetail, brandName: string, artwork: Artwork): Promise<Buffer> {
  const version = productShareImageVersion(product, brandName);
  return cachedShareImage(`product:${product.slug}:${version}`, () =>
    renderShareCard({
      brandName,
      title: product.title,
      price: priceLine(product) ?? undefined,
      artwork: [(product.image && artwork(product.image)) ?? artwork(DEFAULT_PRODUCT_ART) ?? ""],
    }),
  );
}
