import { createHash } from "node:crypto";
import { asMediaStore, type MediaStore } from "./storage";

/**
 * Images staff upload (issue 11: product pictures, organisation logos). The file's own bytes say
 * what it is (sharp reads its header), never its name or the browser's type: only PNG, JPEG and
 * WebP are taken, so an SVG (which can carry script) or anything else is refused. Each upload is
 * re-encoded by sharp into the sizes the storefront draws (400 CSS pixels, and 800 for 2× screens),
 * which also drops whatever metadata or trailing bytes the original carried.
 *
 * Preparing an upload writes nothing: its files reach the disk only inside the transaction that
 * saves the row naming them, after every check that could refuse the save (image-files.ts,
 * decision 0065), so a refused form leaves no file behind.
 */

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Widths the storefront draws product images at: 1× and 2× of its 400-pixel boxes. */
export const IMAGE_WIDTHS = [400, 800] as const;
const ACCEPTED_FORMATS = new Set(["png", "jpeg", "webp"]);
/** A decompression bomb (a tiny file that decodes to gigapixels) is refused before it is decoded. */
const MAX_INPUT_PIXELS = 40_000_000;

export const IMAGE_TOO_LARGE = "La imagen pesa más de 5 MB. Sube una más liviana.";
export const IMAGE_WRONG_TYPE = "Solo aceptamos imágenes PNG, JPEG o WebP (no SVG ni otros formatos).";
export const IMAGE_UNREADABLE = "No pudimos leer la imagen. Sube un archivo PNG, JPEG o WebP válido.";

/**
 * A checked, re-encoded upload that is not stored yet. `path` is the 400-pixel version (product
 * boxes), `largePath` the 800-pixel one (wider cards); `store` is where its files go (the uploads
 * folder or the bucket, decision 0080).
 */
export interface PreparedImage {
  hash: string;
  path: string;
  largePath: string;
  store: MediaStore;
  files: { name: string; bytes: Uint8Array }[];
}

export type PreparedImageResult = { ok: true; image: PreparedImage } | { ok: false; message: string };

/** A form field's file, or null when none was chosen (an empty file input posts a nameless, empty file). */
export function chosenFile(value: FormDataEntryValue | null): File | null {
  return value instanceof File && (value.size > 0 || value.name !== "") ? value : null;
}

/** `<hash>-<width>.webp`: the only names the media folder serves, and the only ones the sweep may delete. */
export const STORED_NAME = /^([0-9a-f]{24})-(400|800)\.webp$/;

/** The stored file names of one upload, by its content hash. */
export const storedNamesOf = (hash: string): string[] => IMAGE_WIDTHS.map((width) => `${hash}-${width}.webp`);

/**
 * Checks and resizes an uploaded image in memory. Names are the content's hash, so the same picture
 * uploaded twice is one set of files, and a file once served never changes (cached as immutable).
 */
export async function prepareUploadedImage(file: File, target?: MediaStore | string): Promise<PreparedImageResult> {
  if (file.size > MAX_IMAGE_BYTES) return { ok: false, message: IMAGE_TOO_LARGE };
  const bytes = Buffer.from(await file.arrayBuffer());
  // Loaded on the first upload, not at the server's start (sharp costs it ~60 ms).
  const { default: sharp } = await import("sharp");
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    // Not an image sharp can read (text, a PDF, an SVG without a size, a broken file).
    return { ok: false, message: IMAGE_WRONG_TYPE };
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) return { ok: false, message: IMAGE_WRONG_TYPE };

  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 24);
  const files: PreparedImage["files"] = [];
  try {
    for (const width of IMAGE_WIDTHS) {
      const resized = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width, height: width, fit: "inside", withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer();
      files.push({ name: `${hash}-${width}.webp`, bytes: resized });
    }
  } catch {
    // A header sharp could read over a body it cannot decode (a truncated file).
    return { ok: false, message: IMAGE_UNREADABLE };
  }
  return { ok: true, image: { hash, path: `/media/${files[0]!.name}`, largePath: `/media/${files[1]!.name}`, store: asMediaStore(target), files } };
}

/**
 * The bytes of a stored image by its file name, or null (unknown or malformed names included, so
 * nothing but the media domain's own names is ever read: no path, no other object).
 */
export async function readStoredImage(name: string, target?: MediaStore | string): Promise<Buffer | null> {
  if (!STORED_NAME.test(name)) return null;
  return asMediaStore(target).get(name);
}
