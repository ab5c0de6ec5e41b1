import { Link } from "react-router";
import type { Route } from "./+types/pago-error";
import { pageMeta, siteFromMatches } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "No pudimos procesar tu pago",
    description: "Tu compra no se completó.",
    robots: "noindex,nofollow",
    path: "/pago-error",
  });

/** Spec §2 /pago-error: the order stays failed; the cart is untouched so the customer can retry. */
export default function PagoError() {
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-16 text-center sm:px-6">
      <h1 className="text-3xl font-bold text-red-800">No pudimos procesar tu pago</h1>
      <p className="mt-3 text-slate-700">Tu compra no se completó. Puedes volver al carrito y reintentar.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/carrito" className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
          Volver al carrito
        </Link>
        <Link to="/tienda" className="rounded-full border border-brand-700 px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50">
          Ir a la tienda
        </Link>
      </div>
    </main>
  );
}
