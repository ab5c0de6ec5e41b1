import { asMediaStore, type MediaStore } from "./storage";

/**
 * Photos of the bidones at the door (issue 40). The phone compresses them to at most 200 KB; the
 * server takes a little more (a phone's encoder may overshoot), checks that the bytes are a JPEG,
 * PNG or WebP by their own header, and re-encodes them, which drops the EXIF block (the phone's
 * GPS position and its model travel there). They live in the shared store (disk or bucket,
 * decision 0080) under names the public /media route never serves and the media sweep never
 * touches: only their own routes read them, after checking who asks.
 */
export const MAX_DELIVERY_PHOTO_BYTES = 300 * 1024;
/** The longest side kept: enough to count bidones at a door, small enough for a phone's upload. */
const LONGEST_SIDE = 1280;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp"]);
const MAX_INPUT_PIXELS = 40_000_000;
export const DELIVERY_PHOTO_NAME = /^entrega-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

export type DeliveryPhotoFile = { ok: true; name: string; bytes: Uint8Array; store: MediaStore } | { ok: false; message: string };

export const DELIVERY_PHOTO_TOO_LARGE = "La foto pesa demasiado. Tómala de nuevo.";
export const DELIVERY_PHOTO_UNREADABLE = "No pudimos leer la foto. Tómala de nuevo.";

/** Checks and re-encodes a photo sent by the phone under the phone's key for it; writes nothing. */
export async function prepareDeliveryPhoto(key: string, bytes: Uint8Array, target?: MediaStore | string): Promise<DeliveryPhotoFile> {
  if (bytes.length === 0) return { ok: false, message: DELIVERY_PHOTO_UNREADABLE };
  if (bytes.length > MAX_DELIVERY_PHOTO_BYTES) return { ok: false, message: DELIVERY_PHOTO_TOO_LARGE };
  // Loaded on the first photo, not at the server's start (sharp costs it ~60 ms).
  const { default: sharp } = await import("sharp");
  try {
    const format = (await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
    if (!format || !ACCEPTED_FORMATS.has(format)) return { ok: false, message: DELIVERY_PHOTO_UNREADABLE };
    const encoded = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: LONGEST_SIDE, height: LONGEST_SIDE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    return { ok: true, name: `entrega-${key.toLowerCase()}.webp`, bytes: new Uint8Array(encoded), store: asMediaStore(target) };
  } catch {
    return { ok: false, message: DELIVERY_PHOTO_UNREADABLE };
  }
}

/** Stores a prepared photo whole (writing it again is harmless: the same name, the same bytes). */
export async function storeDeliveryPhoto(photo: Extract<DeliveryPhotoFile, { ok: true }>): Promise<void> {
  await photo.store.put(photo.name, photo.bytes);
}

/** A stored photo's bytes by its name, or null; nothing but these photos' own names is ever read. */
export async function readDeliveryPhoto(name: string, target?: MediaStore | string): Promise<Buffer | null> {
  if (!DELIVERY_PHOTO_NAME.test(name)) return null;
  return asMediaStore(target).get(name);
}
