import { useEffect } from "react";
import { data, Link, useNavigate } from "react-router";
import type { Route } from "./+types/repeat-order";
import { getSignedInUser } from "@server/accounts/index.server";
import { reorderCart } from "@server/reorders/index.server";
import type { CheckoutNavigationState } from "~/components/checkout/checkout-form";
import { dbContext } from "~/server/db-context.server";
import { isUuid } from "@core/input-schemas";
import { cartItemFromPricedLine, type CartItem } from "~/lib/cart";
import { usePurchaseOptions } from "~/lib/purchase-options";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useCart } from "~/lib/use-cart";
import { privatePageHeaders } from "~/server/order-receipt.server";

const NOT_FOUND = "No encontramos ese pedido. Revisa el enlace o inicia sesión con la cuenta que hizo el pedido.";

/**
 * "Repetir pedido" (decision 0076): the order's products at today's prices, its purchase type and
 * what the checkout may fill in, for the order's customer (signed in) or the holder of its signed
 * link. Only reads: the cart lives in the browser, which this page fills before going on to
 * /checkout, the way /resume-cart does.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isUuid(params.orderId)) throw data(NOT_FOUND, { status: 404 });
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  const found = await reorderCart(db, { orderId: params.orderId, userId: user?.id ?? null, token, now: new Date() });
  if (!found.ok) throw data(NOT_FOUND, { status: 404 });
  const items: CartItem[] = found.lines.map(cartItemFromPricedLine);
  const state: CheckoutNavigationState = {
    purchaseType: found.purchaseType,
    subscriptionFrequency: found.subscriptionFrequency,
    prefill: found.prefill,
    notes: found.notes,
  };
  // Issue 41: a subscription's order asks first: the same once (the default), or the subscription.
  const onceHref = `?${new URLSearchParams({ ...(token ? { token: token.slice(0, 500) } : {}), como: "una-vez" }).toString()}`;
  const ask = found.fromSubscription && url.searchParams.get("como") !== "una-vez";
  return { orderNumber: found.orderNumber, items, state, ask, onceHref };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Repetir pedido",
    description: "Vuelve a pedir lo mismo, a los precios de hoy.",
    robots: "noindex,nofollow",
    path: `/repetir-pedido/${params.orderId}`,
  });

export default function RepeatOrder({ loaderData }: Route.ComponentProps) {
  const { replace } = useCart();
  const { update } = usePurchaseOptions();
  const navigate = useNavigate();
  const { items, state, orderNumber, ask, onceHref } = loaderData;
  useEffect(() => {
    if (items.length === 0 || ask) return;
    replace(items);
    // The cart page and later visits keep the repeated order's purchase type too.
    update({ purchaseType: state.purchaseType, subscriptionFrequency: state.subscriptionFrequency });
    void navigate("/checkout", { replace: true, state }); // failures reach the error boundary, not this promise
  }, [items, state, ask, replace, update, navigate]);

  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-16 text-center sm:px-6">
      <h1 className="text-2xl font-bold text-brand-900">Repetir pedido {orderNumber}</h1>
      {items.length === 0 ? (
        <>
          <div role="alert" className="mt-6 space-y-2 rounded-xl bg-red-50 p-4 text-left text-red-800">
            <p>Ninguno de los productos de este pedido está disponible hoy.</p>
            {state.notes?.map((note) => (
              <p key={note}>{note}</p>
            ))}
          </div>
          <Link to="/tienda" className="mt-6 inline-block rounded-full bg-brand-700 px-6 py-3 font-semibold text-white">
            Ir a la tienda
          </Link>
        </>
      ) : ask ? (
        <div className="mt-6 space-y-4" data-testid="repeat-choice">
          <p className="text-slate-700">Este pedido es de tu suscripción. ¿Qué quieres hacer?</p>
          <div className="flex flex-col items-center gap-3">
            <Link to={onceHref} className="inline-block rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
              Pedir lo mismo una vez
            </Link>
            <p className="text-sm text-slate-600">Una compra única, a los precios de hoy. Tu suscripción sigue igual.</p>
            <Link
              to="/dashboard/suscripcion"
              className="inline-block rounded-full border border-brand-700 px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50"
            >
              Ir a mi suscripción
            </Link>
          </div>
        </div>
      ) : (
        <p className="mt-6 text-slate-700">Preparando tu carrito…</p>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = error && typeof error === "object" && "status" in error && error.status === 404;
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-16 text-center sm:px-6">
      <h1 className="text-2xl font-bold text-brand-900">Repetir pedido</h1>
      <p role="alert" className="mt-6 rounded-xl bg-red-50 p-4 text-red-800">
        {notFound ? NOT_FOUND : "No pudimos preparar tu pedido. Intenta nuevamente en unos minutos."}
      </p>
      <Link to="/tienda" className="mt-6 inline-block rounded-full bg-brand-700 px-6 py-3 font-semibold text-white">
        Ir a la tienda
      </Link>
    </main>
  );
}
