import { asc, eq } from "drizzle-orm";
import { MAX_PRODUCT_IMAGES, productImageAltSchema } from "@core/catalog-schemas";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { productImages, products } from "../db/schema";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction, type DatabaseOrTransaction, type Transaction } from "../db/transaction";
import { savingUploadedImage, writeUploadedImage, type PreparedImage } from "../media/index.server";
import { parseCatalog, type CatalogSaveResult } from "./catalog-edit";

/**
 * A product's gallery (issue 11, decision 0057): up to MAX_PRODUCT_IMAGES pictures in order, the
 * first one the main picture. `products.image` stays equal to the first one, written in the same
 * transaction as every gallery change, so everything that shows one picture (cards, cart, share
 * cards, the cart's stored lines) keeps reading that column.
 *
 * Each write locks the product's row first (parent before its pictures, decision 0025), so two
 * writes to one gallery run one after the other and positions stay 1..n without gaps. Every write
 * is idempotent: the same picture is in a gallery once, a move names the position it goes to (not
 * "one up"), a removed picture is already gone for a second click, and a save that changes nothing
 * writes, audits and invalidates nothing.
 */

export type GalleryImage = typeof productImages.$inferSelect;

const GALLERY_FULL = `Este producto ya tiene ${MAX_PRODUCT_IMAGES} imágenes, el máximo. Quita una antes de agregar otra.`;

/** The gallery in order (main picture first). */
export async function listProductImages(db: DatabaseOrTransaction, productId: number): Promise<GalleryImage[]> {
  return db.select().from(productImages).where(eq(productImages.productId, productId)).orderBy(asc(productImages.position), asc(productImages.id));
}

const audited = (productId: number, row: GalleryImage, position = row.position) => ({ productId, image: row.image, alt: row.alt, position });

/** Locks the product and reads its gallery; null when the product does not exist. */
async function lockGallery(tx: Transaction, productId: number): Promise<{ gallery: GalleryImage[] } | null> {
  const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for("update");
  return product ? { gallery: await listProductImages(tx, productId) } : null;
}

/**
 * Writes positions 1..n in the given order (only rows whose position changes), then makes the
 * product's main picture the first one. Called with the product's row locked.
 */
async function settleGallery(tx: Transaction, productId: number, ordered: GalleryImage[], now: Date): Promise<void> {
  for (const [index, row] of ordered.entries()) {
    if (row.position !== index + 1)
      await tx
        .update(productImages)
        .set({ position: index + 1 })
        .where(eq(productImages.id, row.id));
  }
  await tx
    .update(products)
    .set({ image: ordered[0]?.image ?? null, updatedAt: now })
    .where(eq(products.id, productId));
}

/** A new product's first picture (its main one), inside the transaction that creates the product. */
export async function startGallery(tx: Transaction, productId: number, image: string, now: Date): Promise<void> {
  await tx.insert(productImages).values({ productId, image, position: 1, createdAt: now });
}

/**
 * Adds a picture at the end of the gallery (the main picture when it is the first): an upload
 * whose files this save writes once nothing refuses it (decision 0065), or a path already stored.
 */
export async function addProductImage(
  db: Database,
  actor: StaffActor,
  productId: number,
  picture: { image: PreparedImage | string; alt: unknown },
  now = new Date(),
): Promise<CatalogSaveResult> {
  const parsed = parseCatalog(productImageAltSchema, { alt: picture.alt });
  if (!parsed.ok) return parsed;
  const upload = typeof picture.image === "string" ? null : picture.image;
  const image = typeof picture.image === "string" ? picture.image : picture.image.path;
  return savingUploadedImage(db, upload, () =>
    inTransaction(db, async (tx) => {
      const locked = await lockGallery(tx, productId);
      if (!locked) return { ok: false, reason: "not_found" } as const;
      // The same file posted twice (a double click, or the same picture again) is one picture; its files are already there.
      if (locked.gallery.some((row) => row.image === image)) return { ok: true, id: productId } as const;
      if (locked.gallery.length >= MAX_PRODUCT_IMAGES) return { ok: false, reason: "invalid", fieldErrors: { imageFile: GALLERY_FULL } } as const;
      const [row] = await tx
        .insert(productImages)
        .values({ productId, image, alt: parsed.data.alt, position: locked.gallery.length + 1, createdAt: now })
        .returning();
      await settleGallery(tx, productId, [...locked.gallery, row!], now);
      await recordStaffAction(tx, actor, {
        action: "product_image.add",
        entityType: "product_image",
        entityId: String(row!.id),
        after: audited(productId, row!),
      });
      await invalidateStorefront(tx, "product_image.add");
      // Last, after every check that could refuse the save: a refused picture leaves no file behind.
      if (upload) await writeUploadedImage(tx, upload);
      return { ok: true, id: productId } as const;
    }),
  );
}

