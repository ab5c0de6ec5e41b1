import { data, Link } from "react-router";
import type { Route } from "./+types/dashboard.subscription-detail";
import { findSubscriptionForUser } from "@server/subscriptions/index.server";
import { AccountError } from "~/components/account/account-error";
import { SubscriptionHistory, SubscriptionSummary } from "~/components/account/subscription-card";
import { dbContext } from "~/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/order-receipt.server";
import { userContext } from "~/session.server";

export async function loader({ context, params }: Route.LoaderArgs) {
  const subscription = await findSubscriptionForUser(context.get(dbContext), context.get(userContext).id, params.subscriptionId);
  if (!subscription) throw data("Suscripción no encontrada", { status: 404 });
  return { subscription };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), { title: "Detalle de suscripción", description: "Tu suscripción y su historial.", path: "/dashboard/suscripcion", robots: "noindex,nofollow" });

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="No se pudo cargar la suscripción" backTo={{ to: "/dashboard/suscripcion", label: "Volver a mi suscripción" }} />;
}

export default function SubscriptionDetail({ loaderData }: Route.ComponentProps) {
  const { subscription } = loaderData;
  return (
    <div className="space-y-6">
      <Link to="/dashboard/suscripcion" className="text-sm font-semibold text-brand-800 underline">
        ← Volver a mi suscripción
      </Link>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Suscripción {subscription.subscriptionNumber}</h1>
      <SubscriptionSummary subscription={subscription} />
      <SubscriptionHistory history={subscription.history} />
    </div>
  );
}
