import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { products, productVariants } from "../db/schema";

/** One thing the office can put on an order: a product without variants, or one active variant. */
export interface SellableLine {
  productId: number;
  variantId: number | null;
  title: string;
  variantTitle: string | null;
  /** The one-time price today, from the database (what `priceCartLines` will charge). */
  unitPriceCents: number;
}

/**
 * Every product and presentation on sale, at its one-time price, in the shop's order: what a
 * subscription can hold (self-service "Cambiar productos") and what the office can put on a phone
 * order ("Nuevo pedido", issue 38). Read straight from the database like cart pricing, never from
 * the storefront cache; an order is priced again when it is placed.
 */
export async function listSellableLines(db: Database): Promise<SellableLine[]> {
  const rows = await db
    .select({
      productId: products.id,
      title: products.title,
      priceCents: products.priceCents,
      variantId: productVariants.id,
      variantTitle: productVariants.title,
      variantPriceCents: productVariants.priceCents,
    })
    .from(products)
    .leftJoin(productVariants, and(eq(productVariants.productId, products.id), eq(productVariants.active, true)))
    .where(eq(products.active, true))
    .orderBy(sql`${products.sortOrder} asc nulls last`, asc(products.id), sql`${productVariants.sortOrder} asc nulls last`, asc(productVariants.id));
  return rows.flatMap((row): SellableLine[] => {
    if (row.variantId !== null) {
      return [{ productId: row.productId, variantId: row.variantId, title: row.title, variantTitle: row.variantTitle, unitPriceCents: row.variantPriceCents! }];
    }
    // A product with no active variant sells at its own price, or not at all without one.
    return row.priceCents === null ? [] : [{ productId: row.productId, variantId: null, title: row.title, variantTitle: null, unitPriceCents: row.priceCents }];
  });
}
