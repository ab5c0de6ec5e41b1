import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.subscriptions";
import { listServedDistricts } from "@server/content/index.server";
import { searchStaffSubscriptions, STAFF_SUBSCRIPTIONS_PAGE_SIZE } from "@server/subscriptions/index.server";
import { Pager } from "~/components/account/pager";
import { AdminPageHeader } from "~/components/admin/admin-shell";
import { staffDate, SubscriptionConsoleNav, SubscriptionStatusBadge } from "~/components/admin/subscription-console";
import { dbContext } from "~/db-context.server";
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
import { pageWindow, parsePageParam } from "~/lib/pagination";
import { allowRoles } from "~/staff.server";

export const middleware: Route.MiddlewareFunction[] = [allowRoles("operaciones")];

const LIST_PATH = "/admin/suscripciones";

function withQuery(path: string, params: URLSearchParams): string {
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const params = new URL(request.url).searchParams;
  const filters = parseStaffSubscriptionFilters(params);
  const page = parsePageParam(params.get("page"));
  const [{ rows, total }, districts] = await Promise.all([searchStaffSubscriptions(db, filters, { page }), listServedDistricts(db)]);
  const { lastPage } = pageWindow(page, STAFF_SUBSCRIPTIONS_PAGE_SIZE, total);
  if (page > lastPage) throw redirect(withQuery(LIST_PATH, staffSubscriptionSearchParams(filters, lastPage)));
  return { rows, total, page, pageSize: STAFF_SUBSCRIPTIONS_PAGE_SIZE, filters, districts: districts.map(({ id, name }) => ({ id, name })) };
}

export const meta: Route.MetaFunction = () => [{ title: "Suscripciones · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const fieldClass = "mt-1 block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900";
const labelClass = "block text-sm font-semibold text-slate-700";

function Select({ id, label, value, options }: { id: string; label: string; value: string; options: { value: string; label: string }[] }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name={id} defaultValue={value} className={fieldClass}>
        <option value="">Todos</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Filters({ filters, districts }: { filters: StaffSubscriptionFilters; districts: { id: number; name: string }[] }) {
  return (
    <Form
      method="get"
      action={LIST_PATH}
      key={staffSubscriptionSearchParams(filters).toString()}
      className="mb-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100"
      role="search"
      aria-label="Buscar suscripciones"
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor="q" className={labelClass}>
            Buscar
          </label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={filters.q ?? ""}
            maxLength={120}
            placeholder="E-mail o nombre del cliente, N° de suscripción"
            className={fieldClass}
          />
        </div>
        <button type="submit" className="rounded-lg bg-brand-700 px-5 py-2 text-sm font-semibold text-white hover:bg-brand-800">
          Buscar
        </button>
      </div>
      <div className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6">
        <Select
          id="estado"
          label="Estado"
          value={filters.status ?? ""}
          options={SUBSCRIPTION_STATUSES.map((status) => ({ value: status, label: subscriptionStatusLabels[status]! }))}
        />
        <Select
          id="plan"
          label="Plan"
          value={filters.plan ?? ""}
          options={SUBSCRIPTION_PLANS.map((plan) => ({ value: plan, label: plan === "anual" ? "Anual" : "Mensual" }))}
        />
        <Select
          id="distrito"
          label="Distrito"
          value={filters.districtId ? String(filters.districtId) : ""}
          options={districts.map((district) => ({ value: String(district.id), label: district.name }))}
        />
        <Select
          id="cobro"
          label="Forma de cobro"
          value={filters.billingMethod ?? ""}
          options={BILLING_METHODS.map((method) => ({ value: method, label: billingMethodLabels[method]! }))}
        />
        <div>
          <label htmlFor="desde" className={labelClass}>
            Próximo cobro desde
          </label>
          <input id="desde" name="desde" type="date" defaultValue={filters.from ?? ""} className={fieldClass} />
        </div>
        <div>
          <label htmlFor="hasta" className={labelClass}>
            Próximo cobro hasta
          </label>
          <input id="hasta" name="hasta" type="date" defaultValue={filters.to ?? ""} className={fieldClass} />
        </div>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="submit" className="rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
          Aplicar filtros
        </button>
        {Object.keys(filters).length > 0 && (
          <Link to={LIST_PATH} className="text-sm font-semibold text-brand-800 underline">
            Limpiar filtros
          </Link>
        )}
      </div>
    </Form>
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
