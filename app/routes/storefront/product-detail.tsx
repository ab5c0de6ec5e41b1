import { data, Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/product-detail";
import { findProductBySlug, findRenamedProductSlug } from "@server/catalog/index.server";
import { getSiteSettings } from "@server/content/index.server";
import { productShareImagePath } from "@server/social-images/index.server";
import { dbContext } from "~/server/db-context.server";
import { NotFoundPage } from "~/components/layout/not-found-page";
import { DEFAULT_PRODUCT_IMAGE } from "~/components/shop/product-card";
import { ProductDetailView } from "~/components/shop/product-detail-view";
import { isPlainLine } from "@core/input-schemas";
import { absoluteUrl, pageMeta, siteFromMatches } from "~/lib/seo";

export async function loader({ params, context, request }: Route.LoaderArgs) {
  // A NUL or other control character can never be in a slug, and PostgreSQL refuses it outright.
  const product = isPlainLine(params.slug) ? await findProductBySlug(context.get(dbContext), params.slug) : null;
  if (!product) {
    // A slug staff replaced keeps its links working (issue 11): a permanent redirect to the current one.
    const renamed = isPlainLine(params.slug) ? await findRenamedProductSlug(context.get(dbContext), params.slug) : null;
    if (renamed) throw redirect(`/tienda/producto/${renamed}${new URL(request.url).search}`, 301);
    return data({ product: null, shareImage: null }, { status: 404 });
  }
  const { brandName } = await getSiteSettings(context.get(dbContext));
  return { product, shareImage: productShareImagePath(product, brandName) };
}

export function headers() {
  return { "Cache-Control": "public, max-age=60, stale-while-revalidate=300" };
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  const site = siteFromMatches(matches);
  const product = loaderData?.product;
  if (!product) {
    return pageMeta(site, {
      title: "Producto no encontrado",
      description: "Este producto no está disponible.",
      robots: "noindex,follow",
      path: location.pathname,
    });
  }
  const path = `/tienda/producto/${product.slug}`;
  const prices = product.variants.length > 0 ? product.variants.map((variant) => variant.priceCents) : [product.priceCents ?? 0];
  const low = Math.min(...prices) / 100;
  const high = Math.max(...prices) / 100;
  const url = site ? absoluteUrl(site, path) : path;
  const offers =
    low === high
      ? { "@type": "Offer", price: low.toFixed(2), priceCurrency: "PEN", availability: "https://schema.org/InStock", url }
      : {
          "@type": "AggregateOffer",
          lowPrice: low.toFixed(2),
          highPrice: high.toFixed(2),
          offerCount: prices.length,
          priceCurrency: "PEN",
          availability: "https://schema.org/InStock",
          url,
        };
  return pageMeta(site, {
    title: `${product.title} | Agua alcalina en Lima`,
    description: product.description.slice(0, 160),
    path,
    image: loaderData.shareImage ?? undefined,
    imageAlt: product.title,
    ogType: "product",
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Product",
        name: product.title,
        description: product.description,
        sku: product.sku ?? undefined,
        // Every picture of the gallery, main one first (decision 0057).
        image: site
          ? (product.images.length > 0 ? product.images.map((picture) => picture.image) : [DEFAULT_PRODUCT_IMAGE]).map((path) => absoluteUrl(site, path))
          : undefined,
        brand: { "@type": "Brand", name: site?.brandName ?? "Vida Alcalina" },
        offers,
      },
    ],
  });
};

export default function ProductDetailRoute({ loaderData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  if (!loaderData.product) return <NotFoundPage />;
  return (
    <main id="contenido" className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <nav aria-label="Ruta de navegación" className="mb-6 text-sm text-slate-600">
        <Link to="/tienda" className="hover:text-brand-700 hover:underline">
          Tienda
        </Link>{" "}
        / <span aria-current="page">{loaderData.product.title}</span>
      </nav>
      <ProductDetailView
        key={loaderData.product.id}
        product={loaderData.product}
        variantParam={searchParams.get("variante")}
        imageParam={searchParams.get("imagen")}
      />
    </main>
  );
}
