import { data, Link } from "react-router";
import type { Route } from "./+types/deliveries";
import { bidonSummaryForUser, deliveryTracking, listDeliveriesForUser, type CustomerDeliveryRow, type DeliveryTracking } from "@server/deliveries/index.server";
import { env } from "@server/config/index.server";
import { DeliveryTrackingPanel } from "~/components/deliveries/delivery-tracking";
import { AccountPageError, EmptyState } from "~/components/account/account-page";
import { BidonLedger } from "~/components/deliveries/bidon-ledger";
import { GarantiaPanel } from "~/components/deliveries/garantia-panel";
import { garantiaSummaryForUser, setGarantiaPreference } from "@server/garantias/index.server";
import { readFormData } from "~/server/request-body.server";
import { DeliveryStatusBadge } from "~/components/deliveries/delivery-status";
import { dbContext } from "~/server/db-context.server";
import { deliveryDayLabel, deliveryFilters, inTransitDeliveryStatuses, parseDeliveryFilter, type DeliveryFilter } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { limaToday } from "@core/lima-dates";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { userContext } from "~/server/session.server";

const LIST_PATH = "/dashboard/envios";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const filter = parseDeliveryFilter(new URL(request.url).searchParams.get("filter"));
  const now = new Date();
  const db = context.get(dbContext);
  const rows = await listDeliveriesForUser(db, user.id, { filter, now });
  const today = limaToday(now);
  // Issue 26: today's deliveries say how far the van is (a few rows at most: one customer's day);
  // issue 40: so does one still «En camino» from an earlier day.
  const tracking: Record<string, DeliveryTracking> = {};
  const followed = (row: CustomerDeliveryRow) =>
    row.deliveryDate === today || (row.deliveryDate < today && (inTransitDeliveryStatuses as readonly string[]).includes(row.status));
  for (const row of rows.filter(followed)) tracking[row.id] = await deliveryTracking(db, row.id, now);
  // 'Hoy' and 'Mañana' are decided here, in Lima time, so the browser's clock and zone never matter.
  return {
    filter,
    rows,
    today,
    tracking,
    pollSeconds: env().TRACKING_POLL_SECONDS,
    bidones: await bidonSummaryForUser(db, user.id),
    garantia: await garantiaSummaryForUser(db, user.id),
  };
}

/** Decision 0075: the customer chooses how a returned garantía comes back (their own account only, a POST). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const form = await readFormData(request);
  const preference = form.get("preference");
  if (form.get("intent") !== "garantia_preference" || (preference !== "refund" && preference !== "credit"))
    return data({ saved: false, message: "Elige cómo quieres recibir tu garantía." }, { status: 400 });
  await setGarantiaPreference(context.get(dbContext), user.id, preference, new Date());
  return { saved: true, message: null };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Mis Envíos",
    description: "Tus envíos: próximos, en camino y entregados.",
    path: LIST_PATH,
    robots: "noindex,nofollow",
  });

/** Tabs are links (`?filter=`), so they work before and without JavaScript. */
function FilterTabs({ selected }: { selected: DeliveryFilter }) {
  return (
    <nav aria-label="Filtrar envíos">
      {/* The tabs wrap on a phone rather than scroll sideways, where nobody finds the last one. */}
      <ul className="flex flex-wrap gap-x-1 border-b border-slate-200">
        {deliveryFilters.map((filter) => {
          const current = filter.value === selected;
          return (
            <li key={filter.value} className="shrink-0">
              <Link
                to={`${LIST_PATH}?filter=${filter.value}`}
                aria-current={current ? "page" : undefined}
                className={`-mb-px block border-b-2 px-3 py-2 text-sm font-semibold whitespace-nowrap ${current ? "border-brand-700 text-brand-900" : "border-transparent text-slate-600 hover:text-brand-800"}`}
              >
                {filter.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function DeliveryRow({ row, today, tracking, pollSeconds }: { row: CustomerDeliveryRow; today: string; tracking?: DeliveryTracking; pollSeconds: number }) {
  return (
    <li className="space-y-2">
      <Link
        to={`${LIST_PATH}/${row.id}`}
        className="block rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 transition hover:ring-brand-200 focus-visible:ring-brand-700 sm:p-5"
        data-testid="delivery-row"
      >
        <div className="flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
          <div className="min-w-0">
            <p className="font-semibold text-slate-900">Envío {row.deliveryNumber}</p>
            <p className="text-sm text-slate-700">
              <span className="font-semibold first-letter:uppercase inline-block" data-testid="delivery-day">
                {deliveryDayLabel(row, today)}
              </span>{" "}
              · Horario: {deliveryWindowLabel(row.deliveryWindow)}
            </p>
            <p className="text-sm text-slate-600">
              {row.address}, {row.districtName}
            </p>
            <p className="mt-1 text-sm break-words text-slate-500">
              Pedido {row.orderNumber} · {row.itemSummary}
            </p>
          </div>
          <div className="shrink-0">
            <DeliveryStatusBadge status={row.status} />
          </div>
        </div>
      </Link>
      {tracking && <DeliveryTrackingPanel deliveryId={row.id} initial={tracking} pollSeconds={pollSeconds} />}
    </li>
  );
}

/** Spec §2 Deliveries: 'Mis Envíos' with its four tabs; a row opens the tracking detail. */
export default function DashboardDeliveries({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, rows, today, bidones, garantia, tracking, pollSeconds } = loaderData;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Mis Envíos</h1>
      <FilterTabs selected={filter} />
      {rows.length === 0 ? (
        <EmptyState title={filter === "upcoming" ? "No tienes envíos programados" : "No se encontraron envíos"} />
      ) : (
        <ul className="space-y-3" aria-label={deliveryFilters.find((candidate) => candidate.value === filter)?.label}>
          {rows.map((row) => (
            <DeliveryRow key={row.id} row={row} today={today} tracking={tracking[row.id]} pollSeconds={pollSeconds} />
          ))}
        </ul>
      )}
      <BidonLedger summary={bidones} />
      <GarantiaPanel garantia={garantia} saved={actionData?.saved === true} />
      {actionData && !actionData.saved && (
        <p role="alert" className="text-sm text-red-700">
          {actionData.message}
        </p>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountPageError
      error={error}
      title="Mis Envíos"
      notFound="Página no encontrada"
      failure="No se pudieron cargar los envíos. Por favor, inténtalo de nuevo."
      back={{ to: "/dashboard", label: "Volver a mi cuenta" }}
    />
  );
}
