import { and, asc, eq, ne, sql } from "drizzle-orm";
import { productSchema, slugify } from "@core/catalog-schemas";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { productSlugRedirects, products, productVariants } from "../db/schema";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction, type Transaction } from "../db/transaction";
import { savingUploadedImage, writeUploadedImage, type PreparedImage } from "../media/index.server";
import { changesNothing, parseCatalog, type CatalogSaveResult, type OnPriceChange } from "./catalog-edit";
import { listProductImages, startGallery, type GalleryImage } from "./product-gallery";

export type ProductRow = typeof products.$inferSelect;
export type VariantRow = typeof productVariants.$inferSelect;
export type ProductWithVariants = ProductRow & { variants: VariantRow[] };
export type ProductForEditing = ProductWithVariants & { images: GalleryImage[] };

const productOrder = [sql`${products.sortOrder} asc nulls last`, asc(products.id)];
export const variantOrder = [sql`${productVariants.sortOrder} asc nulls last`, asc(productVariants.id)];

/** Every product with every variant, active or not, in the shop's order (the admin list). */
export async function listCatalogForEditing(db: Database): Promise<ProductWithVariants[]> {
  const rows = await db
    .select()
    .from(products)
    .orderBy(...productOrder);
  const variants = await db
    .select()
    .from(productVariants)
    .orderBy(...variantOrder);
  return rows.map((product) => ({ ...product, variants: variants.filter((variant) => variant.productId === product.id) }));
}

export async function findProductForEditing(db: Database, id: number): Promise<ProductForEditing | null> {
  const [product] = await db.select().from(products).where(eq(products.id, id));
  if (!product) return null;
  const variants = await db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, id))
    .orderBy(...variantOrder);
  return { ...product, variants, images: await listProductImages(db, id) };
}

/**
 * `image` (new products only): the gallery's first picture, as an upload whose files this save
 * writes (decision 0065) or a path already stored; later pictures go through product-gallery.ts.
 */
export interface ProductSave {
  raw: Record<string, unknown>;
  image?: PreparedImage | string | null;
  now?: Date;
}

const audited = (row: Partial<ProductRow>) => ({
  title: row.title,
  slug: row.slug,
  description: row.description,
  sku: row.sku,
  weightLabel: row.weightLabel,
  dimensionsLabel: row.dimensionsLabel,
  priceCents: row.priceCents,
  garantiaCents: row.garantiaCents,
  sortOrder: row.sortOrder,
  image: row.image,
  active: row.active,
});

const SLUG_TAKEN = "Esa dirección ya la usa otro producto (o la usó antes). Elige otra.";

/** Whether another product uses the slug now or once did (its old links still redirect there). */
async function slugTakenByAnother(tx: Transaction, slug: string, productId: number | null): Promise<boolean> {
  const [current] = await tx
    .select({ id: products.id })
    .from(products)
    .where(productId === null ? eq(products.slug, slug) : and(eq(products.slug, slug), ne(products.id, productId)));
  if (current) return true;
  const [former] = await tx.select({ productId: productSlugRedirects.productId }).from(productSlugRedirects).where(eq(productSlugRedirects.slug, slug));
  return former !== undefined && former.productId !== productId;
}

