/** What the phone sends at most per photo of the bidones (issue 40): a few seconds on a weak signal. */
export const MAX_PHOTO_BYTES = 200 * 1024;
const FIRST_LONGEST_SIDE = 1280;

function encode(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("encode"))), "image/jpeg", quality));
}

/**
 * The camera's photo made small on the phone (issue 40): drawn on a canvas at most 1280 px on its
 * longest side and encoded as JPEG, lowering the quality and then the size until it weighs at
 * most 200 KB. A canvas keeps no EXIF, so the phone's position never leaves it.
 */
export async function compressPhoto(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  try {
    let side = FIRST_LONGEST_SIDE;
    for (;;) {
      const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      canvas.getContext("2d")!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      for (const quality of [0.8, 0.65, 0.5]) {
        const blob = await encode(canvas, quality);
        if (blob.size <= MAX_PHOTO_BYTES) return blob;
      }
      side = Math.round(side * 0.7);
    }
  } finally {
    bitmap.close();
  }
}
