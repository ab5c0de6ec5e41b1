import { Link } from "react-router";
import type { Route } from "./+types/complaints";
import { COMPLAINT_INBOX_LIMIT, listComplaintInbox, type ComplaintInboxFilter } from "@server/complaints/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { dbContext } from "~/server/db-context.server";
import { allowStaffPage } from "~/server/staff.server";
import { COMPLAINT_KIND_LABELS } from "@core/complaints-book";
import { formatLimaDate, formatLimaInstant } from "@core/lima-dates";

/** The Libro de Reclamaciones' inbox: operaciones answers the sheets (and admin). */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/reclamos")];

const FILTERS: { value: ComplaintInboxFilter; label: string }[] = [
  { value: "pendientes", label: "Pendientes" },
  { value: "respondidos", label: "Respondidos" },
  { value: "todos", label: "Todos" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const asked = new URL(request.url).searchParams.get("estado");
  const filter = FILTERS.find((option) => option.value === asked)?.value ?? "pendientes";
  return { filter, rows: await listComplaintInbox(context.get(dbContext), filter, { now: new Date() }), limit: COMPLAINT_INBOX_LIMIT };
}

export const meta: Route.MetaFunction = () => [{ title: "Libro de Reclamaciones · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const COUNTDOWN_TONES = { open: "bg-emerald-50 text-emerald-900", today: "bg-amber-100 text-amber-900", overdue: "bg-red-100 text-red-900" };

export default function AdminComplaints({ loaderData }: Route.ComponentProps) {
  const { filter, rows, limit } = loaderData;
  return (
    <div>
      <AdminPageHeader title="Libro de Reclamaciones" />
      <p className="mb-4 text-slate-700">Cada hoja se responde por correo en un plazo máximo de 15 días hábiles desde el día siguiente a su registro.</p>
      <nav aria-label="Filtrar hojas" className="mb-4">
        <ul className="flex flex-wrap gap-2">
          {FILTERS.map((option) => (
            <li key={option.value}>
              <Link
                to={`/admin/reclamos?estado=${option.value}`}
                aria-current={option.value === filter ? "page" : undefined}
                className={`inline-block rounded-full px-4 py-2 text-sm font-semibold ${option.value === filter ? "bg-brand-700 text-white" : "bg-white text-brand-800 ring-1 ring-slate-200"}`}
              >
                {option.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {rows.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">
          {filter === "pendientes" ? "No hay hojas pendientes de respuesta." : "No hay hojas."}
        </p>
      ) : (
        <ul className="space-y-3">
          {rows.map((row) => (
            <li key={row.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <Link to={`/admin/reclamos/${row.id}`} className="font-semibold text-brand-800 underline">
                    N° {row.sheetNumber}
                  </Link>
                  <p className="break-words text-slate-900">
                    {COMPLAINT_KIND_LABELS[row.kind]} · {row.consumerName}
                  </p>
                  <p className="text-sm text-slate-600">Registrada el {formatLimaInstant(row.filedAt)}</p>
                </div>
                <div className="text-right">
                  {row.countdown ? (
                    <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold ${COUNTDOWN_TONES[row.countdown.state]}`}>
                      {row.countdown.label}
                    </span>
                  ) : (
                    <span className="inline-block rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800">Respondida</span>
                  )}
                  <p className="mt-1 text-sm text-slate-600">Plazo: {formatLimaDate(row.deadline, { day: "numeric", month: "short", year: "numeric" })}</p>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {rows.length === limit && <p className="mt-4 text-sm text-slate-600">Se muestran las primeras {limit} hojas.</p>}
    </div>
  );
}
