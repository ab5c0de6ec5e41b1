import { and, desc, eq, inArray, ne } from "drizzle-orm";
import { readSiteSettingsFor } from "../content/index.server";
import type { Database } from "../db/client";
import { deliveries, deliveryPhotos, orders } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { inTransaction } from "../db/transaction";
import { isUuid } from "../db/uuid";
import { prepareDeliveryPhoto, readDeliveryPhoto, storeDeliveryPhoto } from "../media/index.server";

/** The provider of pago contra entrega (issue 38), the orders a photo can be required for. */
const DOOR_PROVIDER = "contra_entrega";

export type SaveDeliveryPhotoResult = { ok: true } | { ok: false; reason: "not_found" } | { ok: false; reason: "invalid"; message: string };

/**
 * A photo of the bidones at the door, sent by the driver's phone (issue 40). Only the driver whose
 * route the stop is on may attach one (anyone else, and a stop that does not exist, get the same
 * "not_found"); the phone's key makes a repeated upload change nothing. The delivery row is locked
 * first, the row is written, and the file is stored last, so a refused upload stores nothing.
 */
export async function saveDeliveryPhoto(
  db: Database,
  input: { driverId: string; deliveryId: string; key: string; bytes: Uint8Array; now: Date },
): Promise<SaveDeliveryPhotoResult> {
  if (!isUuid(input.deliveryId) || !isUuid(input.key)) return { ok: false, reason: "not_found" };
  const photo = await prepareDeliveryPhoto(input.key, input.bytes);
  if (!photo.ok) return { ok: false, reason: "invalid", message: photo.message };
  return inTransaction(db, async (tx) => {
    const [delivery] = await tx
      .select({ id: deliveries.id, driverId: deliveries.assignedDriverId })
      .from(deliveries)
      .where(and(eq(deliveries.id, input.deliveryId), ne(deliveries.status, "cancelled")))
      .for("update");
    if (!delivery || delivery.driverId !== input.driverId) return { ok: false, reason: "not_found" } as const;
    const [existing] = await tx.select().from(deliveryPhotos).where(eq(deliveryPhotos.key, input.key));
    if (existing)
      return existing.deliveryId === delivery.id && existing.driverId === input.driverId
        ? ({ ok: true } as const)
        : ({ ok: false, reason: "not_found" } as const);
    await tx.insert(deliveryPhotos).values({
      key: input.key,
      deliveryId: delivery.id,
      driverId: input.driverId,
      storedName: photo.name,
      bytes: photo.bytes.length,
      createdAt: input.now,
    });
    await storeDeliveryPhoto(photo);
    return { ok: true } as const;
  });
}

/**
 * Whether «Marcar entregado» on this stop needs a photo it does not have yet (issue 40's setting):
 * a contra-entrega order whose total is above the amount set in Ajustes, with no photo uploaded.
 * Photos are never deleted, so a "no" read here stays true when the confirmation commits.
 */
export async function deliveryPhotoMissing(db: DatabaseOrTransaction, driverId: string, deliveryId: string): Promise<boolean> {
  if (!isUuid(deliveryId)) return false;
  const { deliveryPhotoRequiredAboveCents: above } = await readSiteSettingsFor(db, ["deliveryPhotoRequiredAboveCents"]);
  if (above === null) return false;
  const [order] = await db
    .select({ provider: orders.paymentProvider, totalCents: orders.totalCents })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    // Another driver's stop is not this check's to answer: the confirmation refuses it as not found.
    .where(and(eq(deliveries.id, deliveryId), eq(deliveries.assignedDriverId, driverId)));
  if (!order || order.provider !== DOOR_PROVIDER || order.totalCents <= above) return false;
  const [photo] = await db.select({ key: deliveryPhotos.key }).from(deliveryPhotos).where(eq(deliveryPhotos.deliveryId, deliveryId)).limit(1);
  return !photo;
}

/** What «Marcar entregado» answers when the photo the setting asks for is missing. */
export const DELIVERY_PHOTO_REQUIRED = "Este pedido contra entrega necesita la foto de los bidones en la puerta (sin personas). Tómala y confirma de nuevo.";

export interface DeliveryPhoto {
  deliveryId: string;
  bytes: Buffer;
  takenAt: Date;
}

async function latestPhotoOf(db: Database, deliveryId: string): Promise<DeliveryPhoto | null> {
  const [row] = await db.select().from(deliveryPhotos).where(eq(deliveryPhotos.deliveryId, deliveryId)).orderBy(desc(deliveryPhotos.createdAt)).limit(1);
  if (!row) return null;
  const bytes = await readDeliveryPhoto(row.storedName);
  return bytes ? { deliveryId, bytes, takenAt: row.createdAt } : null;
}

/**
 * The photo of one delivery for the customer whose account placed its order; null for anyone
 * else (another customer, nobody signed in), as for a delivery without one (spec §6: the same answer).
 */
export async function deliveryPhotoForCustomer(db: Database, userId: string | null, deliveryId: string): Promise<DeliveryPhoto | null> {
  if (!userId || !isUuid(deliveryId)) return null;
  const [own] = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .where(and(eq(deliveries.id, deliveryId), eq(orders.userId, userId)));
  return own ? latestPhotoOf(db, own.id) : null;
}

/** Whether a delivery has a photo, for the pages that link to it. */
export async function deliveriesWithPhotos(db: Database, deliveryIds: string[]): Promise<Set<string>> {
  if (deliveryIds.length === 0) return new Set();
  const rows = await db.selectDistinct({ id: deliveryPhotos.deliveryId }).from(deliveryPhotos).where(inArray(deliveryPhotos.deliveryId, deliveryIds));
  return new Set(rows.map((row) => row.id));
}

/** The photos of an order's deliveries, for staff (the order page's guard decides who is staff enough). */
export async function deliveryPhotosOfOrder(db: Database, orderId: string): Promise<DeliveryPhoto[]> {
  if (!isUuid(orderId)) return [];
  const rows = await db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.orderId, orderId));
  const photos = await Promise.all(rows.map((row) => latestPhotoOf(db, row.id)));
  return photos.filter((photo): photo is DeliveryPhoto => photo !== null);
}
