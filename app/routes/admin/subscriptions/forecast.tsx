import { data, Form } from "react-router";
import type { Route } from "./+types/forecast";
import { DispatchRefusedError, rescheduleDay } from "@server/deliveries/index.server";
import { subscriptionForecast, type ForecastDay } from "@server/subscriptions/index.server";
import { FormAlert } from "~/components/account/auth-shell";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { staffDate, SubscriptionConsoleNav } from "~/components/admin/subscription-console";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { siteInfo } from "~/server/site-info.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { isPlainLine } from "@core/input-schemas";
import { formatLimaDate, isIsoDate } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { z } from "@core/zod";

export const middleware: Route.MiddlewareFunction[] = [allowStaff("suscripciones.gestionar")];

const FORECAST_DAYS = 30;

export async function loader({ context }: Route.LoaderArgs) {
  return subscriptionForecast(context.get(dbContext), { now: new Date(), days: FORECAST_DAYS });
}

const rescheduleDaySchema = z.object({
  fecha: z.string("Elige el día sin entregas.").refine(isIsoDate, "Elige el día sin entregas."),
  motivo: z
    .string()
    .max(120, "Escribe el motivo en 120 caracteres como máximo.")
    .refine((value) => value === "" || isPlainLine(value), "El motivo contiene caracteres no permitidos."),
});

type ActionResult =
  | { ok: true; message: string; moved: { deliveryNumber: string; districtName: string; deliveryWindow: string; to: string }[] }
  | { ok: false; message: string; values: { fecha: string; motivo: string } };

