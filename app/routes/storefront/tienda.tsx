import { Suspense } from "react";
import { Await } from "react-router";
import type { Route } from "./+types/tienda";
import { listShopProducts, type ShopProduct } from "@server/catalog/index.server";
import { dbContext } from "~/server/db-context.server";
import { ProductCard } from "~/components/shop/product-card";
import { pageMeta, SHOP_SHARE_IMAGE, siteFromMatches } from "~/lib/seo";

export function loader({ context }: Route.LoaderArgs) {
  return { products: listShopProducts(context.get(dbContext)) };
}

export function headers() {
  return { "Cache-Control": "public, max-age=60, stale-while-revalidate=300" };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Tienda de agua alcalina en Lima | Botellas, bidones y suscripciones",
    image: SHOP_SHARE_IMAGE,
    description:
      "Compra agua alcalina pH 8.5 en presentaciones de 625 ml, 1 L, 8 L, bidones retornables de 20 L y caja con dispensador. Delivery en Lima y hasta 15% de descuento con suscripción.",
    path: "/tienda",
  });

function ProductGrid({ products }: { products: ShopProduct[] }) {
  if (products.length === 0) {
    return <p className="rounded-2xl bg-slate-50 p-8 text-center text-slate-600">No hay productos disponibles</p>;
  }
  return (
    <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4" data-testid="product-grid">
      {products.map((product, index) => (
        <li key={product.id}>
          {/* A phone's first row holds two cards. */}
          <ProductCard product={product} inFirstScreen={index < 2} />
        </li>
      ))}
    </ul>
  );
}

export default function Tienda({ loaderData }: Route.ComponentProps) {
  return (
    <main id="contenido" className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <div className="mb-8 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h1 className="text-3xl font-bold text-brand-900 sm:text-4xl">Nuestros productos</h1>
        <p className="text-slate-600">(Mínimo de compra S/50)</p>
      </div>
      <Suspense fallback={<p className="py-12 text-center text-slate-600">Cargando productos…</p>}>
        <Await resolve={loaderData.products}>{(products) => <ProductGrid products={products} />}</Await>
      </Suspense>
    </main>
  );
}
