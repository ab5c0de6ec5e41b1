import { may } from "@core/staff-permissions";
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/home";
import { getStaffHome } from "@server/accounts/index.server";
import { retryDeadEmailByStaff } from "@server/notifications/index.server";
import { lateDeliveriesAlarm } from "@server/deliveries/index.server";
import { LateDeliveriesAlarmPanel } from "~/components/admin/late-deliveries-alarm";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AdminAlarms, type AlarmsView, type RetryFormProps } from "~/components/admin/home-alarms";
import { staffMenuFor } from "~/components/admin/staff-menu";
import { retryDeadWhatsappMessageByStaff } from "@server/whatsapp/index.server";
import { runJobSoon } from "@server/jobs/index.server";
import { formatWhatsappNumber, isTemplateError } from "@core/whatsapp";
import { FormAlert } from "~/components/account/auth-shell";
import { dbContext } from "~/server/db-context.server";
import { deliveryStatusLabel } from "@core/delivery-labels";
import { isUuid } from "@core/input-schemas";
import { formatLimaDate, formatLimaInstant, limaToday } from "@core/lima-dates";
import { readFormData } from "~/server/request-body.server";
import { allowStaffPage, staffActor, staffContext } from "~/server/staff.server";

export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin")];

export async function loader({ context }: Route.LoaderArgs) {
  const member = context.get(staffContext);
  const now = new Date();
  const today = limaToday(now);
  const db = context.get(dbContext);
  // Issue 40: late deliveries are the day's alarm for whoever runs it (admin and operaciones).
  const [{ alarms, ...home }, lateDeliveries] = await Promise.all([getStaffHome(db, member, today), lateDeliveriesAlarm(db, member, now)]);
  // Times are written out here, in Lima, so the browser's own locale data never renders them differently.
  const when = (instant: Date | null) => (instant ? formatLimaInstant(instant) : "—");
  const alarmView: AlarmsView | null = alarms && {
    deadEmails: alarms.deadEmails.map((email) => ({
      id: email.id,
      kind: email.kind,
      to: email.to,
      subject: email.subject,
      attempts: email.attempts,
      lastError: email.lastError,
      deadAt: when(email.deadAt),
    })),
    deadWhatsapp: alarms.deadWhatsapp.map((message) => ({
      id: message.id,
      title: message.title,
      to: formatWhatsappNumber(message.to),
      orderId: message.orderId,
      reason: message.reason,
      templateError: isTemplateError(message.errorCode),
      deadAt: when(message.deadAt),
    })),
    rowFailures: alarms.rowFailures.map((failure) => ({ ...failure, lastFailedAt: when(failure.lastFailedAt) })),
    openRefunds: alarms.openRefunds.map((refund) => ({ ...refund, createdAt: when(refund.createdAt) })),
  };
  return {
    firstName: member.firstName,
    today,
    home: { ...home, alarms: alarmView },
    lateDeliveries,
    shortcuts: staffMenuFor(member.role)
      .map((group) => ({ ...group, links: group.links.filter((link) => link.to !== "/admin") }))
      .filter((group) => group.links.length > 0),
  };
}

