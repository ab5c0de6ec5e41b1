import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { cachedRead } from "../db/read-cache";
import { productImages, products, productVariants } from "../db/schema";
import { bidonExchange } from "@core/returnable-bidones";

export interface ShopProduct {
  id: number;
  slug: string;
  title: string;
  image: string | null;
  description: string;
  /** Base price; a product with variants is priced by them (spec §3 cart item price rule). */
  priceCents: number | null;
  hasVariants: boolean;
  minPriceCents: number | null;
  maxPriceCents: number | null;
  /** What one bidón costs as a recarga, the least of the product's packs ("desde") when they differ; null for other products. */
  refillPerBidon: { cents: number; from: boolean } | null;
}

export interface ProductVariant {
  id: number;
  title: string;
  priceCents: number;
  sku: string | null;
}

/** One picture of a product's gallery; `alt` is empty when staff gave none (the product's name stands for it). */
export interface ProductPicture {
  image: string;
  alt: string;
}

export interface ProductDetail {
  id: number;
  slug: string;
  title: string;
  description: string;
  /** The main picture: the gallery's first (decision 0057). */
  image: string | null;
  /** The whole gallery in order, main picture first; empty when the product has no picture. */
  images: ProductPicture[];
  priceCents: number | null;
  sku: string | null;
  weightLabel: string | null;
  dimensionsLabel: string | null;
  /** Garantía per returnable bidón (decision 0075); 0 = none. */
  garantiaCents: number;
  variants: ProductVariant[];
}

/** Spec's `order`: ascending, products without one last; ties by id so the grid never shuffles. */
const shopOrder = [sql`${products.sortOrder} asc nulls last`, asc(products.id)];

const readActiveProducts = cachedRead((db: Database) =>
  db
    .select({
      id: products.id,
      slug: products.slug,
      title: products.title,
      image: products.image,
      description: products.description,
      priceCents: products.priceCents,
    })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(...shopOrder),
);

interface VariantPrices {
  min: number;
  max: number;
  /** The least one swapped bidón costs among the recargas (issue 41); null when none is a recarga. */
  refill: { cents: number; from: boolean } | null;
}

const readActiveVariantPriceRanges = cachedRead(async (db: Database) => {
  const rows = await db
    .select({ productId: productVariants.productId, priceCents: productVariants.priceCents, sku: productVariants.sku })
    .from(productVariants)
    .where(eq(productVariants.active, true));
  const ranges = new Map<number, VariantPrices>();
  for (const row of rows) {
    const range = ranges.get(row.productId) ?? { min: row.priceCents, max: row.priceCents, refill: null };
    range.min = Math.min(range.min, row.priceCents);
    range.max = Math.max(range.max, row.priceCents);
    // A recarga or a pack of N recargas: N full bidones swapped for N empty ones.
    const exchange = bidonExchange(row.sku, 1);
    if (exchange.empty > 0) {
      const perBidon = Math.round(row.priceCents / exchange.full);
      range.refill = range.refill
        ? { cents: Math.min(range.refill.cents, perBidon), from: range.refill.from || perBidon !== range.refill.cents }
        : { cents: perBidon, from: false };
    }
    ranges.set(row.productId, range);
  }
  return ranges;
});

/**
 * The shop grid (spec §2 Shop). Error catalogue: a failed product read gives an empty list,
 * a failed variant read gives products without price ranges.
 */
export async function listShopProducts(db: Database): Promise<ShopProduct[]> {
  let rows;
  try {
    rows = await readActiveProducts(db);
  } catch (error) {
    console.error("Could not read products", error);
    return [];
  }

  let ranges = new Map<number, VariantPrices>();
  try {
    ranges = await readActiveVariantPriceRanges(db);
  } catch (error) {
    console.error("Could not read product variants", error);
  }

  return rows.map((row) => {
    const range = ranges.get(row.id);
    return {
      ...row,
      hasVariants: range !== undefined,
      minPriceCents: range?.min ?? row.priceCents,
      maxPriceCents: range?.max ?? row.priceCents,
      refillPerBidon: range?.refill ?? null,
    };
  });
}

const readProductBySlug = cachedRead(async (db: Database, slug: string) => {
  const [product] = await db
    .select({
      id: products.id,
      slug: products.slug,
      title: products.title,
      description: products.description,
      image: products.image,
      priceCents: products.priceCents,
      sku: products.sku,
      weightLabel: products.weightLabel,
      dimensionsLabel: products.dimensionsLabel,
      garantiaCents: products.garantiaCents,
    })
    .from(products)
    .where(and(eq(products.slug, slug), eq(products.active, true)))
    .limit(1);
  return product ?? null;
});

const readActiveVariants = cachedRead((db: Database, productId: number) =>
  db
    .select({
      id: productVariants.id,
      title: productVariants.title,
      priceCents: productVariants.priceCents,
      sku: productVariants.sku,
    })
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), eq(productVariants.active, true)))
    .orderBy(sql`${productVariants.sortOrder} asc nulls last`, asc(productVariants.id)),
);

const readGallery = cachedRead((db: Database, productId: number) =>
  db
    .select({ image: productImages.image, alt: productImages.alt })
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(asc(productImages.position), asc(productImages.id)),
);

/** Product page by its shareable slug; null when missing or withdrawn. */
export async function findProductBySlug(db: Database, slug: string): Promise<ProductDetail | null> {
  const product = await readProductBySlug(db, slug);
  if (!product) return null;
  let variants: ProductVariant[] = [];
  try {
    variants = await readActiveVariants(db, product.id);
  } catch (error) {
    // Error catalogue: a failed variant read on the detail page gives an empty variant list.
    console.error("Could not read variants of product", product.id, error);
  }
  // Like the variants: a failed gallery read still shows the product, with its main picture alone.
  let images: ProductPicture[] = [];
  try {
    images = await readGallery(db, product.id);
  } catch (error) {
    console.error("Could not read the gallery of product", product.id, error);
  }
  if (images.length === 0 && product.image) images = [{ image: product.image, alt: "" }];
  return { ...product, images, variants };
}

/** Slugs and last change of every active product, for the sitemap. */
export async function listProductSlugs(db: Database) {
  return db
    .select({ slug: products.slug, updatedAt: products.updatedAt })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(...shopOrder);
}
