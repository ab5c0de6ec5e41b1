import { Link } from "react-router";
import { DEFAULT_PRODUCT_IMAGE, productImageSrcSet } from "./product-card";
import type { ProductPicture } from "@server/catalog/index.server";

/** `?imagen=N` (1-based) picks the picture shown large; anything else shows the first. */
function selectedPictureIndex(count: number, imageParam: string | null): number {
  const position = Number(imageParam);
  return Number.isInteger(position) && position >= 1 && position <= count ? position - 1 : 0;
}

/**
 * The product's pictures (decision 0057): the chosen one large, and with several a row of
 * thumbnails that are plain links to `?imagen=N`. The server draws the page with that picture
 * large, so the gallery works without JavaScript and adds no script of its own to the page's budget.
 */
export function ProductGallery({
  title,
  images,
  imageParam,
  hrefOf,
}: {
  title: string;
  images: ProductPicture[];
  imageParam: string | null;
  hrefOf: (position: number) => string;
}) {
  const selected = selectedPictureIndex(images.length, imageParam);
  const main = images[selected];
  return (
    <div className="min-w-0">
      <img
        src={main?.image ?? DEFAULT_PRODUCT_IMAGE}
        srcSet={productImageSrcSet(main?.image ?? null)}
        alt={main?.alt || title}
        width={400}
        height={400}
        fetchPriority="high"
        className="aspect-square w-full rounded-3xl bg-sky-50 object-contain"
      />
      {images.length > 1 && (
        <ul className="mt-4 flex flex-wrap gap-2" aria-label="Imágenes del producto">
          {images.map((picture, index) => (
            <li key={picture.image}>
              <Link
                to={hrefOf(index + 1)}
                replace
                preventScrollReset
                aria-current={index === selected ? "true" : undefined}
                className={`block rounded-xl border-2 ${index === selected ? "border-brand-700" : "border-transparent hover:border-slate-300"}`}
              >
                <img src={picture.image} alt="" width={64} height={64} loading="lazy" className="h-16 w-16 rounded-lg bg-sky-50 object-contain" />
                <span className="sr-only">
                  Ver imagen {index + 1} de {images.length}
                  {picture.alt && `: ${picture.alt}`}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
