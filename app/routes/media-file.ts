import type { Route } from "./+types/media-file";
import { readStoredImage } from "@server/media/index.server";

/**
 * Images staff uploaded (issue 11), from the uploads folder. Names are content hashes, so a file
 * never changes under its name: browsers and proxies keep it for a year without asking again.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const bytes = await readStoredImage(params.file);
  if (!bytes)
    return new Response("Imagen no encontrada", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(bytes.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
