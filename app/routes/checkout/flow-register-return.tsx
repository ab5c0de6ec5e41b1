import { useEffect, useRef } from "react";
import { Link, useFetcher, useNavigate } from "react-router";
import type { Route } from "./+types/flow-register-return";
import { getSignedInUser } from "@server/accounts/index.server";
import { flowClient, flowConfigured, FLOW_REGISTRATION_FAILED } from "@server/payments/index.server";
import { completeFlowCardRegistration, type FlowReturnOutcome } from "@server/subscriptions/index.server";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useCart } from "~/lib/use-cart";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { loginUrlFor } from "~/server/session.server";
import { siteInfo } from "~/server/site-info.server";

/** Spec §8, card return: the catalogue's messages, word for word. */
const MESSAGES = {
  redirectError: "Error en el proceso de redirección. Por favor contacta a soporte.",
  noToken: "No se recibió token de verificación",
  noUser: "No se encontró usuario autenticado",
  noPending: "No se encontró suscripción pendiente. Por favor contacta a soporte.",
  activationFailed: "Error al activar suscripción. Por favor contacta a soporte.",
  generic: "Error al procesar la suscripción. Por favor contacta a soporte.",
  notRegistered: FLOW_REGISTRATION_FAILED,
  internal: "Error interno del sistema. Por favor contacta a soporte.",
} as const;
/** The spec names a warning state without its text (decision 0021). */
const WARNING = "Tu tarjeta quedó registrada y estamos confirmando el pago de tu suscripción. Revisa su estado en tu cuenta en unos minutos.";
/** Carried to /orden/{id} (spec §4: success redirects there with a message and isSubscription). */
const SUCCESS_MESSAGE = "¡Listo! Registramos tu tarjeta con Flow y tu suscripción está activa.";
/** Spec §9: subscription activation redirect 3 s. */
const REDIRECT_DELAY_MS = 3000;

type ReturnState =
  | { state: "processing"; token: string }
  | { state: "success"; redirectTo: string }
  | { state: "warning"; message: string }
  | { state: "error"; message: string; detail?: string; loginUrl?: string; retryPath?: string };

/**
 * GET shows where the customer stands (spec §4 card return states). The card is looked up and the
 * subscription activated by the action, a same-origin POST the page sends by itself: never by a
 * GET that a link or a prefetch could trigger (decision 0021).
 */
export async function loader({ request, context }: Route.LoaderArgs): Promise<ReturnState> {
  const url = new URL(request.url);
  if (url.searchParams.has("error")) return { state: "error", message: MESSAGES.redirectError };
  if (url.searchParams.has("warning")) return { state: "warning", message: WARNING };
  const status = url.searchParams.get("status");
  if (status !== null && status !== "success") return { state: "error", message: MESSAGES.notRegistered };
  const token = url.searchParams.get("token")?.trim();
  if (!token) return { state: "error", message: MESSAGES.noToken };
  const user = await getSignedInUser(context.get(dbContext), request);
  if (!user) return { state: "error", message: MESSAGES.noUser, loginUrl: loginUrlFor(request) };
  return { state: "processing", token };
}

export async function action({ request, context }: Route.ActionArgs): Promise<ReturnState> {
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  if (!user) return { state: "error", message: MESSAGES.noUser, loginUrl: loginUrlFor(request) };
  const token = (await readFormData(request)).get("token");
  if (typeof token !== "string" || !token.trim()) return { state: "error", message: MESSAGES.noToken };
  if (!flowConfigured()) return { state: "error", message: MESSAGES.generic };
  let outcome: FlowReturnOutcome;
  try {
    outcome = await completeFlowCardRegistration(db, flowClient(), {
      userId: user.id,
      token: token.trim(),
      now: new Date(),
      siteUrl: (await siteInfo(db, request)).siteUrl,
    });
  } catch (error) {
    console.error(error);
    return { state: "error", message: MESSAGES.internal };
  }
  return stateFor(outcome);
}

