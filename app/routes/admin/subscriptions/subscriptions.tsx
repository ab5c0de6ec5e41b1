import { Link } from "react-router";
import type { Route } from "./+types/subscriptions";
import { listServedDistricts } from "@server/content/index.server";
import { searchStaffSubscriptions, STAFF_SUBSCRIPTIONS_PAGE_SIZE } from "@server/subscriptions/index.server";
import { Pager } from "~/components/account/pager";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DistrictFilter, FilterDate, FilterSelect, StaffListFilters } from "~/components/admin/staff-list-filters";
import { staffDate, SubscriptionConsoleNav, SubscriptionStatusBadge } from "~/components/admin/subscription-console";
import { dbContext } from "~/server/db-context.server";
import { formatSoles } from "@core/money";
import {
  billingMethodLabels,
  BILLING_METHODS,
  parseStaffSubscriptionFilters,
  staffSubscriptionSearchParams,
  SUBSCRIPTION_PLANS,
  SUBSCRIPTION_STATUSES,
  subscriptionStatusLabels,
  type StaffSubscriptionFilters,
} from "@core/staff-subscription-filters";
import { withQuery } from "~/lib/pagination";
import { loadStaffListPage } from "~/server/staff-list.server";
import { allowStaffPage } from "~/server/staff.server";
import { cadenceOf, deliveryCadenceLabels } from "@core/delivery-cadence";

export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/suscripciones")];

const LIST_PATH = "/admin/suscripciones";

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [list, districts] = await Promise.all([
    loadStaffListPage(request, {
      path: LIST_PATH,
      pageSize: STAFF_SUBSCRIPTIONS_PAGE_SIZE,
      parseFilters: parseStaffSubscriptionFilters,
      searchParams: staffSubscriptionSearchParams,
      search: (filters, page) => searchStaffSubscriptions(db, filters, { page }),
    }),
    listServedDistricts(db),
  ]);
  return { ...list, districts: districts.map(({ id, name }) => ({ id, name })) };
}

export const meta: Route.MetaFunction = () => [{ title: "Suscripciones · Back office" }, { name: "robots", content: "noindex,nofollow" }];

function Filters({ filters, districts }: { filters: StaffSubscriptionFilters; districts: { id: number; name: string }[] }) {
  return (
    <StaffListFilters
      action={LIST_PATH}
      filterKey={staffSubscriptionSearchParams(filters).toString()}
      ariaLabel="Buscar suscripciones"
      placeholder="E-mail o nombre del cliente, N° de suscripción"
      q={filters.q}
      filtered={Object.keys(filters).length > 0}
    >
      <FilterSelect
        id="estado"
        label="Estado"
        value={filters.status ?? ""}
        options={SUBSCRIPTION_STATUSES.map((status) => ({ value: status, label: subscriptionStatusLabels[status]! }))}
      />
      <FilterSelect
        id="plan"
        label="Plan"
        value={filters.plan ?? ""}
        options={SUBSCRIPTION_PLANS.map((plan) => ({ value: plan, label: plan === "anual" ? "Anual" : "Mensual" }))}
      />
      <DistrictFilter value={filters.districtId} districts={districts} />
      <FilterSelect
        id="cobro"
        label="Forma de cobro"
        value={filters.billingMethod ?? ""}
        options={BILLING_METHODS.map((method) => ({ value: method, label: billingMethodLabels[method]! }))}
      />
      <FilterDate id="desde" label="Próximo cobro desde" value={filters.from} />
      <FilterDate id="hasta" label="Próximo cobro hasta" value={filters.to} />
    </StaffListFilters>
  );
}

/** Issue 11: every subscription, searchable and filtered in SQL from the URL. */
export default function AdminSubscriptions({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, pageSize, filters, districts } = loaderData;
  return (
    <>
      <AdminPageHeader title="Suscripciones" />
      <SubscriptionConsoleNav />
      <Filters filters={filters} districts={districts} />
      {rows.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-600 shadow-sm ring-1 ring-slate-100">Ninguna suscripción coincide con la búsqueda.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2" data-testid="staff-subscriptions">
          {rows.map((row) => (
            <li key={row.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="staff-subscription">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <Link to={`${LIST_PATH}/${row.id}`} className="font-semibold text-brand-800 underline">
                    {row.subscriptionNumber}
                  </Link>
                  <p className="text-sm text-slate-900">{row.customerName}</p>
                  <p className="text-sm break-all text-slate-600">{row.customerEmail}</p>
                </div>
                <SubscriptionStatusBadge status={row.status} />
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                <dt className="text-slate-600">Plan</dt>
                <dd className="text-slate-900">
                  {row.frequency === "anual" ? "Anual" : "Mensual"} · {formatSoles(row.amountCents)}
                  {row.deliveryCadence !== "monthly" && ` · Entrega ${deliveryCadenceLabels[cadenceOf(row.deliveryCadence)].toLowerCase()}`}
                </dd>
                <dt className="text-slate-600">Distrito</dt>
                <dd className="text-slate-900">{row.districtName}</dd>
                <dt className="text-slate-600">Cobro</dt>
                <dd className="text-slate-900">{billingMethodLabels[row.billingMethod] ?? row.billingMethod}</dd>
                <dt className="text-slate-600">Próximo cobro</dt>
                <dd className="text-slate-900">{staffDate(row.nextBillingDate)}</dd>
                <dt className="text-slate-600">Próxima entrega</dt>
                <dd className="text-slate-900">{staffDate(row.nextDeliveryDate)}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pageSize={pageSize} total={total} hrefFor={(target) => withQuery(LIST_PATH, staffSubscriptionSearchParams(filters, target))} />
    </>
  );
}