/** "Reintentar" a dead e-mail or WhatsApp message: alarms only the admin sees, so only the admin may act on them. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const intent = form.get("intent");
  if (intent !== "retry-email" && intent !== "retry-whatsapp") return data({ ok: false, message: "Acción desconocida" }, { status: 400 });
  if (!may(context.get(staffContext).role, "alarmas.gestionar")) throw data("Página no encontrada", { status: 404 });
  if (intent === "retry-whatsapp") return retryWhatsapp(context, request, form.get("messageId"));
  const id = form.get("emailId");
  if (typeof id !== "string" || !isUuid(id)) return data({ ok: false, message: "No encontramos ese correo." }, { status: 404 });
  const result = await retryDeadEmailByStaff(context.get(dbContext), staffActor(context, request), id, new Date());
  if (result.ok) return { ok: true, message: "El correo volverá a enviarse en el próximo intento del envío." };
  if (result.reason === "not_dead") return data({ ok: false, message: "Ese correo ya no está detenido." }, { status: 400 });
  return data({ ok: false, message: "No encontramos ese correo." }, { status: 404 });
}

async function retryWhatsapp(context: Route.ActionArgs["context"], request: Request, id: FormDataEntryValue | null) {
  const notFound = data({ ok: false, message: "No encontramos ese mensaje de WhatsApp." }, { status: 404 });
  if (typeof id !== "string" || !isUuid(id)) return notFound;
  const result = await retryDeadWhatsappMessageByStaff(context.get(dbContext), staffActor(context, request), id, new Date());
  if (result.ok) {
    runJobSoon("whatsapp");
    return { ok: true, message: "El mensaje de WhatsApp volverá a enviarse ahora." };
  }
  if (result.reason === "not_dead") return data({ ok: false, message: "Ese mensaje ya no está detenido." }, { status: 400 });
  return notFound;
}

export const meta: Route.MetaFunction = () => [{ title: "Inicio · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const card = "rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100";

export default function AdminHome({ loaderData, actionData }: Route.ComponentProps) {
  const { home } = loaderData;
  return (
    <>
      <AdminPageHeader title={`Hola, ${loaderData.firstName}`} />
      <p className="mb-6 text-slate-700 first-letter:uppercase">
        {formatLimaDate(loaderData.today, { weekday: "long", day: "numeric", month: "long", year: "numeric" })}
      </p>
      {actionData?.message && (
        <div className="mb-4">
          <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormAlert>
        </div>
      )}

      {home.driver && (
        <section aria-labelledby="home-driver" className={`${card} mb-6`}>
          <h2 id="home-driver" className="text-lg font-bold text-slate-900">
            Tu ruta de hoy
          </h2>
          <p className="mt-1 text-slate-700">
            {home.driver.stopsToday === 0
              ? "Hoy no tienes paradas asignadas."
              : `${home.driver.stopsToday} ${home.driver.stopsToday === 1 ? "parada asignada" : "paradas asignadas"}.`}
          </p>
          <Link to="/admin/reparto" className="mt-3 inline-block rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800">
            Ver mi ruta
          </Link>
        </section>
      )}

      {home.operations && (
        <section aria-labelledby="home-today" className="mb-6 grid gap-3 sm:grid-cols-2">
          <h2 id="home-today" className="text-lg font-bold text-slate-900 sm:col-span-2">
            Hoy
          </h2>
          <div className={card}>
            <h3 className="font-semibold text-slate-900">Entregas de hoy</h3>
            {home.operations.deliveriesToday.length === 0 ? (
              <p className="mt-1 text-slate-700">No hay entregas para hoy.</p>
            ) : (
              <ul className="mt-2 flex flex-wrap gap-2" aria-label="Entregas de hoy por estado">
                {home.operations.deliveriesToday.map((row) => (
                  <li key={row.status} className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-800">
                    {deliveryStatusLabel(row.status)}: <strong>{row.count}</strong>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <Link to="/admin/despacho" className={`${card} block hover:ring-brand-300`}>
            <span className="block font-semibold text-slate-900">Pedidos pagados por despachar</span>
            <span className="mt-1 block text-3xl font-bold text-brand-900" data-testid="orders-awaiting-dispatch">
              {home.operations.ordersAwaitingDispatch}
            </span>
          </Link>
        </section>
      )}

      {loaderData.lateDeliveries && <LateDeliveriesAlarmPanel alarm={loaderData.lateDeliveries} />}

      {home.comprobantesDue && home.comprobantesDue.length > 0 && (
        <section
          aria-labelledby="home-comprobantes"
          role="alert"
          className="mb-6 rounded-2xl border border-red-200 bg-red-50 p-5"
          data-testid="comprobantes-alarm"
        >
          <h2 id="home-comprobantes" className="text-lg font-bold text-red-900">
            Comprobantes por vencer su plazo SUNAT: {home.comprobantesDue.length}
          </h2>
          <ul className="mt-2 space-y-1 text-sm text-red-900">
            {home.comprobantesDue.slice(0, 10).map((row) => (
              <li key={row.id} className="break-words">
                <strong>{row.invoiceNumber}</strong> · plazo {formatLimaDate(row.deadline, { day: "numeric", month: "short" })}
                {row.lastSendError ? ` · ${row.lastSendError}` : ""}
              </li>
            ))}
          </ul>
          <Link to="/admin/comprobantes" className="mt-3 inline-block font-semibold text-red-900 underline">
            Ver comprobantes
          </Link>
        </section>
      )}

      {home.alarms && <AdminAlarms alarms={home.alarms} RetryForm={RetryEmailForm} />}

      <h2 className="mb-3 text-lg font-bold text-slate-900">Accesos</h2>
      {loaderData.shortcuts.map((group) => (
        <section key={group.label} aria-label={group.label} className="mb-4">
          {loaderData.shortcuts.length > 1 && <h3 className="mb-2 text-sm font-semibold tracking-wide text-slate-600 uppercase">{group.label}</h3>}
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {group.links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="block rounded-2xl bg-white p-5 font-semibold text-brand-900 shadow-sm ring-1 ring-slate-100 hover:ring-brand-300">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

function RetryEmailForm({ intent, id, label }: RetryFormProps) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={intent === "retry-email" ? "emailId" : "messageId"} value={id} />
      <button type="submit" aria-label={label} className="rounded-lg px-3 py-1.5 text-sm font-semibold text-brand-900 ring-1 ring-brand-200 hover:bg-brand-50">
        Reintentar
      </button>
    </Form>
  );
}
