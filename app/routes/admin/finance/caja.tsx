import { data, redirect, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/caja";
import { loadCashBoxDay, recordCashHandover } from "@server/payments/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DayNav, DayPickerForm } from "~/components/admin/day-picker";
import { DriverCashCard, type HandoverFeedback } from "~/components/admin/driver-cash-card";
import { dbContext } from "~/server/db-context.server";
import { cashHandoverSchema } from "~/lib/cash-box-schema";
import { dispatchDateParam } from "~/lib/dispatch-schemas";
import { fieldErrors } from "@core/checkout-schema";
import { limaToday } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { readFormData } from "~/server/request-body.server";
import { allowStaffPage, staffActor, staffNotFound } from "~/server/staff.server";

/**
 * Decision 0060: the end-of-day check of the money drivers took at the door (decision 0049). Per
 * driver, each collection, the totals per method, and the rendición operaciones counted. The
 * drivers' own phones show only their own figure (/admin/reparto); this page is not theirs.
 */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/caja")];

const NOTICES = {
  registrada: "Rendición registrada.",
  corregida: "Corrección registrada. La rendición anterior queda en el historial.",
} as const;

function dateOf(url: URL): string {
  const date = dispatchDateParam(url.searchParams.get("fecha"), limaToday(new Date()));
  if (!date) throw data("Fecha no válida: usa el formato AAAA-MM-DD.", { status: 404 });
  return date;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const day = await loadCashBoxDay(context.get(dbContext), dateOf(url));
  const notice = url.searchParams.get("aviso");
  return { day, today: limaToday(new Date()), notice: notice && Object.hasOwn(NOTICES, notice) ? NOTICES[notice as keyof typeof NOTICES] : null };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Caja ${loaderData.day.date} · Back office` : "Caja · Back office" },
  { name: "robots", content: "noindex,nofollow" },
];

/**
 * A refused post may mean the rendición changed meanwhile: reload what is in force (React Router
 * skips that after a 4xx by default), so the next post is a correction of it.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => formMethod === "POST" || defaultShouldRevalidate;

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readFormData(request));
  const values = Object.fromEntries(Object.entries(form).filter(([, value]) => typeof value === "string")) as Record<string, string>;
  const refuse = (feedback: Omit<HandoverFeedback, "driverId" | "values">) =>
    data<HandoverFeedback>({ driverId: values.driverId ?? "", values, ...feedback }, { status: 400 });
  if (form.intent !== "rendir") return refuse({ formError: "Acción no válida", fieldErrors: {} });
  const parsed = cashHandoverSchema.safeParse(form);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    if (errors.driverId) staffNotFound();
    return refuse({ formError: errors.fecha ?? errors.corrige ?? null, fieldErrors: errors });
  }
  const input = parsed.data;
  const result = await recordCashHandover(context.get(dbContext), staffActor(context, request), {
    driverId: input.driverId,
    date: input.fecha,
    countedCents: input.monto,
    note: input.nota,
    correctsRevision: input.corrige,
    now: new Date(),
  });
  if (result.ok) {
    const notice = result.handover.revision === 1 ? "registrada" : "corregida";
    // A repeated post lands on the same page as the first: the rendición is recorded once.
    return redirect(`/admin/caja?fecha=${input.fecha}&aviso=${notice}#caja-${encodeURIComponent(input.driverId)}`);
  }
  if (result.reason === "driver_not_found") staffNotFound();
  if (result.reason === "future_date") return refuse({ formError: "Ese día aún no llega: no hay efectivo que rendir.", fieldErrors: {} });
  if (result.reason === "note_required") return refuse({ formError: null, fieldErrors: { nota: "Indica el motivo de la corrección" } });
  const current = result.current ? ` (en vigor: ${formatSoles(result.current.countedCents)}, registrada por ${result.current.recordedByEmail})` : "";
  return refuse({
    formError: `Alguien registró esta rendición mientras tanto${current}. Revisa las cifras y, si hace falta, envíala como corrección.`,
    fieldErrors: {},
  });
}

export default function CashBox({ loaderData, actionData }: Route.ComponentProps) {
  const { day, today, notice } = loaderData;
  return (
    <>
      <AdminPageHeader title="Caja de repartidores">
        <DayPickerForm path="/admin/caja" date={day.date} max={today} />
      </AdminPageHeader>
      <DayNav path="/admin/caja" date={day.date} today={today} testId="cash-box-date" untilToday />
      {notice && (
        <p role="status" className="mb-4 rounded-xl bg-green-50 p-4 font-semibold text-green-900">
          {notice}
        </p>
      )}
      <p className="mb-6 text-slate-700">
        Cobrado en la puerta este día: <strong className="text-slate-900">{formatSoles(day.cashCents)}</strong> en efectivo y{" "}
        <strong className="text-slate-900">{formatSoles(day.yapeCents)}</strong> por Yape. El efectivo lo entrega cada repartidor; lo cobrado por Yape llegó a
        la cuenta de la tienda y se revisa con el estado de cuenta de Yape.
      </p>
      {day.drivers.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">Nadie cobró en la puerta este día.</p>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          {day.drivers.map((driver, index) => (
            <DriverCashCard
              key={driver.driverEmail}
              driver={driver}
              index={index}
              date={day.date}
              canRecord={day.date <= today}
              feedback={actionData && driver.driverId !== null && actionData.driverId === driver.driverId ? actionData : null}
            />
          ))}
        </div>
      )}
    </>
  );
}
