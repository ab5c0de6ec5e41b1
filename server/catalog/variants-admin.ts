import { and, eq, sql } from "drizzle-orm";
import { variantSchema } from "@core/catalog-schemas";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { products, productVariants } from "../db/schema";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction } from "../db/transaction";
import { changesNothing, parseCatalog, type CatalogSaveResult, type OnPriceChange } from "./catalog-edit";
import type { VariantRow } from "./products-admin";

const audited = (row: Partial<VariantRow>) => ({
  title: row.title,
  sku: row.sku,
  priceCents: row.priceCents,
  packSize: row.packSize,
  sortOrder: row.sortOrder,
  active: row.active,
});

/** A new pack size of a product. Answers the product's id (the page the form returns to). */
export async function createVariant(db: Database, actor: StaffActor, productId: number, raw: Record<string, unknown>): Promise<CatalogSaveResult> {
  const parsed = parseCatalog(variantSchema, raw);
  if (!parsed.ok) return parsed;
  return inTransaction(db, async (tx) => {
    const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for("update");
    if (!product) return { ok: false, reason: "not_found" } as const;
    // The product's row lock makes a second post of the same form wait, then find this variant.
    const [same] = await tx
      .select()
      .from(productVariants)
      .where(and(eq(productVariants.productId, productId), eq(productVariants.title, parsed.data.title)));
    if (same && changesNothing(same, parsed.data)) return { ok: true, id: productId } as const;
    if (same) return { ok: false, reason: "invalid", fieldErrors: { title: "Este producto ya tiene una presentación con ese nombre." } } as const;
    const [row] = await tx
      .insert(productVariants)
      .values({ ...parsed.data, productId })
      .returning();
    await tx
      .update(products)
      .set({ updatedAt: sql`now()` })
      .where(eq(products.id, productId));
    await recordStaffAction(tx, actor, {
      action: "product_variant.create",
      entityType: "product_variant",
      entityId: String(row!.id),
      after: { productId, ...audited(row!) },
    });
    await invalidateStorefront(tx, "product_variant.create");
    return { ok: true, id: productId } as const;
  });
}

/**
 * A variant's name, SKU, price, pack size, order and active flag; never deleted (orders, carts and
 * subscriptions name it). A new price reaches new carts at once and subscriptions from their next
 * period (decision 0055), through `onPriceChange` in this same transaction.
 */
export async function updateVariant(
  db: Database,
  actor: StaffActor,
  productId: number,
  variantId: number,
  raw: Record<string, unknown>,
  onPriceChange: OnPriceChange,
  now = new Date(),
): Promise<CatalogSaveResult> {
  const parsed = parseCatalog(variantSchema, raw);
  if (!parsed.ok) return parsed;
  return inTransaction(db, async (tx) => {
    const [product] = await tx.select({ id: products.id, title: products.title }).from(products).where(eq(products.id, productId)).for("update");
    const [before] = product
      ? await tx
          .select()
          .from(productVariants)
          .where(and(eq(productVariants.id, variantId), eq(productVariants.productId, productId)))
          .for("update")
      : [];
    if (!product || !before) return { ok: false, reason: "not_found" } as const;
    if (changesNothing(before, parsed.data)) return { ok: true, id: productId } as const;
    if (parsed.data.title !== before.title) {
      const [clash] = await tx
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(and(eq(productVariants.productId, productId), eq(productVariants.title, parsed.data.title)));
      if (clash) return { ok: false, reason: "invalid", fieldErrors: { title: "Este producto ya tiene una presentación con ese nombre." } } as const;
    }
    await tx.update(productVariants).set(parsed.data).where(eq(productVariants.id, variantId));
    await tx.update(products).set({ updatedAt: now }).where(eq(products.id, productId));
    if (parsed.data.priceCents !== before.priceCents) {
      await onPriceChange(tx, {
        productId,
        variantId,
        title: `${product.title} (${parsed.data.title})`,
        oldPriceCents: before.priceCents,
        newPriceCents: parsed.data.priceCents,
        now,
      });
    }
    await recordStaffAction(tx, actor, {
      action: "product_variant.update",
      entityType: "product_variant",
      entityId: String(variantId),
      before: { productId, ...audited(before) },
      after: { productId, ...audited(parsed.data) },
    });
    await invalidateStorefront(tx, "product_variant.update");
    return { ok: true, id: productId } as const;
  });
}
