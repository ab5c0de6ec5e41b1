import { Link, useRevalidator } from "react-router";
import type { Route } from "./+types/order-status";
import { dbContext } from "~/server/db-context.server";
import { ReceiptView } from "~/components/orders/receipt-view";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { loadReceipt, privatePageHeaders } from "~/server/order-receipt.server";
import { deliveryTracking, trackedDeliveryOfOrder } from "@server/deliveries/index.server";
import { env } from "@server/config/index.server";
import { DeliveryTrackingPanel } from "~/components/deliveries/delivery-tracking";
import { OpenPaymentPanel } from "~/components/orders/open-payment-panel";
import { paymentStage } from "@core/order-labels";

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
    // Judged here, by the request's clock, so server and browser render the same words.
    paymentExpired: Boolean(receipt.details?.openPayment?.expiresAt && new Date(receipt.details.openPayment.expiresAt) <= now),
  };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), { title: "Detalle de tu pedido", description: "Estado de tu pedido.", robots: "noindex,nofollow", path: "/orden" });

/**
 * The page's own buttons (issue 41: only those that do something for this order). "Reintentar"
 * reloads a page that failed to load; an order still waiting for its money offers to look again
 * ("Actualizar estado"); a paid or ended order has nothing to retry.
 */
function Actions({ reload }: { reload: "retry" | "refresh" | null }) {
  const revalidator = useRevalidator();
  return (
    <div className="mt-6 flex flex-wrap gap-3">
      <Link to="/tienda" className="rounded-full border border-brand-700 px-5 py-2.5 font-semibold text-brand-800 hover:bg-brand-50">
        Volver a la tienda
      </Link>
      {reload && (
        <button
          type="button"
          onClick={() => revalidator.revalidate()}
          className={
            reload === "retry"
              ? "rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
              : "rounded-full border border-slate-400 px-5 py-2.5 font-semibold text-slate-800 hover:bg-slate-50"
          }
        >
          {reload === "retry" ? "Reintentar" : "Actualizar estado"}
        </button>
      )}
    </div>
  );
}

export default function OrderStatus({ loaderData }: Route.ComponentProps) {
  const openPayment = loaderData.receipt.details?.openPayment ?? null;
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
      {openPayment && <OpenPaymentPanel payment={openPayment} expired={loaderData.paymentExpired} />}
      <div className="mt-6">
        <ReceiptView receipt={loaderData.receipt} />
      </div>
      <Actions reload={paymentStage(loaderData.receipt.status) === "awaiting" && !loaderData.paymentExpired ? "refresh" : null} />
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <main id="contenido" className="mx-auto max-w-2xl px-4 py-12">
      <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
        No se pudo cargar los detalles del pedido
      </p>
      <Actions reload="retry" />
    </main>
  );
}
