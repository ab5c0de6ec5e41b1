import { Link, useRevalidator } from "react-router";
import type { Route } from "./+types/order-status";
import { dbContext } from "~/server/db-context.server";
import { ReceiptView } from "~/components/orders/receipt-view";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { loadReceipt, privatePageHeaders } from "~/server/pages/order-receipt.server";
import { deliveryTracking, trackedDeliveryOfOrder } from "@server/deliveries/index.server";
import { env } from "@server/config/index.server";
import { DeliveryTrackingPanel } from "~/components/deliveries/delivery-tracking";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const db = context.get(dbContext);
  const receipt = await loadReceipt(db, request, params.orderId);
  const now = new Date();
  // Issue 26: only the order's owner (details shown) follows the van on the delivery day.
  const trackedId = receipt.details ? await trackedDeliveryOfOrder(db, receipt.id, now) : null;
  return {
    receipt,
    tracked: trackedId ? { deliveryId: trackedId, tracking: await deliveryTracking(db, trackedId, now) } : null,
    pollSeconds: env().TRACKING_POLL_SECONDS,
    token: trackedId ? url.searchParams.get("token")?.slice(0, 200) : null,
    message: url.searchParams.get("message"),
    isSubscription: url.searchParams.get("isSubscription") === "true",
  };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), { title: "Detalle de tu pedido", description: "Estado de tu pedido.", robots: "noindex,nofollow", path: "/orden" });

function Actions() {
  const revalidator = useRevalidator();
  return (
    <div className="mt-6 flex flex-wrap gap-3">
      <Link to="/tienda" className="rounded-full border border-brand-700 px-5 py-2.5 font-semibold text-brand-800 hover:bg-brand-50">
        Volver a la tienda
      </Link>
      <button
        type="button"
        onClick={() => revalidator.revalidate()}
        className="rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
      >
        Reintentar
      </button>
    </div>
  );
}

export default function OrderStatus({ loaderData }: Route.ComponentProps) {
  return (
    <main id="contenido" className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">{loaderData.isSubscription ? "Tu suscripción" : "Tu pedido"}</h1>
      {loaderData.message && (
        <p role="status" className="mt-4 rounded-xl bg-brand-50 p-4 text-brand-900">
          {loaderData.message}
        </p>
      )}
      {loaderData.tracked && (
        <div className="mt-6">
          <DeliveryTrackingPanel
            deliveryId={loaderData.tracked.deliveryId}
            initial={loaderData.tracked.tracking}
            pollSeconds={loaderData.pollSeconds}
            token={loaderData.token}
          />
        </div>
      )}
      <div className="mt-6">
        <ReceiptView receipt={loaderData.receipt} />
      </div>
      <Actions />
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <main id="contenido" className="mx-auto max-w-2xl px-4 py-12">
      <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
        No se pudo cargar los detalles del pedido
      </p>
      <Actions />
    </main>
  );
}
