import { useEffect } from "react";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/carrito";
import { QuantityStepper } from "~/components/shop/quantity-stepper";
import { DEFAULT_PRODUCT_IMAGE } from "~/components/shop/product-card";
import { cartSubtotalCents } from "~/lib/cart";
import { formatSoles } from "~/lib/money";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useCart } from "~/lib/use-cart";
import { useHydrated } from "~/lib/use-hydrated";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Carrito de compras",
    description: "Revisa los productos de tu carrito.",
    robots: "noindex,follow",
    path: "/carrito",
  });

/**
 * The cart lives in the browser (spec §3), so this page is drawn there. The checkout, the
 * purchase options and the minimum-order modal arrive with the checkout work (issue 3).
 */
export default function Carrito() {
  const hydrated = useHydrated();
  const { items, setQuantity, remove } = useCart();
  const navigate = useNavigate();

  // Spec §2: an empty cart sends the visitor to /tienda.
  useEffect(() => {
    if (hydrated && items.length === 0) navigate("/tienda", { replace: true });
  }, [hydrated, items.length, navigate]);

  if (!hydrated) {
    return (
      <main id="contenido" className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
        <h1 className="text-3xl font-bold text-brand-900">Tu carrito</h1>
        <p className="mt-6 text-slate-600">Cargando tu carrito…</p>
        <noscript>
          <p className="mt-4">Activa JavaScript para ver tu carrito.</p>
        </noscript>
      </main>
    );
  }

  return (
    <main id="contenido" className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Tu carrito</h1>
      <div className="mt-8 overflow-x-auto">
        <table className="w-full text-left">
          <thead className="border-b border-slate-200 text-sm text-slate-600">
            <tr>
              <th scope="col" className="py-3">Producto</th>
              <th scope="col" className="py-3">Precio</th>
              <th scope="col" className="py-3">Cantidad</th>
              <th scope="col" className="py-3">Total</th>
              <th scope="col" className="py-3"><span className="sr-only">Acciones</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {items.map((item) => (
              <tr key={item.key} data-testid="cart-line">
                <td className="py-4">
                  <div className="flex items-center gap-3">
                    <img src={item.image ?? DEFAULT_PRODUCT_IMAGE} alt="" width={64} height={64} className="h-16 w-16 rounded-xl bg-sky-50" />
                    <div>
                      {item.slug ? (
                        <Link to={`/tienda/producto/${item.slug}`} className="font-semibold hover:underline">
                          {item.title}
                        </Link>
                      ) : (
                        <span className="font-semibold">{item.title}</span>
                      )}
                      {item.variantTitle && <p className="text-sm text-slate-600">{item.variantTitle}</p>}
                    </div>
                  </div>
                </td>
                <td className="py-4">{formatSoles(item.price)}</td>
                <td className="py-4">
                  <QuantityStepper value={item.quantity} onChange={(next) => setQuantity(item.key, next)} label={`Cantidad de ${item.title}`} />
                </td>
                <td className="py-4 font-semibold" data-testid="cart-line-total">{formatSoles(item.price * item.quantity)}</td>
                <td className="py-4">
                  <button type="button" onClick={() => remove(item.key)} className="text-sm font-medium text-red-700 hover:underline">
                    Quitar
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-8 text-right text-xl">
        Subtotal: <strong data-testid="cart-subtotal">{formatSoles(cartSubtotalCents(items))}</strong>
      </p>
    </main>
  );
}
