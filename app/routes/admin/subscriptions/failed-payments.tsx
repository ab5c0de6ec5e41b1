import { Link } from "react-router";
import type { Route } from "./+types/failed-payments";
import { listFailedPayments } from "@server/subscriptions/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { staffDate, SubscriptionConsoleNav, SubscriptionStatusBadge } from "~/components/admin/subscription-console";
import { dbContext } from "~/server/db-context.server";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { allowStaff } from "~/server/staff.server";

export const middleware: Route.MiddlewareFunction[] = [allowStaff("suscripciones.gestionar")];

export async function loader({ context }: Route.LoaderArgs) {
  return listFailedPayments(context.get(dbContext));
}

export const meta: Route.MetaFunction = () => [{ title: "Pagos fallidos · Back office" }, { name: "robots", content: "noindex,nofollow" }];

type Row = Awaited<ReturnType<typeof listFailedPayments>>["rows"][number];

/** What the shop does next with this period, in words staff can tell the customer. */
function nextStep(row: Row): string {
  const ends = row.endsOn ? ` La suscripción termina el ${staffDate(row.endsOn)} por una cancelación ya pedida.` : "";
  if (row.periodStatus === "awaiting_payment") {
    const until = row.linkExpiresAt ? formatLimaInstant(row.linkExpiresAt, { day: "numeric", month: "short", year: "numeric" }) : "su vencimiento";
    return `Si no paga el enlace${row.linkOrderNumber ? ` (pedido ${row.linkOrderNumber})` : ""} antes del ${until}, la suscripción queda pausada por falta de pago.${ends}`;
  }
  if (row.nextAttemptDate) {
    const last = row.attempts + 1 >= row.maxAttempts;
    return `Reintento automático el ${staffDate(row.nextAttemptDate)} (intento ${row.attempts + 1} de ${row.maxAttempts})${last ? "; si falla, la suscripción queda pausada por falta de pago" : ""}.${ends}`;
  }
  return `Sin más reintentos automáticos: pausada por falta de pago hasta que el cliente actualice su tarjeta o se cobre ahora desde la suscripción. No se cancela sola.${ends}`;
}

/** Issue 11: the failed-payments queue: declined card periods and unpaid payment links. */
export default function AdminFailedPayments({ loaderData }: Route.ComponentProps) {
  const { rows, total, retryDays, maxAttempts } = loaderData;
  return (
    <>
      <AdminPageHeader title="Pagos fallidos" />
      <SubscriptionConsoleNav />
      <p className="mb-4 text-sm text-slate-600">
        Un cobro rechazado se reintenta cada {retryDays} días, hasta {maxAttempts} intentos; después la suscripción queda pausada por falta de pago.{" "}
        {total > rows.length ? `Se muestran ${rows.length} de ${total}, los más antiguos primero.` : `${total} en la cola.`}
      </p>
      {rows.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-600 shadow-sm ring-1 ring-slate-100">No hay pagos pendientes.</p>
      ) : (
        <ul className="space-y-3" data-testid="failed-payments">
          {rows.map((row) => (
            <li key={row.subscriptionId} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="failed-payment">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <Link to={`/admin/suscripciones/${row.subscriptionId}`} className="font-semibold text-brand-800 underline">
                    {row.subscriptionNumber}
                  </Link>
                  <p className="text-sm text-slate-900">{row.customerName}</p>
                  <p className="text-sm break-all text-slate-600">{row.customerEmail}</p>
                </div>
                <SubscriptionStatusBadge status={row.subscriptionStatus} />
              </div>
              <p className="mt-2 text-sm text-slate-900">
                Periodo {row.periodNumber} del {staffDate(row.billingDate)} · {formatSoles(row.amountCents)} ·{" "}
                {row.periodStatus === "awaiting_payment" ? "enlace de pago enviado" : `${row.attempts} de ${row.maxAttempts} intentos`}
                {row.lastError ? ` · ${row.lastError}` : ""}
              </p>
              <p className="mt-1 text-sm text-slate-700">{nextStep(row)}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
