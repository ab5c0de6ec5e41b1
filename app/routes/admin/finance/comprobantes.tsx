import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/comprobantes";
import { isUuid } from "@core/input-schemas";
import { invoiceDocumentTitles } from "@core/invoice-list";
import { formatLimaDate, formatLimaInstant, limaToday } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { ELECTRONIC_STATUS_LABELS, isOpenElectronicStatus, parseComprobanteFilter, type ComprobanteFilter } from "@core/comprobante-labels";
import { listComprobantesForStaff, reissueRejectedComprobante, retryComprobante } from "@server/invoices/index.server";
import { runJobSoon } from "@server/jobs/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { allowStaffPage, staffActor } from "~/server/staff.server";

/** Decision 0045: comprobantes on their way to SUNAT, for whoever runs the day. */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/comprobantes")];

export const meta: Route.MetaFunction = () => [{ title: "Comprobantes · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const chosen = url.searchParams.get("estado");
  let status = parseComprobanteFilter(chosen);
  // A document number is letters, digits and a hyphen: anything else (a NUL byte PostgreSQL refuses) is dropped.
  const query = (url.searchParams.get("q") ?? "").replace(/[^A-Za-z0-9-]/g, "").slice(0, 40);
  let panel = await listComprobantesForStaff(context.get(dbContext), { status, query });
  // Issue 41: the page opens on what needs work; with nothing to send it shows the latest ones
  // rather than an empty list, and says why.
  const fellBack = chosen === null && query === "" && panel.rows.length === 0;
  if (fellBack) {
    status = "all";
    panel = await listComprobantesForStaff(context.get(dbContext), { status, query });
  }
  return { ...panel, status, query, fellBack, today: limaToday(new Date()) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const intent = form.get("intent");
  const invoiceId = form.get("invoiceId");
  if (intent !== "retry" && intent !== "reissue") return data({ ok: false, message: "Acción no válida" }, { status: 400 });
  if (typeof invoiceId !== "string" || !isUuid(invoiceId)) return data({ ok: false, message: "Comprobante no encontrado" }, { status: 404 });
  const run = intent === "retry" ? retryComprobante : reissueRejectedComprobante;
  const result = await run(context.get(dbContext), staffActor(context, request), invoiceId, new Date());
  if (!result.ok) return data({ ok: false, message: result.message }, { status: result.code === "not_found" ? 404 : 400 });
  // The sender runs now instead of at the next pass, after this transaction committed.
  runJobSoon("comprobantes");
  return {
    ok: true,
    message:
      intent === "retry"
        ? `${result.invoiceNumber} se enviará de nuevo en unos segundos.`
        : `Reemitido como ${result.invoiceNumber}; se enviará en unos segundos.`,
  };
}

const STATUS_TONES: Record<string, string> = {
  pending: "bg-amber-100 text-amber-900",
  sent: "bg-sky-100 text-sky-900",
  accepted: "bg-green-100 text-green-900",
  observed: "bg-lime-100 text-lime-900",
  rejected: "bg-red-100 text-red-900",
  format_error: "bg-orange-100 text-orange-900",
  local: "bg-slate-100 text-slate-800",
};

const FILTERS: { value: ComprobanteFilter; label: string }[] = [
  { value: "open", label: "Por enviar" },
  { value: "all", label: "Todos" },
  ...(Object.keys(ELECTRONIC_STATUS_LABELS) as (keyof typeof ELECTRONIC_STATUS_LABELS)[]).map((value) => ({ value, label: ELECTRONIC_STATUS_LABELS[value] })),
];

/** One audited action on one comprobante: a plain form, so it works without JavaScript. */
function RowAction(props: { invoiceId: string; intent: "retry" | "reissue"; label: string; invoiceNumber: string; busy: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="invoiceId" value={props.invoiceId} />
      <button
        type="submit"
        name="intent"
        value={props.intent}
        disabled={props.busy}
        aria-label={`${props.label} ${props.invoiceNumber}`}
        className={`rounded-full px-4 py-1.5 text-sm font-semibold ${props.intent === "retry" ? "border border-brand-700 text-brand-800 hover:bg-brand-50" : "bg-brand-700 text-white hover:bg-brand-800"}`}
      >
        {props.label}
      </button>
    </Form>
  );
}

export default function AdminComprobantes({ loaderData, actionData }: Route.ComponentProps) {
  const { counts, rows, status, query, fellBack, today } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div>
      <AdminPageHeader title="Comprobantes" />
      <ul className="mb-5 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" aria-label="Comprobantes por estado">
        {(Object.keys(ELECTRONIC_STATUS_LABELS) as (keyof typeof ELECTRONIC_STATUS_LABELS)[]).map((key) => (
          <li key={key} className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-100">
            <p className="text-xs text-slate-600">{ELECTRONIC_STATUS_LABELS[key]}</p>
            <p className="text-xl font-bold text-slate-900" data-testid={`count-${key}`}>
              {counts[key]}
            </p>
          </li>
        ))}
      </ul>
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium text-slate-800">
          Estado
          <select name="estado" key={status} defaultValue={status} className="mt-1 block rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm">
            {FILTERS.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </select>
        </label>
        <label className="min-w-0 text-sm font-medium text-slate-800">
          Número
          <input
            name="q"
            defaultValue={query}
            placeholder="B001-00000012"
            className="mt-1 block w-44 max-w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          />
        </label>
        <button type="submit" className="rounded-full bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
          Filtrar
        </button>
      </Form>
      {fellBack && (
        <p className="mb-4 rounded-xl bg-green-50 px-4 py-2 text-sm text-green-900" data-testid="comprobantes-fallback">
          No hay comprobantes por enviar a SUNAT. Se muestran todos, los más recientes de cada estado primero.
        </p>
      )}
      {actionData && (
        <p
          role={actionData.ok ? "status" : "alert"}
          className={`mb-4 rounded-xl px-4 py-2 text-sm ${actionData.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-800"}`}
        >
          {actionData.message}
        </p>
      )}
      {rows.length === 0 ? (
        <p className="rounded-xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">No hay comprobantes con este filtro.</p>
      ) : (
        <ul className="space-y-3" data-testid="comprobantes">
          {rows.map((row) => {
            const late = isOpenElectronicStatus(row.electronicStatus) && row.deadline <= today;
            return (
              <li key={row.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="comprobante-row">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="font-semibold text-slate-900">
                      {row.invoiceNumber}{" "}
                      <span className={`ml-1 rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_TONES[row.electronicStatus] ?? ""}`}>
                        {ELECTRONIC_STATUS_LABELS[row.electronicStatus]}
                      </span>
                    </p>
                    <p className="text-sm text-slate-700">
                      {invoiceDocumentTitles[row.documentType] ?? row.documentType} · {formatSoles(row.totalCents)} · {row.customerName} ·{" "}
                      <Link to={`/admin/pedidos/${row.orderId}`} className="font-semibold text-brand-800 underline">
                        Pedido {row.orderNumber}
                      </Link>
                    </p>
                    <p className="text-sm text-slate-600">
                      Emitido {formatLimaInstant(row.issuedAt, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })}
                      {isOpenElectronicStatus(row.electronicStatus) && (
                        <span className={late ? "font-semibold text-red-800" : ""}>
                          {" "}
                          · Plazo SUNAT: {formatLimaDate(row.deadline, { day: "numeric", month: "short" })}
                        </span>
                      )}
                      {row.sendAttempts > 0 && ` · ${row.sendAttempts} intento${row.sendAttempts === 1 ? "" : "s"}`}
                    </p>
                    {(row.lastSendError || row.sunatDescription) && (
                      <p className="mt-1 break-words text-sm text-slate-700">{row.lastSendError ?? row.sunatDescription}</p>
                    )}
                  </div>
                  {isOpenElectronicStatus(row.electronicStatus) && (
                    <RowAction invoiceId={row.id} intent="retry" label="Reintentar" invoiceNumber={row.invoiceNumber} busy={busy} />
                  )}
                  {row.electronicStatus === "rejected" && !row.reissued && (
                    <RowAction invoiceId={row.id} intent="reissue" label="Reemitir" invoiceNumber={row.invoiceNumber} busy={busy} />
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