/** A new product (issue 11). Its slug is typed or made from the name, and stays as it is when the name changes later. */
export async function createProduct(db: Database, actor: StaffActor, save: ProductSave): Promise<CatalogSaveResult> {
  const parsed = parseCatalog(productSchema, save.raw);
  if (!parsed.ok) return parsed;
  const slug = parsed.data.slug || slugify(parsed.data.title);
  if (!slug) return { ok: false, reason: "invalid", fieldErrors: { slug: "Escribe la dirección del producto, por ejemplo agua-alcalina-1l" } };
  const upload = typeof save.image === "object" && save.image !== null ? save.image : null;
  const image = typeof save.image === "object" && save.image !== null ? save.image.path : save.image;
  const values = { ...parsed.data, slug, ...(image !== undefined ? { image } : {}) };
  return savingUploadedImage(db, upload, () =>
    inTransaction(db, async (tx) => {
      // Creates wait for each other, so a form posted twice at once finds the row the first post made.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('catalog.create:product'))`);
      const [same] = await tx.select().from(products).where(eq(products.slug, slug));
      if (same && changesNothing(same, { ...values, image: values.image ?? same.image })) return { ok: true, id: same.id } as const;
      if (same || (await slugTakenByAnother(tx, slug, null))) return { ok: false, reason: "invalid", fieldErrors: { slug: SLUG_TAKEN } } as const;
      const now = save.now ?? new Date();
      const [row] = await tx
        .insert(products)
        .values({ ...values, createdAt: now, updatedAt: now })
        .returning();
      if (row!.image) await startGallery(tx, row!.id, row!.image, now);
      await recordStaffAction(tx, actor, { action: "product.create", entityType: "product", entityId: String(row!.id), after: audited(row!) });
      await invalidateStorefront(tx, "product.create");
      // Last, after every check that could refuse the save: a refused form leaves no file behind.
      if (upload) await writeUploadedImage(tx, upload);
      return { ok: true, id: row!.id } as const;
    }),
  );
}

/**
 * Name, slug, texts, price, order and active flag (pictures: product-gallery.ts). There is no delete: orders, carts and
 * subscriptions name products, so one that should go is deactivated (it leaves the shop and the
 * sitemap; carts holding it show it as unavailable). A changed slug leaves the old one redirecting.
 */
export async function updateProduct(
  db: Database,
  actor: StaffActor,
  id: number,
  save: Omit<ProductSave, "image">,
  onPriceChange: OnPriceChange,
): Promise<CatalogSaveResult> {
  const parsed = parseCatalog(productSchema, save.raw);
  if (!parsed.ok) return parsed;
  return inTransaction(db, async (tx) => {
    const [before] = await tx.select().from(products).where(eq(products.id, id)).for("update");
    if (!before) return { ok: false, reason: "not_found" } as const;
    const values = { ...parsed.data, slug: parsed.data.slug || before.slug };
    if (changesNothing(before, values)) return { ok: true, id } as const;
    if (values.slug !== before.slug && (await slugTakenByAnother(tx, values.slug, id))) {
      return { ok: false, reason: "invalid", fieldErrors: { slug: SLUG_TAKEN } } as const;
    }
    const now = save.now ?? new Date();
    await tx
      .update(products)
      .set({ ...values, updatedAt: now })
      .where(eq(products.id, id));
    if (values.slug !== before.slug) {
      // The old address redirects here for good; going back to an old slug makes it current again.
      await tx.insert(productSlugRedirects).values({ slug: before.slug, productId: id, createdAt: now }).onConflictDoNothing();
      await tx.delete(productSlugRedirects).where(and(eq(productSlugRedirects.slug, values.slug), eq(productSlugRedirects.productId, id)));
    }
    if (before.priceCents !== null && values.priceCents !== null && values.priceCents !== before.priceCents) {
      await onPriceChange(tx, { productId: id, variantId: null, title: values.title, oldPriceCents: before.priceCents, newPriceCents: values.priceCents, now });
    }
    await recordStaffAction(tx, actor, {
      action: "product.update",
      entityType: "product",
      entityId: String(id),
      before: audited(before),
      after: audited({ ...before, ...values }),
    });
    await invalidateStorefront(tx, "product.update");
    return { ok: true, id } as const;
  });
}

/** The current slug of a product once published under `slug`, for the 301 of an old link; null when none. */
export async function findRenamedProductSlug(db: Database, slug: string): Promise<string | null> {
  const [row] = await db
    .select({ slug: products.slug })
    .from(productSlugRedirects)
    .innerJoin(products, eq(products.id, productSlugRedirects.productId))
    .where(and(eq(productSlugRedirects.slug, slug), eq(products.active, true)));
  return row?.slug ?? null;
}
