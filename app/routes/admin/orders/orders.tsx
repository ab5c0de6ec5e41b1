import { Link } from "react-router";
import type { Route } from "./+types/orders";
import { listServedDistricts } from "@server/content/index.server";
import { searchStaffOrders, STAFF_ORDERS_PAGE_SIZE, type StaffOrderRow } from "@server/orders/index.server";
import { Pager } from "~/components/account/pager";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DistrictFilter, FilterDate, FilterSelect, StaffListFilters } from "~/components/admin/staff-list-filters";
import { OrderStatusBadge } from "~/components/orders/receipt-view";
import { dbContext } from "~/server/db-context.server";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { orderStatuses, orderStatusLabel, orderTypeLabels, paymentMethodLabels } from "@core/order-labels";
import { withQuery } from "~/lib/pagination";
import { loadStaffListPage } from "~/server/staff-list.server";
import {
  hasStaffOrderFilters,
  parseStaffOrderFilters,
  STAFF_ORDER_PAYMENT_METHODS,
  STAFF_ORDER_TYPES,
  staffOrderSearchParams,
  type StaffOrderFilters,
} from "@core/staff-order-filters";
import { allowStaffPage } from "~/server/staff.server";

export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/pedidos")];

const LIST_PATH = "/admin/pedidos";

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [list, districts] = await Promise.all([
    loadStaffListPage(request, {
      path: LIST_PATH,
      pageSize: STAFF_ORDERS_PAGE_SIZE,
      parseFilters: parseStaffOrderFilters,
      searchParams: staffOrderSearchParams,
      search: (filters, page) => searchStaffOrders(db, filters, { page }),
    }),
    listServedDistricts(db),
  ]);
  return { ...list, districts: districts.map(({ id, name }) => ({ id, name })) };
}

export const meta: Route.MetaFunction = () => [{ title: "Pedidos · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const orderDate = (row: StaffOrderRow) =>
  formatLimaInstant(row.createdAt, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const paymentLabel = (method: string | null) => (method ? (paymentMethodLabels[method] ?? method) : "Sin definir");

function Filters({ filters, districts }: { filters: StaffOrderFilters; districts: { id: number; name: string }[] }) {
  return (
    <StaffListFilters
      action={LIST_PATH}
      filterKey={staffOrderSearchParams(filters).toString()}
      ariaLabel="Buscar pedidos"
      placeholder="N° de pedido, e-mail, nombre, teléfono o documento"
      q={filters.q}
      filtered={hasStaffOrderFilters(filters)}
    >
      <FilterSelect
        id="estado"
        label="Estado"
        value={filters.status ?? ""}
        options={orderStatuses.map((status) => ({ value: status, label: orderStatusLabel(status) }))}
      />
      <FilterDate id="desde" label="Desde" value={filters.from} />
      <FilterDate id="hasta" label="Hasta" value={filters.to} />
      <DistrictFilter value={filters.districtId} districts={districts} />
      <FilterSelect
        id="pago"
        label="Medio de pago"
        value={filters.paymentMethod ?? ""}
        options={STAFF_ORDER_PAYMENT_METHODS.map((method) => ({ value: method, label: paymentLabel(method) }))}
      />
      <FilterSelect
        id="tipo"
        label="Tipo"
        value={filters.orderType ?? ""}
        options={STAFF_ORDER_TYPES.map((type) => ({ value: type, label: orderTypeLabels[type]! }))}
      />
    </StaffListFilters>
  );
}

function DetailLink({ row, className }: { row: StaffOrderRow; className: string }) {
  return (
    <Link to={`${LIST_PATH}/${row.id}`} className={className}>
      {row.orderNumber}
    </Link>
  );
}

function OrdersTable({ rows }: { rows: StaffOrderRow[] }) {
  return (
    <div className="hidden overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-100 lg:block" data-testid="staff-orders-table">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Pedido
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Fecha
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Cliente
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Distrito
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Pago
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Estado
            </th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">
              Total
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-testid="staff-order-row">
              <th scope="row" className="px-4 py-3 font-semibold whitespace-nowrap">
                <DetailLink row={row} className="text-brand-800 underline" />
                <span className="block text-xs font-normal text-slate-600">{orderTypeLabels[row.orderType] ?? row.orderType}</span>
              </th>
              <td className="px-4 py-3 whitespace-nowrap">{orderDate(row)}</td>
              <td className="px-4 py-3">
                <span className="block text-slate-900">{row.customerName}</span>
                <span className="block break-all text-slate-600">{row.customerEmail}</span>
              </td>
              <td className="px-4 py-3">{row.districtName}</td>
              <td className="px-4 py-3">{paymentLabel(row.paymentMethod)}</td>
              <td className="px-4 py-3">
                <OrderStatusBadge status={row.status} />
              </td>
              <td className="px-4 py-3 text-right font-semibold whitespace-nowrap">{formatSoles(row.totalCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones and tablets get one card per order instead of a table too wide for them. */
function OrderCards({ rows }: { rows: StaffOrderRow[] }) {
  return (
    <ul className="space-y-3 lg:hidden" data-testid="staff-order-cards">
      {rows.map((row) => (
        <li key={row.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="staff-order-card">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <DetailLink row={row} className="font-semibold text-brand-800 underline" />
              <p className="text-sm text-slate-600">
                {orderDate(row)} · {orderTypeLabels[row.orderType] ?? row.orderType}
              </p>
            </div>
            <OrderStatusBadge status={row.status} />
          </div>
          <p className="mt-2 text-sm text-slate-900">{row.customerName}</p>
          <p className="text-sm break-all text-slate-600">{row.customerEmail}</p>
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="text-slate-600">
              {row.districtName} · {paymentLabel(row.paymentMethod)}
            </span>
            <span className="font-bold text-slate-900">{formatSoles(row.totalCents)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Issue 10, Orders: every order, searchable and filtered from the URL, with its CSV export. */
export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, pageSize, filters, districts } = loaderData;
  return (
    <>
      <AdminPageHeader title="Pedidos">
        <div className="flex flex-wrap gap-2">
          {/* Issue 38: an order given by phone or WhatsApp, typed in by the office. */}
          <Link to={`${LIST_PATH}/nuevo`} className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
            Nuevo pedido
          </Link>
          {/* A document request, not a client navigation: the browser downloads the file. */}
          <a
            href={withQuery(`${LIST_PATH}/exportar`, staffOrderSearchParams(filters))}
            className="rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
            download
          >
            Exportar CSV
          </a>
        </div>
      </AdminPageHeader>
      <Filters filters={filters} districts={districts} />
      {total === 0 ? (
        <p className="rounded-2xl bg-white px-6 py-10 text-center text-slate-700 shadow-sm ring-1 ring-slate-100" data-testid="staff-orders-empty">
          {hasStaffOrderFilters(filters) ? "Ningún pedido coincide con la búsqueda." : "Aún no hay pedidos."}
        </p>
      ) : (
        <>
          <OrdersTable rows={rows} />
          <OrderCards rows={rows} />
          <Pager page={page} pageSize={pageSize} total={total} hrefFor={(target) => withQuery(LIST_PATH, staffOrderSearchParams(filters, target))} />
        </>
      )}
    </>
  );
}
