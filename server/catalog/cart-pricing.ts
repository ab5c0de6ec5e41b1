import { and, eq, sql, type SQL } from "drizzle-orm";
import { garantiaBidones } from "@core/returnable-bidones";
import type { Database } from "../db/client";
import { preparedStatement } from "../db/prepared-statement";
import { products, productVariants } from "../db/schema";

export interface CartLineRequest {
  productId: number;
  variantId: number | null;
  quantity: number;
}

export interface PricedCartLine {
  productId: number;
  variantId: number | null;
  slug: string;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  image: string | null;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** Returnable bidones of the line that carry a garantía if the customer has none to swap (decision 0075). */
  garantiaBidones: number;
  /** The product's garantía per bidón (0: none). */
  garantiaUnitCents: number;
}

export interface PricedCart {
  lines: PricedCartLine[];
  /** Lines whose product or variant is gone or withdrawn. */
  unavailable: CartLineRequest[];
  subtotalCents: number;
}

/**
 * Prices cart lines from the catalogue as it is now, straight from the database (never from the
 * storefront cache): the only prices an order is ever built from. A product with active variants
 * must be bought as one of them; one without variants at its own price.
 */
export async function priceCartLines(db: Database, requested: CartLineRequest[]): Promise<PricedCart> {
  const productIds = [...new Set(requested.map((line) => line.productId))];
  if (productIds.length === 0) return { lines: [], unavailable: [], subtotalCents: 0 };
  // One statement (decision 0063): each active product with its active variants beside it, or
  // alone; built once and sent by name (decision 0069).
  return priceFromRows(await activePrices(db, { productIds }), requested);
}

/**
 * The same prices as `priceCartLines`, as one column (`cart_prices`, a JSON array of its rows) for
 * a caller to read beside its own in one statement (decision 0101: checkout reads them with the
 * district and the calendar); `pricedCartFromColumn` turns the column into the priced cart.
 */
export function cartPricesColumn(requested: CartLineRequest[]): SQL {
  const productIds = [...new Set(requested.map((line) => line.productId))];
  if (productIds.length === 0) return sql`'[]'::json as cart_prices`;
  const ids = sql.join(
    productIds.map((id) => sql`${id}::int`),
    sql`, `,
  );
  return sql`(select coalesce(json_agg(json_build_object(
        'id', p.id, 'slug', p.slug, 'title', p.title, 'image', p.image, 'price_cents', p.price_cents, 'sku', p.sku,
        'garantia_cents', p.garantia_cents, 'variant_id', v.id, 'variant_title', v.title, 'variant_price_cents', v.price_cents,
        'variant_sku', v.sku)), '[]'::json)
      from ${products} p left join ${productVariants} v on v.product_id = p.id and v.active = true
      where p.id in (${ids}) and p.active = true) as cart_prices`;
}

/** The priced cart from the `cart_prices` column `cartPricesColumn` added to a row. */
export function pricedCartFromColumn(row: Record<string, unknown>, requested: CartLineRequest[]): PricedCart {
  return priceFromRows(row.cart_prices as PriceRow[], requested);
}

function priceFromRows(rows: PriceRow[], requested: CartLineRequest[]): PricedCart {
  const productRows = rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    title: row.title,
    image: row.image,
    priceCents: row.price_cents,
    sku: row.sku,
    garantiaCents: row.garantia_cents,
  }));
  const variantRows = rows.flatMap((row) =>
    row.variant_id === null
      ? []
      : [{ id: row.variant_id, productId: row.id, title: row.variant_title!, priceCents: row.variant_price_cents!, sku: row.variant_sku }],
  );

  const productsById = new Map(productRows.map((row) => [row.id, row]));
  const lines: PricedCartLine[] = [];
  const unavailable: CartLineRequest[] = [];
  for (const line of requested) {
    const product = productsById.get(line.productId);
    const variants = variantRows.filter((variant) => variant.productId === line.productId);
    const variant = line.variantId === null ? null : variants.find((candidate) => candidate.id === line.variantId);
    const sellable = product && (line.variantId === null ? variants.length === 0 && product.priceCents !== null : variant !== undefined);
    if (!product || !sellable) {
      unavailable.push(line);
      continue;
    }
    const unitPriceCents = variant ? variant.priceCents : product.priceCents!;
    const sku = variant?.sku ?? product.sku;
    const garantiaUnitCents = product.garantiaCents;
    lines.push({
      productId: product.id,
      variantId: variant?.id ?? null,
      slug: product.slug,
      title: product.title,
      variantTitle: variant?.title ?? null,
      sku,
      image: product.image,
      unitPriceCents,
      quantity: line.quantity,
      lineTotalCents: unitPriceCents * line.quantity,
      garantiaBidones: garantiaUnitCents > 0 ? garantiaBidones(sku, line.quantity) : 0,
      garantiaUnitCents,
    });
  }
  return { lines, unavailable, subtotalCents: lines.reduce((sum, line) => sum + line.lineTotalCents, 0) };
}

interface PriceRow extends Record<string, unknown> {
  id: number;
  slug: string;
  title: string;
  image: string | null;
  price_cents: number | null;
  sku: string | null;
  garantia_cents: number;
  variant_id: number | null;
  variant_title: string | null;
  variant_price_cents: number | null;
  variant_sku: string | null;
}

const activePrices = preparedStatement<PriceRow>("cart_prices", (db) =>
  db
    .select({
      id: products.id,
      slug: products.slug,
      title: products.title,
      image: products.image,
      priceCents: products.priceCents,
      sku: products.sku,
      garantiaCents: sql`${products.garantiaCents}`.as("garantia_cents"),
      variantId: sql`${productVariants.id}`.as("variant_id"),
      variantTitle: sql`${productVariants.title}`.as("variant_title"),
      variantPriceCents: sql`${productVariants.priceCents}`.as("variant_price_cents"),
      variantSku: sql`${productVariants.sku}`.as("variant_sku"),
    })
    .from(products)
    .leftJoin(productVariants, and(eq(productVariants.productId, products.id), eq(productVariants.active, true)))
    .where(and(sql`${products.id} = any(${sql.placeholder("productIds")}::int[])`, eq(products.active, true))),
);
