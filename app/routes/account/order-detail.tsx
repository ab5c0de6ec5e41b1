import { data, Link, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/order-detail";
import { findOrderForUser, type CustomerOrderDetail } from "@server/orders/index.server";
import { AccountPageError, AccountSection, FactList } from "~/components/account/account-page";
import { DeliveryStatusBadge } from "~/components/deliveries/delivery-status";
import { OrderLinesTable, OrderTotals } from "~/components/orders/order-lines";
import { OrderStatusBadge } from "~/components/orders/receipt-view";
import { dbContext } from "~/server/db-context.server";
import { formatDeliveryDate, pausedDeliveryNote } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaDate, formatLimaInstant } from "@core/lima-dates";
import { orderTypeLabels, paymentMethodLabels, paymentStatusLabels } from "@core/order-labels";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useHydrated } from "~/lib/use-hydrated";
import { privatePageHeaders } from "~/server/order-receipt.server";
import type { loader as rootLoader } from "~/root";
import { userContext } from "~/server/session.server";

const NOT_FOUND = "Pedido no encontrado";

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const order = await findOrderForUser(context.get(dbContext), user.id, params.orderId);
  // Unknown and someone else's orders get the same answer (spec §6: only their own orders).
  if (!order) throw data(NOT_FOUND, { status: 404 });
  return { order };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) =>
  pageMeta(siteFromMatches(matches), {
    title: loaderData ? `Pedido ${loaderData.order.orderNumber}` : NOT_FOUND,
    description: "Detalle de tu pedido: productos, pago y envío.",
    path: `/dashboard/pedidos/${params.orderId}`,
    robots: "noindex,nofollow",
  });

function PaymentInfo({ order }: { order: CustomerOrderDetail }) {
  const { method, status, paymentCode } = order.payment;
  const facts: [string, React.ReactNode][] = [["Medio de pago", method ? (paymentMethodLabels[method] ?? method) : "Por definir"]];
  if (status) facts.push(["Estado del pago", paymentStatusLabels[status] ?? status]);
  if (paymentCode) facts.push(["Código de pago", <span className="font-mono">{paymentCode}</span>]);
  return <FactList facts={facts} />;
}

function ShippingInfo({ order }: { order: CustomerOrderDetail }) {
  const { shipping } = order;
  const facts: [string, React.ReactNode][] = [
    ["Recibe", shipping.recipient],
    ["Teléfono", shipping.phone],
    ["Dirección", `${shipping.address}, ${shipping.districtName}`],
    shipping.deliveryDate === null
      ? ["Fecha de entrega", <span data-testid="order-delivery-paused">{pausedDeliveryNote(shipping.deliveryPausedUntil)}</span>]
      : ["Fecha de entrega", <span className="inline-block first-letter:uppercase">{formatDeliveryDate(shipping.deliveryDate)}</span>],
    ["Horario", deliveryWindowLabel(shipping.deliveryWindow)],
  ];
  if (shipping.requestedDeliveryDate)
    facts.push([
      "Fecha pedida",
      <span className="inline-block first-letter:uppercase">{`${formatDeliveryDate(shipping.requestedDeliveryDate)} (reprogramada)`}</span>,
    ]);
  if (shipping.notes) facts.push(["Indicaciones", shipping.notes]);
  return <FactList facts={facts} />;
}

function RelatedDocuments({ order }: { order: CustomerOrderDetail }) {
  if (order.deliveries.length === 0 && !order.invoice) return <p className="text-sm text-slate-600">Aún no hay envíos ni comprobante para este pedido.</p>;
  return (
    <ul className="space-y-2 text-sm">
      {order.deliveries.map((delivery) => (
        <li key={delivery.id} className="flex flex-wrap items-center gap-3">
          <Link to={`/dashboard/envios/${delivery.id}`} className="font-semibold text-brand-800 underline">
            Envío {delivery.deliveryNumber}
          </Link>
          <span className="text-slate-600">{formatLimaDate(delivery.deliveryDate, { day: "numeric", month: "short", year: "numeric" })}</span>
          <DeliveryStatusBadge status={delivery.status} />
        </li>
      ))}
      {order.invoice && (
        <li>
          <Link to={`/dashboard/facturas/${order.invoice.id}`} className="font-semibold text-brand-800 underline">
            Comprobante {order.invoice.invoiceNumber}
          </Link>
        </li>
      )}
    </ul>
  );
}

/** Spec §2 order detail: header, products, summary, payment, shipping, print and back. */
export default function DashboardOrderDetail({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  const hydrated = useHydrated();
  const brandName = useRouteLoaderData<typeof rootLoader>("root")?.site.brandName;
  const type = orderTypeLabels[order.orderType] ?? order.orderType;
  return (
    <article className="space-y-4 print:space-y-6" data-testid="order-detail">
      <Link to="/dashboard/pedidos" className="inline-block text-sm font-semibold text-brand-800 underline print:hidden">
        ← Volver a mis pedidos
      </Link>
      {/* The account header is not printed: the receipt names the shop itself. */}
      <p className="hidden text-lg font-bold text-brand-900 print:block" data-testid="print-brand">
        {brandName}
      </p>
      <header className="flex flex-wrap items-start justify-between gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6 print:p-0 print:shadow-none print:ring-0">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Pedido {order.orderNumber}</h1>
          <p className="mt-1 text-sm text-slate-600">
            Realizado el {formatLimaInstant(order.createdAt, { day: "numeric", month: "long", year: "numeric" })} ·{" "}
            <span data-testid="order-plan">{order.plan ?? type}</span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <OrderStatusBadge status={order.status} />
          {/* Decision 0076: the same products and quantities again, at today's prices. */}
          <Link
            to={`/repetir-pedido/${order.id}`}
            className="rounded-full bg-brand-700 px-5 py-2 text-sm font-semibold text-white shadow hover:bg-brand-800 print:hidden"
          >
            Repetir pedido
          </Link>
        </div>
      </header>
      <AccountSection title="Productos">
        <OrderLinesTable lines={order.items} />
      </AccountSection>
      <div className="grid gap-4 lg:grid-cols-2 print:grid-cols-2">
        <AccountSection title="Resumen">
          <OrderTotals totals={order} />
        </AccountSection>
        <AccountSection title="Pago">
          <PaymentInfo order={order} />
        </AccountSection>
        <AccountSection title="Envío">
          <ShippingInfo order={order} />
        </AccountSection>
        <AccountSection title="Envíos y comprobante">
          <RelatedDocuments order={order} />
        </AccountSection>
      </div>
      {/* window.print needs JavaScript: the button appears once the page is interactive. */}
      {hydrated && (
        <div className="print:hidden">
          <button
            type="button"
            onClick={() => window.print()}
            className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white shadow hover:bg-brand-800"
          >
            Imprimir comprobante
          </button>
        </div>
      )}
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountPageError
      error={error}
      notFound={NOT_FOUND}
      failure="No se pudo cargar los detalles del pedido"
      back={{ to: "/dashboard/pedidos", label: "Volver a mis pedidos" }}
    />
  );
}
