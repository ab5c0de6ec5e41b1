import { data, Link } from "react-router";
import type { Route } from "./+types/subscription-detail";
import { findSubscriptionForUser, loadSelfServiceOptions } from "@server/subscriptions/index.server";
import { AccountPageError } from "~/components/account/account-page";
import { FormAlert } from "~/components/account/auth-shell";
import { actionPanels, IntentForm, SubscriptionActions } from "~/components/account/subscription-actions";
import { SubscriptionHistory, SubscriptionNotices, SubscriptionSummary } from "~/components/account/subscription-card";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { userContext } from "~/server/session.server";
import { siteInfo } from "~/server/site-info.server";
import { SUBSCRIPTION_NOT_FOUND, subscriptionAction } from "~/server/subscription-self-service.server";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const userId = context.get(userContext).id;
  const [subscription, options] = await Promise.all([
    findSubscriptionForUser(db, userId, params.subscriptionId),
    loadSelfServiceOptions(db, userId, params.subscriptionId, new Date()),
  ]);
  if (!subscription || !options) throw data(SUBSCRIPTION_NOT_FOUND, { status: 404 });
  const query = new URL(request.url).searchParams;
  // After a change the page comes back with ?cambio=<event>: that event, told as it was recorded, is the success message.
  const changed = subscription.history.find((event) => String(event.id) === query.get("cambio") && event.actor === "customer");
  const cardRetry = query.get("cobro");
  return {
    subscription,
    options,
    // One key per page load: a form submitted twice with it is applied once.
    requestKey: crypto.randomUUID(),
    success: changed?.description ?? null,
    retryNotice:
      cardRetry === "pagado"
        ? "Cobramos el periodo pendiente con tu nueva tarjeta y tu suscripción está activa de nuevo."
        : cardRetry === "rechazado"
          ? "Guardamos tu tarjeta, pero el banco rechazó el cobro del periodo pendiente. Prueba con otra tarjeta."
          : cardRetry === "en-proceso"
            ? "Estamos confirmando el cobro del periodo pendiente; te avisaremos por correo."
            : null,
    openAction: actionPanels.find((panel) => panel.slug === query.get("accion"))?.action ?? null,
  };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const db = context.get(dbContext);
  return subscriptionAction(db, request, {
    userId: context.get(userContext).id,
    subscriptionId: params.subscriptionId,
    siteUrl: (await siteInfo(db, request)).siteUrl,
  });
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Detalle de suscripción",
    description: "Tu suscripción y su historial.",
    path: "/dashboard/suscripcion",
    robots: "noindex,nofollow",
  });

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountPageError
      error={error}
      notFound="Suscripción no encontrada"
      failure="No se pudo cargar la suscripción"
      back={{ to: "/dashboard/suscripcion", label: "Volver a mi suscripción" }}
    />
  );
}

export default function SubscriptionDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { subscription, options, requestKey, success, retryNotice, openAction } = loaderData;
  return (
    <div className="space-y-6">
      <Link to="/dashboard/suscripcion" className="text-sm font-semibold text-brand-800 underline">
        ← Volver a mi suscripción
      </Link>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Suscripción {subscription.subscriptionNumber}</h1>
      {success && <FormAlert tone="success">{success}</FormAlert>}
      {retryNotice && <FormAlert tone={loaderData.subscription.status === "active" ? "info" : "error"}>{retryNotice}</FormAlert>}
      {actionData?.intent === null && <FormAlert>{actionData.error}</FormAlert>}
      <SubscriptionNotices
        subscription={subscription}
        resume={
          options.actions.includes("resume") && (
            <IntentForm
              subscriptionId={subscription.id}
              intent="resume"
              requestKey={requestKey}
              error={actionData?.intent === "resume" ? actionData : null}
              submit="Reanudar ahora"
            />
          )
        }
      />
      <SubscriptionSummary subscription={subscription} />
      <SubscriptionActions subscription={subscription} options={options} requestKey={requestKey} openAction={openAction} actionError={actionData ?? null} />
      <SubscriptionHistory history={subscription.history} />
    </div>
  );
}
