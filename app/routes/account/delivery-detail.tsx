import { data, Link } from "react-router";
import type { Route } from "./+types/delivery-detail";
import { bidonSummaryForUser, deliveriesWithPhotos, deliveryTracking, findDeliveryForUser } from "@server/deliveries/index.server";
import { env } from "@server/config/index.server";
import { DeliveryTrackingPanel } from "~/components/deliveries/delivery-tracking";
import { AccountPageError, AccountSection, FactList } from "~/components/account/account-page";
import { DeliveryStatusBadge, DeliveryTimeline } from "~/components/deliveries/delivery-status";
import { OrderLinesTable, OrderTotals } from "~/components/orders/order-lines";
import { dbContext } from "~/server/db-context.server";
import { DELIVERY_CARRIER, deliveryDayLabel, deliveryFailureReasonLabel, formatDeliveryDate } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { limaToday } from "@core/lima-dates";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { userContext } from "~/server/session.server";

const NOT_FOUND = "Envío no encontrado";

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const delivery = await findDeliveryForUser(db, user.id, params.deliveryId);
  // Unknown and someone else's deliveries get the same answer (spec §6).
  if (!delivery) throw data(NOT_FOUND, { status: 404 });
  const now = new Date();
  return {
    delivery,
    today: limaToday(now),
    bidonBalance: (await bidonSummaryForUser(db, user.id)).balance,
    // Issue 26: on its day, stops left and the arrival window; after, who received it.
    tracking: await deliveryTracking(db, delivery.id, now),
    pollSeconds: env().TRACKING_POLL_SECONDS,
    // Issue 40: the driver's photo of the bidones at the door, served to this customer only.
    hasPhoto: (await deliveriesWithPhotos(db, [delivery.id])).has(delivery.id),
  };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) =>
  pageMeta(siteFromMatches(matches), {
    title: loaderData ? `Envío ${loaderData.delivery.deliveryNumber}` : NOT_FOUND,
    description: "Seguimiento de tu envío.",
    path: `/dashboard/envios/${params.deliveryId}`,
    robots: "noindex,nofollow",
  });

/** Spec §2 Deliveries: the tracking detail of one delivery. */
export default function DashboardDeliveryDetail({ loaderData }: Route.ComponentProps) {
  const { delivery, today, bidonBalance } = loaderData;
  const day = deliveryDayLabel(delivery, today);
  const fullDate = formatDeliveryDate(delivery.deliveryDate);
  const facts: [string, React.ReactNode][] = [
    ["Fecha", <span className="inline-block first-letter:uppercase">{day === fullDate ? fullDate : `${day}, ${fullDate}`}</span>],
    ["Horario", deliveryWindowLabel(delivery.deliveryWindow)],
    ["Dirección", `${delivery.address}, ${delivery.districtName}`],
    ["Código de seguimiento", delivery.trackingCode ?? "Se asigna cuando el envío sale"],
    ["Transportista", DELIVERY_CARRIER],
    [
      "Pedido",
      <Link to={`/dashboard/pedidos/${delivery.order.id}`} className="font-semibold text-brand-800 underline">
        {delivery.order.orderNumber}
      </Link>,
    ],
  ];
  if (delivery.notes) facts.push(["Indicaciones", delivery.notes]);
  const proof = delivery.proof;
  if (proof?.outcome === "delivered" && delivery.status === "delivered") {
    facts.push(["Recibido por", proof.receiverName ?? "—"]);
    facts.push(["Bidones", `${proof.fullBidonesLeft ?? 0} llenos dejados · ${proof.emptyBidonesCollected ?? 0} vacíos recogidos`]);
  }
  facts.push(["Bidones en tu poder", String(bidonBalance)]);
  if (proof?.outcome === "failed" && delivery.status === "failed")
    facts.push(["Motivo de no entrega", deliveryFailureReasonLabel(proof.failureReason ?? "otro")]);
  return (
    <article className="space-y-4" data-testid="delivery-detail">
      <Link to="/dashboard/envios" className="inline-block text-sm font-semibold text-brand-800 underline">
        ← Volver a mis envíos
      </Link>
      <header className="flex flex-wrap items-start justify-between gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Envío {delivery.deliveryNumber}</h1>
          <p className="mt-1 text-sm text-slate-600">Seguimiento de tu entrega</p>
        </div>
        <DeliveryStatusBadge status={delivery.status} />
      </header>
      <DeliveryTrackingPanel deliveryId={delivery.id} initial={loaderData.tracking} pollSeconds={loaderData.pollSeconds} />
      <div className="grid gap-4 lg:grid-cols-2">
        <AccountSection title="Datos del envío">
          <FactList facts={facts} testId="delivery-facts" />
        </AccountSection>
        <AccountSection title="Historial del envío">
          <p className="mb-4 text-xs text-slate-500">Horas de Lima.</p>
          <DeliveryTimeline history={delivery.statusHistory} />
        </AccountSection>
      </div>
      {loaderData.hasPhoto && (
        <AccountSection title="Foto de la entrega">
          <img
            src={`/dashboard/envios/${delivery.id}/foto`}
            alt="Foto de los bidones en la puerta"
            loading="lazy"
            className="max-h-96 w-auto max-w-full rounded-xl ring-1 ring-slate-200"
            data-testid="delivery-photo"
          />
          <p className="mt-2 text-sm text-slate-600">La tomó el repartidor al dejar tus bidones.</p>
        </AccountSection>
      )}
      <AccountSection title="Productos">
        <OrderLinesTable lines={delivery.items} />
        <div className="mt-4 border-t border-slate-100 pt-4 sm:ml-auto sm:max-w-sm">
          <OrderTotals totals={delivery.order} />
        </div>
      </AccountSection>
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountPageError
      error={error}
      notFound={NOT_FOUND}
      failure="No se pudo cargar la información del envío. Por favor, inténtalo de nuevo."
      back={{ to: "/dashboard/envios", label: "Volver a mis envíos" }}
    />
  );
}