/**
 * Takes a picture out of the gallery; the next one moves up (the main picture when it was the
 * first). Only the row goes: the same file may be in another gallery, so the media sweep deletes
 * it once no row names it and the grace period has passed (decision 0065).
 */
export async function removeProductImage(db: Database, actor: StaffActor, productId: number, imageId: number, now = new Date()): Promise<CatalogSaveResult> {
  return inTransaction(db, async (tx) => {
    const locked = await lockGallery(tx, productId);
    if (!locked) return { ok: false, reason: "not_found" } as const;
    const target = locked.gallery.find((row) => row.id === imageId);
    // Already removed (a second click): nothing left to do.
    if (!target) return { ok: true, id: productId } as const;
    await tx.delete(productImages).where(eq(productImages.id, imageId));
    await settleGallery(
      tx,
      productId,
      locked.gallery.filter((row) => row.id !== imageId),
      now,
    );
    await recordStaffAction(tx, actor, {
      action: "product_image.remove",
      entityType: "product_image",
      entityId: String(imageId),
      before: audited(productId, target),
    });
    await invalidateStorefront(tx, "product_image.remove");
    return { ok: true, id: productId } as const;
  });
}

/** Moves a picture to `toPosition` (1 makes it the main picture); the others keep their order. */
export async function moveProductImage(
  db: Database,
  actor: StaffActor,
  productId: number,
  imageId: number,
  toPosition: number,
  now = new Date(),
): Promise<CatalogSaveResult> {
  return inTransaction(db, async (tx) => {
    const locked = await lockGallery(tx, productId);
    const target = locked?.gallery.find((row) => row.id === imageId);
    if (!locked || !target) return { ok: false, reason: "not_found" } as const;
    const position = Math.min(Math.max(toPosition, 1), locked.gallery.length);
    if (position === target.position) return { ok: true, id: productId } as const;
    const ordered = locked.gallery.filter((row) => row.id !== imageId);
    ordered.splice(position - 1, 0, target);
    await settleGallery(tx, productId, ordered, now);
    await recordStaffAction(tx, actor, {
      action: "product_image.move",
      entityType: "product_image",
      entityId: String(imageId),
      before: audited(productId, target),
      after: audited(productId, target, position),
    });
    await invalidateStorefront(tx, "product_image.move");
    return { ok: true, id: productId } as const;
  });
}

/** A picture's text alternative; empty means the product's name stands for it. */
export async function updateProductImageAlt(
  db: Database,
  actor: StaffActor,
  productId: number,
  imageId: number,
  alt: unknown,
  now = new Date(),
): Promise<CatalogSaveResult> {
  const parsed = parseCatalog(productImageAltSchema, { alt });
  if (!parsed.ok) return parsed;
  return inTransaction(db, async (tx) => {
    const locked = await lockGallery(tx, productId);
    const target = locked?.gallery.find((row) => row.id === imageId);
    if (!locked || !target) return { ok: false, reason: "not_found" } as const;
    if (target.alt === parsed.data.alt) return { ok: true, id: productId } as const;
    await tx.update(productImages).set({ alt: parsed.data.alt }).where(eq(productImages.id, imageId));
    await tx.update(products).set({ updatedAt: now }).where(eq(products.id, productId));
    await recordStaffAction(tx, actor, {
      action: "product_image.alt",
      entityType: "product_image",
      entityId: String(imageId),
      before: audited(productId, target),
      after: { ...audited(productId, target), alt: parsed.data.alt },
    });
    await invalidateStorefront(tx, "product_image.alt");
    return { ok: true, id: productId } as const;
  });
}
