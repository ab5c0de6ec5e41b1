import type { Route } from "./+types/media-file";
import { env } from "@server/config/index.server";
import { MEDIA_CACHE_CONTROL, readStoredImage, STORED_NAME } from "@server/media/index.server";

/**
 * Images staff uploaded (issue 11), from the uploads folder or the bucket (decision 0080). Names
 * are content hashes, so a file never changes under its name: browsers and proxies keep it for a
 * year without asking again. With MEDIA_PUBLIC_URL (a CDN or public bucket) the picture is read
 * from there: a permanent redirect, itself cached for a year, so each browser asks the shop once.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const publicUrl = env().MEDIA_PUBLIC_URL;
  if (publicUrl && STORED_NAME.test(params.file))
    return new Response(null, { status: 301, headers: { Location: `${publicUrl}/${params.file}`, "Cache-Control": MEDIA_CACHE_CONTROL } });
  const bytes = await readStoredImage(params.file);
  if (!bytes)
    return new Response("Imagen no encontrada", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(bytes.length),
      "Cache-Control": MEDIA_CACHE_CONTROL,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