export async function action({ context, request }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const form = await readFormData(request);
  const values = { fecha: String(form.get("fecha") ?? "").trim(), motivo: String(form.get("motivo") ?? "").trim() };
  if (form.get("intent") !== "reschedule-day")
    return data<ActionResult>({ ok: false, message: "Acción desconocida. Recarga la página.", values }, { status: 400 });
  const parsed = rescheduleDaySchema.safeParse(values);
  if (!parsed.success) return data<ActionResult>({ ok: false, message: parsed.error.issues[0]!.message, values }, { status: 400 });
  try {
    const result = await rescheduleDay(db, staffActor(context, request), {
      date: parsed.data.fecha,
      reason: parsed.data.motivo,
      now: new Date(),
      siteUrl: (await siteInfo(db)).siteUrl,
    });
    const message =
      result.moved.length === 0
        ? `No quedan entregas por mover el ${staffDate(parsed.data.fecha)}.`
        : `${result.moved.length} entrega${result.moved.length === 1 ? "" : "s"} reprogramada${result.moved.length === 1 ? "" : "s"}; enviamos un correo a ${result.customers} cliente${result.customers === 1 ? "" : "s"}.`;
    return data<ActionResult>({ ok: true, message, moved: result.moved });
  } catch (error) {
    if (error instanceof DispatchRefusedError) return data<ActionResult>({ ok: false, message: error.message, values }, { status: 400 });
    throw error;
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Pronóstico y cierres · Back office" }, { name: "robots", content: "noindex,nofollow" }];

function totals(days: ForecastDay[]) {
  const units = new Map<string, { label: string; units: number }>();
  for (const day of days) {
    for (const line of day.units) {
      const key = `${line.productId}:${line.variantId ?? ""}`;
      const entry = units.get(key) ?? { label: line.variantTitle ? `${line.title} (${line.variantTitle})` : line.title, units: 0 };
      entry.units += line.units;
      units.set(key, entry);
    }
  }
  return {
    charges: days.reduce((sum, day) => sum + day.charges, 0),
    chargeCents: days.reduce((sum, day) => sum + day.chargeCents, 0),
    units: [...units.values()],
  };
}

function Summary({ title, days }: { title: string; days: ForecastDay[] }) {
  const sum = totals(days);
  return (
    <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100" aria-label={title} data-testid="forecast-summary">
      <h2 className="text-lg font-bold">{title}</h2>
      <p className="mt-2 text-slate-900">
        {sum.charges} cobro{sum.charges === 1 ? "" : "s"} · {formatSoles(sum.chargeCents)}
      </p>
      {sum.units.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">Sin entregas previstas.</p>
      ) : (
        <ul className="mt-1 text-sm text-slate-700">
          {sum.units.map((line) => (
            <li key={line.label}>
              {line.units} × {line.label}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Issue 11: the next 7 and 30 days for the plant, and moving a whole day's deliveries on an unexpected closure. */
export default function AdminSubscriptionForecast({ loaderData, actionData }: Route.ComponentProps) {
  const { days, from, to } = loaderData;
  const busyDays = days.filter((day) => day.charges > 0 || day.units.length > 0);
  const values = actionData && !actionData.ok ? actionData.values : { fecha: "", motivo: "" };
  return (
    <>
      <AdminPageHeader title="Pronóstico y cierres" />
      <SubscriptionConsoleNav />
      <div className="space-y-6">
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <Summary title="Próximos 7 días" days={days.slice(0, 7)} />
          <Summary title="Próximos 30 días" days={days} />
        </div>
        <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100" aria-labelledby="per-day">
          <h2 id="per-day" className="text-lg font-bold">
            Día por día ({staffDate(from)} – {staffDate(to)})
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Cobros: el próximo de cada suscripción activa (un rechazo, en su fecha de reintento). Unidades: las entregas ya creadas más la próxima entrega de
            cada suscripción activa.
          </p>
          {busyDays.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">Nada previsto en estos días.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100 text-sm" data-testid="forecast-days">
              {busyDays.map((day) => (
                <li key={day.date} className="py-2">
                  <p className="font-semibold text-slate-900">
                    {formatLimaDate(day.date, { weekday: "long", day: "numeric", month: "short" })}
                    <span className="font-normal text-slate-700">
                      {" "}
                      · {day.charges} cobro{day.charges === 1 ? "" : "s"} · {formatSoles(day.chargeCents)}
                    </span>
                  </p>
                  {day.units.length > 0 && (
                    <p className="text-slate-700">
                      {day.units.map((line) => `${line.units} × ${line.title}${line.variantTitle ? ` (${line.variantTitle})` : ""}`).join(" · ")}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100" aria-labelledby="close-day">
          <h2 id="close-day" className="text-lg font-bold">
            Reprogramar todas las entregas de un día
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Para un cierre imprevisto: cada entrega que aún no salió pasa al siguiente día que su distrito recibe entregas, con cupo en su horario. Cada cliente
            recibe un solo correo con sus nuevas fechas.
          </p>
          <Form method="post" className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3 sm:items-end" key={actionData?.ok ? "done" : "form"}>
            <input type="hidden" name="intent" value="reschedule-day" />
            <div>
              <label htmlFor="fecha" className="block text-sm font-semibold text-slate-700">
                Día sin entregas
              </label>
              <input
                id="fecha"
                name="fecha"
                type="date"
                required
                defaultValue={values.fecha}
                className="mt-1 block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
              />
            </div>
            <div>
              <label htmlFor="motivo" className="block text-sm font-semibold text-slate-700">
                Motivo (opcional, va en el correo)
              </label>
              <input
                id="motivo"
                name="motivo"
                maxLength={120}
                defaultValue={values.motivo}
                className="mt-1 block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
              />
            </div>
            <button type="submit" className="rounded-lg bg-brand-700 px-5 py-2 text-sm font-semibold text-white hover:bg-brand-800">
              Reprogramar el día
            </button>
          </Form>
          {actionData && (
            <div className="mt-3">
              <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormAlert>
              {actionData.ok && actionData.moved.length > 0 && (
                <ul className="mt-2 text-sm text-slate-700">
                  {actionData.moved.map((row) => (
                    <li key={row.deliveryNumber}>
                      {row.deliveryNumber} ({row.districtName}, {deliveryWindowLabel(row.deliveryWindow)}) → {staffDate(row.to)}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </section>
      </div>
    </>
  );
}
