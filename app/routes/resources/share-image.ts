import type { Route } from "./+types/share-image";
import { findProductBySlug } from "@server/catalog/index.server";
import { getSiteSettings } from "@server/content/index.server";
import { fixedShareImage, isFixedShareCard, productShareImage, productShareImageVersion, SHARE_IMAGE } from "@server/social-images/index.server";
import { dbContext } from "~/server/db-context.server";
import { shareArtwork } from "~/routes/resources/share-artwork.server";
import { isPlainLine } from "@core/input-schemas";

function png(bytes: Buffer, cacheControl: string): Response {
  return new Response(new Uint8Array(bytes), {
    headers: { "Content-Type": SHARE_IMAGE.type, "Content-Length": String(bytes.length), "Cache-Control": cacheControl },
  });
}

const notFound = () => new Response("Imagen no encontrada", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * /og/inicio.png, /og/tienda.png and /og/producto/{slug}.png: the pictures WhatsApp and Facebook
 * show for a shared page (decision 0039). A product's URL carries `?v=` of what it shows.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const file = params.file;
  if (!file.endsWith(".png")) return notFound();
  const name = file.slice(0, -".png".length);
  const { brandName } = await getSiteSettings(db);
  if (!params.kind) {
    if (!isFixedShareCard(name)) return notFound();
    // Fixed pages change only with a deploy: a day is fresh enough and keeps the URL stable.
    return png(await fixedShareImage(name, brandName, shareArtwork), "public, max-age=86400, stale-while-revalidate=604800");
  }
  if (params.kind !== "producto" || !isPlainLine(name)) return notFound();
  const product = await findProductBySlug(db, name);
  if (!product) return notFound();
  const current = new URL(request.url).searchParams.get("v") === productShareImageVersion(product, brandName);
  return png(await productShareImage(product, brandName, shareArtwork), current ? "public, max-age=31536000, immutable" : "public, max-age=3600");
}
