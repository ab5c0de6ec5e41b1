import { Suspense } from "react";
import { Await, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/home";
import { listShopProducts } from "@server/catalog/index.server";
import { dbContext } from "~/server/db-context.server";
import { SubscriptionSteps } from "~/components/home/subscription-steps";
import { ProductCard } from "~/components/shop/product-card";
import { LinkButton } from "~/components/ui/link-button";
import { Reveal } from "~/components/ui/reveal";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import type { loader as rootLoader } from "~/root";
// Drawn in the document, not fetched: an <img> of it was the page's largest paint, one request after
// the stylesheet; drawn inline, the headline is (issue 43). The same file draws the shared picture.
import heroDrawing from "~/components/home/hero.svg?raw";

export function loader({ context }: Route.LoaderArgs) {
  return { products: listShopProducts(context.get(dbContext)).then((products) => products.slice(0, 4)) };
}

export function headers() {
  return { "Cache-Control": "public, max-age=60, stale-while-revalidate=300" };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  return pageMeta(site, {
    title: `${site?.brandName ?? "Vida Alcalina"} | Agua alcalina pH 8.5 en Perú con delivery en Lima`,
    description:
      "Agua alcalina pH 8.5 con calcio, potasio, magnesio y sodio. Compra una vez o suscríbete y ahorra hasta 15%, con delivery en Lima y envases retornables.",
    path: "/",
  });
};

const benefits = [
  { title: "Delivery gratis", text: "Entregas sin costo para suscriptores en distritos seleccionados de Lima." },
  { title: "pH 8.5 con minerales", text: "Calcio, potasio, magnesio y sodio para una hidratación completa." },
  { title: "Descuentos por suscripción", text: "Ahorra 5% con el plan mensual y 15% con el plan anual." },
  { title: "Impacto positivo", text: "Envases retornables y reciclables, y apoyo a causas sociales." },
];

const subscriberPerks = [
  "Ahorra hasta 15% en cada pedido",
  "Delivery gratis en distritos seleccionados",
  "Participa en sorteos exclusivos",
  "Elige la causa social que apoyas",
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const brandName = useRouteLoaderData<typeof rootLoader>("root")?.site.brandName ?? "Vida Alcalina";
  const closingLabel = useRouteLoaderData<typeof rootLoader>("root")?.site.closingCtaLabel ?? "Compra ahora";
  return (
    <main id="contenido">
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto grid max-w-7xl items-center gap-8 px-4 py-12 sm:px-6 md:grid-cols-2 md:py-20">
          <div>
            <p className="mb-3 inline-block rounded-full bg-brand-100 px-4 py-1 text-sm font-semibold text-brand-800">Agua alcalina pH 8.5 · Lima</p>
            <h1 className="text-4xl leading-tight font-black text-brand-900 sm:text-5xl">Cuidamos de ti y del planeta</h1>
            <p className="mt-4 max-w-lg text-lg text-slate-700">
              Agua alcalina con minerales en envases retornables y reciclables, directo a tu puerta. Compra una vez o suscríbete y ahorra.
            </p>
            <LinkButton to="/tienda" className="mt-8">
              Explorar productos
            </LinkButton>
          </div>
          <div
            role="img"
            aria-label="Botellas y bidones de agua alcalina frente al mar de Lima"
            className="aspect-[720/560] w-full [&>svg]:h-full [&>svg]:w-full"
            dangerouslySetInnerHTML={{ __html: heroDrawing }}
          />
        </div>
      </section>

      <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6" aria-labelledby="beneficios">
        <Reveal>
          <h2 id="beneficios" className="text-center text-3xl font-bold text-brand-900">
            ¿Por qué elegir {brandName}?
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {benefits.map((benefit) => (
              <li key={benefit.title} className="rounded-3xl border border-slate-100 p-6 shadow-sm">
                <h3 className="font-semibold text-brand-800">{benefit.title}</h3>
                <p className="mt-2 text-sm text-slate-600">{benefit.text}</p>
              </li>
            ))}
          </ul>
        </Reveal>
      </section>

      <section className="bg-sky-50 py-16" aria-labelledby="presentaciones">
        <Reveal className="mx-auto max-w-7xl px-4 sm:px-6">
          <h2 id="presentaciones" className="text-center text-3xl font-bold text-brand-900">
            Elige tu presentación
          </h2>
          <Suspense fallback={<p className="py-10 text-center text-slate-600">Cargando productos…</p>}>
            <Await resolve={loaderData.products}>
              {(products) =>
                products.length === 0 ? (
                  <p className="py-10 text-center text-slate-600">No hay productos disponibles</p>
                ) : (
                  <ul className="mt-10 grid grid-cols-2 gap-4 lg:grid-cols-4">
                    {products.map((product) => (
                      <li key={product.id}>
                        <ProductCard product={product} headingLevel="h3" />
                      </li>
                    ))}
                  </ul>
                )
              }
            </Await>
          </Suspense>
          <div className="mt-10 grid items-center gap-8 rounded-3xl bg-brand-800 p-8 text-white md:grid-cols-[1fr_auto]">
            <div>
              <p className="inline-block rounded-full bg-leaf-700 px-3 py-1 text-sm font-bold">Hasta 15% dscto</p>
              <h3 className="mt-3 text-2xl font-bold">Beneficios de suscribirte</h3>
              <ul className="mt-4 grid gap-2 sm:grid-cols-2">
                {subscriberPerks.map((perk) => (
                  <li key={perk} className="flex gap-2">
                    <span aria-hidden="true">✓</span>
                    {perk}
                  </li>
                ))}
              </ul>
            </div>
            <LinkButton to="/tienda" variant="light">
              Compra y suscríbete
            </LinkButton>
          </div>
        </Reveal>
      </section>

      <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6" aria-labelledby="como-funciona">
        <Reveal>
          <h2 id="como-funciona" className="text-center text-3xl font-bold text-brand-900">
            ¿Cómo funciona la suscripción?
          </h2>
          <div className="mt-10 rounded-3xl bg-brand-50 p-4 sm:p-8">
            <SubscriptionSteps />
          </div>
          <div className="mt-8 text-center">
            <LinkButton to="/tienda">Suscríbete</LinkButton>
          </div>
        </Reveal>
      </section>

      <section className="bg-leaf-700 text-white" aria-labelledby="proposito">
        <Reveal className="mx-auto grid max-w-7xl items-center gap-8 px-4 py-16 sm:px-6 md:grid-cols-2">
          <div>
            <h2 id="proposito" className="text-3xl font-bold">
              Cada gota transforma
            </h2>
            <p className="mt-4 text-lg">
              Con cada suscripción apoyamos reforestación, comedores populares, limpieza de playas y más. Tú eliges la causa y la comunidad vota por las
              organizaciones que acompañamos.
            </p>
            <LinkButton to="/nosotros" variant="light" className="mt-8">
              Conoce nuestro impacto
            </LinkButton>
          </div>
          <img src="/images/organizations/reforestacion.svg" alt="" width={480} height={320} loading="lazy" className="h-auto w-full rounded-3xl" />
        </Reveal>
      </section>

      <section className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6" aria-labelledby="cierre">
        <Reveal>
          <h2 id="cierre" className="text-3xl font-bold text-brand-900">
            Hidrátate mejor desde hoy
          </h2>
          <p className="mt-3 text-lg text-slate-700">Pide tu agua alcalina y recíbela en tu distrito el día de reparto que prefieras.</p>
          <LinkButton to="/tienda" className="mt-8">
            {closingLabel}
          </LinkButton>
        </Reveal>
      </section>
    </main>
  );
}
