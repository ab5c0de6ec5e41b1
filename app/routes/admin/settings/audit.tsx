import { Form, Link } from "react-router";
import type { Route } from "./+types/audit";
import { listStaffActions, type StaffActionFilters } from "@server/audit/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { dbContext } from "~/server/db-context.server";
import { auditChanges } from "~/lib/audit-diff";
import { entityTypeLabels, staffActionLabel } from "~/lib/audit-labels";
import { inputClass } from "~/components/ui/form-field";
import { formatLimaInstant, isIsoDate } from "@core/lima-dates";
import { parsePageParam } from "~/lib/pagination";
import { isPlainLine } from "@core/input-schemas";
import { staffRoleLabels } from "~/lib/staff-labels";
import { allowStaffPage } from "~/server/staff.server";

/** Issue 10: the audit log is the admin's. */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/auditoria")];

const FILTER_FIELDS = ["persona", "tipo", "registro", "desde", "hasta"] as const;
type FilterField = (typeof FILTER_FIELDS)[number];

/** The URL's filters, each kept only when it is something a filter could mean; the others say why. */
function readFilters(params: URLSearchParams) {
  const raw = Object.fromEntries(FILTER_FIELDS.map((field) => [field, (params.get(field) ?? "").trim()])) as Record<FilterField, string>;
  const errors: Partial<Record<FilterField, string>> = {};
  const text = (field: FilterField, max: number, pattern?: RegExp) => {
    const value = raw[field];
    if (!value) return undefined;
    if (value.length > max || !isPlainLine(value) || (pattern && !pattern.test(value))) {
      errors[field] = "Este filtro no es válido";
      return undefined;
    }
    return value;
  };
  const date = (field: FilterField) => {
    const value = raw[field];
    if (!value) return undefined;
    if (!isIsoDate(value)) {
      errors[field] = "Usa una fecha válida (AAAA-MM-DD)";
      return undefined;
    }
    return value;
  };
  const filters: StaffActionFilters = {
    actor: text("persona", 160),
    entityType: text("tipo", 40, /^[a-z_]+$/),
    entityId: text("registro", 100),
    from: date("desde"),
    to: date("hasta"),
    page: parsePageParam(params.get("pagina")),
  };
  if (filters.from && filters.to && filters.from > filters.to) errors.hasta = "La fecha final es anterior a la inicial";
  return { raw, filters, errors };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { raw, filters, errors } = readFilters(url.searchParams);
  const { rows, hasMore } = await listStaffActions(context.get(dbContext), filters);
  const page = filters.page ?? 1;
  return {
    raw,
    errors,
    page,
    hasMore,
    rows: rows.map((row) => ({
      id: row.id,
      when: formatLimaInstant(row.createdAt, {
        day: "numeric",
        month: "short",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
      }),
      actorEmail: row.actorEmail,
      actorRole: staffRoleLabels[row.actorRole] ?? row.actorRole,
      action: staffActionLabel(row.action),
      actionCode: row.action,
      entityType: row.entityType,
      entityLabel: entityTypeLabels[row.entityType] ?? row.entityType,
      entityId: row.entityId,
      changes: auditChanges(row.before, row.after),
      clientAddress: row.clientAddress,
    })),
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Auditoría · Back office" }, { name: "robots", content: "noindex,nofollow" }];

function pageHref(raw: Record<string, string>, page: number): string {
  const params = new URLSearchParams(Object.entries(raw).filter(([, value]) => value));
  if (page > 1) params.set("pagina", String(page));
  const query = params.toString();
  return `/admin/auditoria${query ? `?${query}` : ""}`;
}

const FILTER_INPUTS: { name: FilterField; label: string; type: string; placeholder?: string }[] = [
  { name: "persona", label: "Persona (correo)", type: "search", placeholder: "nombre@vidaalcalina.pe" },
  { name: "tipo", label: "Tipo de registro", type: "search", placeholder: "order, delivery, user…" },
  { name: "registro", label: "Id del registro", type: "search" },
  { name: "desde", label: "Desde", type: "date" },
  { name: "hasta", label: "Hasta", type: "date" },
];

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { raw, errors, rows, page, hasMore } = loaderData;
  const errorOf = (field: FilterField) => (errors as Partial<Record<FilterField, string>>)[field];
  return (
    <>
      <AdminPageHeader title="Auditoría" />
      <Form method="get" className="mb-6 grid gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:grid-cols-2 lg:grid-cols-6">
        {FILTER_INPUTS.map((input) => (
          <div key={input.name} className={input.name === "persona" ? "lg:col-span-2" : ""}>
            <label htmlFor={`filtro-${input.name}`} className="mb-1 block text-sm font-semibold">
              {input.label}
            </label>
            <input
              id={`filtro-${input.name}`}
              name={input.name}
              type={input.type}
              defaultValue={raw[input.name]}
              placeholder={input.placeholder}
              aria-invalid={Boolean(errorOf(input.name))}
              aria-describedby={errorOf(input.name) ? `filtro-${input.name}-error` : undefined}
              className={inputClass}
            />
            {errorOf(input.name) && (
              <p id={`filtro-${input.name}-error`} className="mt-1 text-sm text-red-700">
                {errorOf(input.name)}
              </p>
            )}
          </div>
        ))}
        <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-6">
          <button type="submit" className="rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800">
            Filtrar
          </button>
          <Link to="/admin/auditoria" className="rounded-full px-4 py-2.5 font-semibold text-brand-800 underline">
            Quitar filtros
          </Link>
        </div>
      </Form>

      {rows.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">No hay acciones registradas con estos filtros.</p>
      ) : (
        <ol className="space-y-3" aria-label="Acciones del equipo">
          {rows.map((row) => (
            <li key={row.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="audit-row">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <p className="font-semibold text-slate-900">{row.action}</p>
                <p className="text-sm text-slate-700">{row.when}</p>
              </div>
              <p className="mt-1 break-all text-sm text-slate-700">
                {row.actorEmail} <span className="text-slate-600">({row.actorRole})</span>
                {row.clientAddress && <span className="text-slate-600"> · desde {row.clientAddress}</span>}
              </p>
              <p className="mt-1 text-sm">
                <Link to={pageHref({ tipo: row.entityType, registro: row.entityId }, 1)} className="break-all font-semibold text-brand-800 underline">
                  {row.entityLabel} {row.entityId}
                </Link>
              </p>
              {row.changes.length > 0 && (
                <dl className="mt-2 space-y-1 rounded-xl bg-slate-50 p-2 font-mono text-xs text-slate-800">
                  {row.changes.map((change) => (
                    <div key={change.field ?? "valor"} className="flex flex-wrap gap-x-2 break-all">
                      <dt className="font-semibold">{change.field ?? "valor"}:</dt>
                      <dd>
                        <span className="text-red-800">{change.before}</span> → <span className="text-emerald-800">{change.after}</span>
                      </dd>
                    </div>
                  ))}
                </dl>
              )}
            </li>
          ))}
        </ol>
      )}

      <nav aria-label="Páginas de la auditoría" className="mt-6 flex flex-wrap items-center gap-3">
        {page > 1 && (
          <Link to={pageHref(raw, page - 1)} className="rounded-full px-4 py-2 font-semibold text-brand-800 ring-1 ring-brand-200">
            Anterior
          </Link>
        )}
        <span className="text-sm text-slate-700">Página {page}</span>
        {hasMore && (
          <Link to={pageHref(raw, page + 1)} className="rounded-full px-4 py-2 font-semibold text-brand-800 ring-1 ring-brand-200">
            Siguiente
          </Link>
        )}
      </nav>
    </>
  );
}