function stateFor(outcome: FlowReturnOutcome): ReturnState {
  switch (outcome.kind) {
    case "activated":
      return { state: "success", redirectTo: `/orden/${outcome.orderId}?${new URLSearchParams({ message: SUCCESS_MESSAGE, isSubscription: "true" })}` };
    case "in_progress":
      return { state: "warning", message: WARNING };
    case "no_pending":
      return { state: "error", message: MESSAGES.noPending };
    case "not_registered":
      return { state: "error", message: MESSAGES.notRegistered, retryPath: `/suscripcion/tarjeta/${outcome.subscriptionId}` };
    case "activation_failed":
      return { state: "error", message: MESSAGES.activationFailed, detail: outcome.message, retryPath: `/suscripcion/tarjeta/${outcome.subscriptionId}` };
    case "flow_error":
      return { state: "error", message: MESSAGES.generic };
  }
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Registro de tarjeta",
    description: "Resultado del registro de tu tarjeta con Flow.",
    robots: "noindex,nofollow",
    path: "/flow/register-return",
  });

export default function FlowRegisterReturn({ loaderData, actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof action>();
  const shown: ReturnState = fetcher.data ?? actionData ?? loaderData;
  const started = useRef(false);
  const token = loaderData.state === "processing" ? loaderData.token : null;

  useEffect(() => {
    // The page activates by itself once React runs; without JavaScript the button below does it.
    if (!token || started.current || actionData) return;
    started.current = true;
    void fetcher.submit({ token }, { method: "post" });
  }, [token, actionData, fetcher]);

  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6" data-state={shown.state}>
      {shown.state === "processing" && (
        <>
          <h1 className="text-3xl font-bold text-brand-900">Estamos registrando tu tarjeta</h1>
          <p role="status" className="mt-4 flex items-center gap-3 text-slate-700">
            <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-brand-200 border-t-brand-700 motion-reduce:animate-none" />
            Procesando tu suscripción, no cierres esta ventana…
          </p>
          <noscript>
            <fetcher.Form method="post" className="mt-6">
              <input type="hidden" name="token" value={shown.token} />
              <button type="submit" className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
                Continuar
              </button>
            </fetcher.Form>
          </noscript>
        </>
      )}
      {shown.state === "success" && <Success redirectTo={shown.redirectTo} />}
      {shown.state === "warning" && (
        <>
          <h1 className="text-3xl font-bold text-brand-900">Estamos confirmando tu suscripción</h1>
          <p role="status" className="mt-4 rounded-xl bg-amber-50 p-4 text-amber-900">
            {shown.message}
          </p>
          <Link to="/dashboard/suscripcion" className="mt-6 inline-block rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
            Ver mi suscripción
          </Link>
        </>
      )}
      {shown.state === "error" && (
        <>
          <h1 className="text-3xl font-bold text-brand-900">No pudimos completar el registro</h1>
          <p role="alert" className="mt-4 rounded-xl bg-red-50 p-4 text-red-800">
            {shown.message}
          </p>
          {shown.detail && <p className="mt-2 text-sm text-slate-600">{shown.detail}</p>}
          <div className="mt-6 flex flex-wrap gap-3">
            {shown.loginUrl && (
              <Link to={shown.loginUrl} className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
                Iniciar sesión
              </Link>
            )}
            {shown.retryPath && (
              <Link to={shown.retryPath} className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
                Intentar nuevamente
              </Link>
            )}
            <Link to="/tienda" className="rounded-full border-2 border-brand-700 px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50">
              Volver a la tienda
            </Link>
          </div>
        </>
      )}
    </main>
  );
}

/** Spec §4: success, then the order page after 3 s; the cart is emptied as after any subscription. */
function Success({ redirectTo }: { redirectTo: string }) {
  const navigate = useNavigate();
  const { clear } = useCart();
  useEffect(() => {
    clear();
    // Failures reach the error boundary, not this promise.
    const timer = window.setTimeout(() => void navigate(redirectTo, { replace: true }), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [redirectTo, navigate, clear]);
  return (
    <>
      <h1 className="text-3xl font-bold text-brand-900">¡Tarjeta registrada!</h1>
      <p role="status" className="mt-4 rounded-xl bg-brand-50 p-4 text-brand-900">
        Tu suscripción está activa. Te llevaremos al detalle de tu pedido en 3 segundos.
      </p>
      <Link to={redirectTo} replace className="mt-6 inline-block font-semibold text-brand-800 underline">
        Ver mi pedido ahora
      </Link>
    </>
  );
}
