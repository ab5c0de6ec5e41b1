import { Link, redirect } from "react-router";
import type { Route } from "./+types/orders";
import { listOrdersForUser, ORDERS_PAGE_SIZE, type CustomerOrderRow } from "@server/orders/index.server";
import { AccountPageError, EmptyState } from "~/components/account/account-page";
import { Pager } from "~/components/account/pager";
import { OrderStatusBadge } from "~/components/orders/receipt-view";
import { dbContext } from "~/server/db-context.server";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { orderTypeLabels } from "@core/order-labels";
import { pageWindow, parsePageParam } from "~/lib/pagination";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { userContext } from "~/server/session.server";

const LIST_PATH = "/dashboard/pedidos";

function pageHref(page: number): string {
  return page > 1 ? `${LIST_PATH}?page=${page}` : LIST_PATH;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const page = parsePageParam(new URL(request.url).searchParams.get("page"));
  const { rows, total } = await listOrdersForUser(context.get(dbContext), user.id, { page, pageSize: ORDERS_PAGE_SIZE });
  // A page past the end (an old link, a typed number) goes to the last page that has orders.
  const { lastPage } = pageWindow(page, ORDERS_PAGE_SIZE, total);
  if (page > lastPage) throw redirect(pageHref(lastPage));
  return { rows, total, page, pageSize: ORDERS_PAGE_SIZE };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Mis pedidos",
    description: "Tus pedidos, su estado y su detalle.",
    path: LIST_PATH,
    robots: "noindex,nofollow",
  });

function orderDate(row: CustomerOrderRow): string {
  return formatLimaInstant(row.createdAt, { day: "numeric", month: "short", year: "numeric" });
}

function DetailLink({ row, className }: { row: CustomerOrderRow; className: string }) {
  return (
    <Link to={`${LIST_PATH}/${row.id}`} className={className}>
      Ver detalle<span className="sr-only"> del pedido {row.orderNumber}</span>
    </Link>
  );
}

/** Decision 0076: the same products and quantities again, at today's prices, straight to the checkout. */
function RepeatLink({ row, className }: { row: CustomerOrderRow; className: string }) {
  return (
    <Link to={`/repetir-pedido/${row.id}`} className={className}>
      Repetir<span className="sr-only"> el pedido {row.orderNumber}</span>
    </Link>
  );
}

function OrdersTable({ rows }: { rows: CustomerOrderRow[] }) {
  return (
    <div className="hidden overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-100 md:block" data-testid="orders-table">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              N° de pedido
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Fecha
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Tipo
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Estado
            </th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">
              Total
            </th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">
              <span className="sr-only">Acciones</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-testid="order-row">
              <th scope="row" className="px-4 py-3 font-semibold text-slate-900">
                {row.orderNumber}
              </th>
              <td className="px-4 py-3 whitespace-nowrap">{orderDate(row)}</td>
              <td className="px-4 py-3">{orderTypeLabels[row.orderType] ?? row.orderType}</td>
              <td className="px-4 py-3">
                <OrderStatusBadge status={row.status} />
              </td>
              <td className="px-4 py-3 text-right font-semibold whitespace-nowrap">{formatSoles(row.totalCents)}</td>
              <td className="px-4 py-3 text-right">
                <span className="inline-flex gap-4">
                  <RepeatLink row={row} className="font-semibold whitespace-nowrap text-brand-800 underline" />
                  <DetailLink row={row} className="font-semibold whitespace-nowrap text-brand-800 underline" />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones get one card per order instead of a table too wide for them. */
function OrderCards({ rows }: { rows: CustomerOrderRow[] }) {
  return (
    <ul className="space-y-3 md:hidden" data-testid="order-cards">
      {rows.map((row) => (
        <li key={row.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="order-card">
          <div className="flex items-start justify-between gap-3">
            <div>
              <p className="font-semibold text-slate-900">{row.orderNumber}</p>
              <p className="text-sm text-slate-600">
                {orderDate(row)} · {orderTypeLabels[row.orderType] ?? row.orderType}
              </p>
            </div>
            <OrderStatusBadge status={row.status} />
          </div>
          <div className="mt-3 flex items-center justify-between gap-3">
            <p className="font-bold text-slate-900">{formatSoles(row.totalCents)}</p>
            <div className="flex flex-wrap justify-end gap-2">
              <RepeatLink row={row} className="rounded-full border border-brand-700 px-4 py-1.5 text-sm font-semibold text-brand-800 hover:bg-brand-50" />
              <DetailLink row={row} className="rounded-full border border-brand-700 px-4 py-1.5 text-sm font-semibold text-brand-800 hover:bg-brand-50" />
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Spec §2 Orders: the customer's orders, 10 a page, newest first. */
export default function DashboardOrders({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, pageSize } = loaderData;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Mis pedidos</h1>
      {total === 0 ? (
        <EmptyState title="No hay pedidos" action={{ to: "/productos", label: "Ver productos" }}>
          Cuando hagas tu primera compra, la verás aquí.
        </EmptyState>
      ) : (
        <>
          <OrdersTable rows={rows} />
          <OrderCards rows={rows} />
          <Pager page={page} pageSize={pageSize} total={total} hrefFor={pageHref} />
        </>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountPageError
      error={error}
      title="Mis pedidos"
      notFound="Página no encontrada"
      failure="No se pudieron cargar los pedidos. Por favor, inténtalo de nuevo."
      back={{ to: "/dashboard", label: "Volver a mi cuenta" }}
    />
  );
}
