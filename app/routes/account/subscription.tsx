import { Link } from "react-router";
import type { Route } from "./+types/subscription";
import { listSubscriptionsForUser, type SubscriptionView } from "@server/subscriptions/index.server";
import { AccountPageError } from "~/components/account/account-page";
import { actionPanels, IntentForm, panelLink } from "~/components/account/subscription-actions";
import { SubscriptionHistory, SubscriptionNotices, SubscriptionSummary } from "~/components/account/subscription-card";
import { LinkButton } from "~/components/ui/link-button";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { availableActions } from "@core/subscription-self-service";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { userContext } from "~/server/session.server";

export async function loader({ context }: Route.LoaderArgs) {
  const subscriptions = await listSubscriptionsForUser(context.get(dbContext), context.get(userContext).id);
  // One-click actions post to the subscription's own page with this key (a double click is applied once).
  return { subscriptions, requestKey: crypto.randomUUID() };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Mi suscripción",
    description: "Tu plan, próximas entregas y cobros.",
    path: "/dashboard/suscripcion",
    robots: "noindex,nofollow",
  });

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountPageError
      error={error}
      title="Mi suscripción"
      notFound="Suscripción no encontrada"
      failure="No se pudo cargar la suscripción"
      back={{ to: "/dashboard", label: "Volver a mi cuenta" }}
    />
  );
}

/** decisions.md: the customer's real subscriptions, not the spec's hard-coded sample plans. */
export default function SubscriptionPage({ loaderData }: Route.ComponentProps) {
  const current = loaderData.subscriptions.filter((subscription) => subscription.status !== "cancelled");
  const past = loaderData.subscriptions.filter((subscription) => subscription.status === "cancelled");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Mi suscripción</h1>
      {loaderData.subscriptions.length === 0 ? (
        <section className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-100">
          <p className="text-slate-700">Aún no tienes una suscripción. Suscríbete y ahorra hasta 15% en cada entrega, con agua en tu puerta cada mes.</p>
          <LinkButton to="/tienda" className="mt-4">
            Ver productos
          </LinkButton>
        </section>
      ) : (
        <>
          {current.map((subscription) => (
            <div key={subscription.id} className="space-y-4">
              <SubscriptionNotices subscription={subscription} />
              <SubscriptionSummary subscription={subscription} detailLink />
              <QuickActions subscription={subscription} requestKey={loaderData.requestKey} />
              <SubscriptionHistory history={subscription.history.slice(0, 5)} />
            </div>
          ))}
          {past.length > 0 && (
            <section aria-labelledby="past-subscriptions" className="space-y-4">
              <h2 id="past-subscriptions" className="text-lg font-bold">
                Suscripciones anteriores
              </h2>
              {past.map((subscription) => (
                <SubscriptionSummary key={subscription.id} subscription={subscription} detailLink />
              ))}
            </section>
          )}
        </>
      )}
    </div>
  );
}

/** The subscription's actions: one click for resuming or undoing a cancellation, the others open their form on the detail page. */
function QuickActions({ subscription, requestKey }: { subscription: SubscriptionView; requestKey: string }) {
  const actions = availableActions(subscription);
  if (actions.length === 0) return null;
  const oneClick = actions.filter((action) => action === "resume" || action === "undo-cancel");
  const linked = actionPanels.filter((panel) => actions.includes(panel.action) && !oneClick.some((action) => action === panel.action));
  return (
    <section aria-labelledby={`actions-${subscription.id}`} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6">
      <h2 id={`actions-${subscription.id}`} className="text-lg font-bold">
        Acciones
      </h2>
      <div className="mt-3 flex flex-wrap gap-3">
        {oneClick.map((action) => (
          <IntentForm
            key={action}
            subscriptionId={subscription.id}
            intent={action}
            requestKey={requestKey}
            error={null}
            submit={action === "resume" ? "Reanudar ahora" : "Deshacer la cancelación"}
          />
        ))}
      </div>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2">
        {linked.map((panel) => (
          <li key={panel.action}>
            <Link to={panelLink(subscription.id, panel.action)} className="font-semibold text-brand-800 underline">
              {panel.title}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
