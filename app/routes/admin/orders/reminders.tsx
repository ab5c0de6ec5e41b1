import { may } from "@core/staff-permissions";
import { Link } from "react-router";
import type { Route } from "./+types/reminders";
import { recentReorderReminders, upcomingReorderReminders } from "@server/reorders/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { dbContext } from "~/server/db-context.server";
import { allowStaffPage, staffContext } from "~/server/staff.server";
import { formatLimaDate, formatLimaInstant } from "@core/lima-dates";

/** Decision 0076: who gets "¿Te queda agua?" next, and who got it; operaciones and admin read it, the admin turns it off. */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/recordatorios")];

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const now = new Date();
  const { enabled, upcoming } = await upcomingReorderReminders(db, now);
  const sent = await recentReorderReminders(db);
  return { enabled, upcoming, sent, maySwitch: may(context.get(staffContext).role, "contenido.gestionar") };
}

export const meta: Route.MetaFunction = () => [{ title: "Recordatorios · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const shortDate = (isoDate: string) => formatLimaDate(isoDate, { weekday: "short", day: "numeric", month: "short" });

export default function AdminReminders({ loaderData }: Route.ComponentProps) {
  const { enabled, upcoming, sent, maySwitch } = loaderData;
  return (
    <div className="max-w-4xl space-y-8">
      <AdminPageHeader title="Recordatorios «¿Te queda agua?»" />
      <section className="rounded-2xl bg-white p-5 text-sm text-slate-700 shadow-sm ring-1 ring-slate-100" aria-label="Cómo funcionan">
        <p data-testid="reminders-state" className={enabled ? "font-semibold text-emerald-800" : "font-semibold text-amber-800"}>
          {enabled ? "Activados." : "Desactivados: no se envía ninguno."}{" "}
          {maySwitch && (
            <Link to="/admin/contenido/ajustes#recompra" className="text-brand-700 underline">
              Cambiar
            </Link>
          )}
        </p>
        <p className="mt-2">
          Van a quien compra sin suscripción, con promociones aceptadas y al menos dos pedidos: su ritmo es la mediana de días entre sus pedidos, y el correo
          sale dos días antes de cuando suele quedarse sin agua. Uno por intervalo: un nuevo pedido empieza otro.
        </p>
      </section>

      <section aria-labelledby="proximos" className="space-y-3">
        <h2 id="proximos" className="text-lg font-bold text-slate-900">
          Próximos 14 días ({upcoming.length})
        </h2>
        {upcoming.length === 0 ? (
          <p className="rounded-2xl bg-white p-5 text-slate-700 shadow-sm ring-1 ring-slate-100">Nadie tiene un recordatorio en los próximos 14 días.</p>
        ) : (
          <ul className="space-y-2" data-testid="upcoming-reminders">
            {upcoming.map((row) => (
              <li
                key={`${row.customerKey}:${row.lastOrderId}`}
                className="min-w-0 rounded-2xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-100"
                data-testid="upcoming-reminder"
              >
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="min-w-0 font-semibold break-all text-slate-900">{row.email}</p>
                  <span
                    className={`rounded-full px-3 py-0.5 text-xs font-semibold ${row.sentAt ? "bg-emerald-100 text-emerald-900" : "bg-sky-100 text-sky-900"}`}
                  >
                    {row.sentAt ? `Enviado ${formatLimaInstant(row.sentAt)}` : `Sale el ${shortDate(row.remindOn)}`}
                  </span>
                </div>
                <p className="mt-1 text-slate-700">
                  Cada {row.intervalDays} días · último pedido {row.lastOrderNumber} ({shortDate(row.lastOrderDay)}) · se quedaría sin agua el{" "}
                  {shortDate(row.runsOutOn)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="enviados" className="space-y-3">
        <h2 id="enviados" className="text-lg font-bold text-slate-900">
          Últimos enviados
        </h2>
        {sent.length === 0 ? (
          <p className="rounded-2xl bg-white p-5 text-slate-700 shadow-sm ring-1 ring-slate-100">Aún no se envió ningún recordatorio.</p>
        ) : (
          <ul className="space-y-2" data-testid="sent-reminders">
            {sent.map((row) => (
              <li key={row.id} className="min-w-0 rounded-2xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-100">
                <p className="font-semibold break-all text-slate-900">{row.email}</p>
                <p className="mt-1 text-slate-700">
                  {formatLimaInstant(row.sentAt)} · por {row.channel === "whatsapp" ? "WhatsApp" : "correo"} · cada {row.intervalDays} días · pedido{" "}
                  {row.orderNumber}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
