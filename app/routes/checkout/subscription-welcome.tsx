import { useEffect } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/subscription-welcome";
import { getSignedInUser } from "@server/accounts/index.server";
import { findSubscriptionForUser, findSubscriptionStatus, type SubscriptionView } from "@server/subscriptions/index.server";
import { SubscriptionSummary } from "~/components/account/subscription-card";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { subscriptionStatusLabel } from "~/lib/subscription-labels";
import { useCart } from "~/lib/use-cart";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { isOrderOwner } from "~/server/order-cookie.server";
import { loginUrlFor } from "~/server/session.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const subscriptionId = new URL(request.url).searchParams.get("subscriptionId");
  if (!subscriptionId) throw data("Falta subscriptionId", { status: 400 });
  const db = context.get(dbContext);
  // decisions.md: a page reached by id shows its status to anyone and the personal details
  // (address, card, products) only to the owner: the signed-in customer, or the browser that
  // placed the first order (its signed cookie from checkout, or the emailed link's token).
  const found = await findSubscriptionStatus(db, subscriptionId);
  if (!found || found.status === "pending_payment") throw data("No se pudo cargar la suscripción", { status: 404 });
  const user = await getSignedInUser(db, request);
  const owner = user?.id === found.userId || (found.orderId !== null && (await isOrderOwner(request, found.orderId)));
  if (!owner) {
    return {
      subscription: null,
      status: { subscriptionNumber: found.subscriptionNumber, status: found.status },
      signedIn: user !== null,
      loginUrl: loginUrlFor(request),
    };
  }
  const subscription = await findSubscriptionForUser(db, found.userId, subscriptionId);
  if (!subscription) throw data("No se pudo cargar la suscripción", { status: 404 });
  return { subscription, status: null, signedIn: user !== null, loginUrl: null };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "¡Bienvenido a tu suscripción!",
    description: "Tu suscripción está activa.",
    robots: "noindex,nofollow",
    path: "/suscripcion/bienvenido",
  });

/** Spec §4: the session flag marking a created subscription is removed after 1 s. */
const CREATED_FLAG = "va-subscription-created";

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = error && typeof error === "object" && "data" in error && typeof error.data === "string" ? error.data : "No se pudo cargar la suscripción";
  return (
    <main id="contenido" className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Tu suscripción</h1>
      <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800">
        {message}
      </p>
      <Link to="/tienda" className="mt-6 inline-block font-semibold text-brand-800 underline">
        Volver a la tienda
      </Link>
    </main>
  );
}

export default function SubscriptionWelcome({ loaderData }: Route.ComponentProps) {
  if (!loaderData.subscription) return <SubscriptionStatusOnly {...loaderData.status} signedIn={loaderData.signedIn} loginUrl={loaderData.loginUrl} />;
  return <Welcome subscription={loaderData.subscription} />;
}

/** Anyone else holding the link: the subscription's number and state, nothing personal. */
function SubscriptionStatusOnly({
  subscriptionNumber,
  status,
  signedIn,
  loginUrl,
}: {
  subscriptionNumber: string;
  status: string;
  signedIn: boolean;
  loginUrl: string | null;
}) {
  return (
    <main id="contenido" className="mx-auto max-w-2xl space-y-6 px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Suscripción {subscriptionNumber}</h1>
      <p className="text-slate-700">
        Estado: <strong data-testid="subscription-status">{subscriptionStatusLabel(status)}</strong>
      </p>
      <p className="text-slate-700">
        {signedIn
          ? "Esta suscripción es de otra cuenta: solo su titular puede ver sus datos."
          : "Para ver los datos de tu suscripción, inicia sesión con la cuenta con la que te suscribiste."}
      </p>
      <div className="flex flex-wrap gap-3">
        {!signedIn && loginUrl && (
          <Link to={loginUrl} className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
            Iniciar sesión
          </Link>
        )}
        <Link to="/tienda" className="rounded-full border-2 border-brand-700 px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50">
          Ir a la tienda
        </Link>
      </div>
    </main>
  );
}

function Welcome({ subscription }: { subscription: SubscriptionView }) {
  const { clear } = useCart();
  useEffect(() => {
    // Spec §4: once subscribed the cart is cleared, once per subscription in this browser.
    const key = `va-cart-cleared:${subscription.id}`;
    if (window.localStorage.getItem(key)) return;
    window.localStorage.setItem(key, "1");
    clear();
    window.sessionStorage.setItem(CREATED_FLAG, subscription.id);
    const timer = window.setTimeout(() => window.sessionStorage.removeItem(CREATED_FLAG), 1000);
    return () => window.clearTimeout(timer);
  }, [subscription.id, clear]);
  return (
    <main id="contenido" className="mx-auto max-w-2xl space-y-6 px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">¡Bienvenido a tu suscripción!</h1>
      <p className="text-slate-700">
        Tu suscripción está activa. Te enviamos la confirmación y la boleta a tu correo; te avisaremos unos días antes de cada cobro.
      </p>
      <SubscriptionSummary subscription={subscription} />
      <div className="flex flex-wrap gap-3">
        <Link to={`/dashboard/suscripciones/${subscription.id}`} className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
          Ver mi suscripción
        </Link>
        <Link to="/tienda" className="rounded-full border-2 border-brand-700 px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50">
          Seguir comprando
        </Link>
      </div>
    </main>
  );
}
