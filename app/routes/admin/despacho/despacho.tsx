import { data, Form, Link } from "react-router";
import type { Route } from "./+types/despacho";
import {
  assignDeliveries,
  DispatchRefusedError,
  lateBadges,
  lateDeliveriesOfDay,
  loadDispatchDay,
  loadRouteOverview,
  prepareDeliveries,
  rescheduleDeliveries,
  type DispatchActionResult,
} from "@server/deliveries/index.server";
import { RoutePlanning } from "~/components/admin/route-planning";
import { applyPlanAction, optimiseAction, type AnswerTone } from "~/routes/admin/despacho/route-planning.server";
import { mapTiles } from "~/server/map-tiles.server";
import { randomUUID } from "node:crypto";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DayNav, DayPickerForm } from "~/components/admin/day-picker";
import { DispatchCapacitySummary, DispatchDeliveryList, DispatchLoadSummary } from "~/components/admin/dispatch-day";
import { dbContext } from "~/server/db-context.server";
import { deliveryStatusLabel } from "@core/delivery-labels";
import { deliveryWindows } from "@core/delivery-schedule";
import { dispatchActionSchema, dispatchDateParam, dispatchFormValues } from "~/lib/dispatch-schemas";
import { addDays, limaToday } from "@core/lima-dates";
import { readFormData } from "~/server/request-body.server";
import { siteInfo } from "~/server/site-info.server";
import { allowStaffPage, staffActor } from "~/server/staff.server";

export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/despacho")];

function dateOf(request: Request): string {
  const date = dispatchDateParam(new URL(request.url).searchParams.get("fecha"), limaToday(new Date()));
  if (!date) throw data("Fecha no válida: usa el formato AAAA-MM-DD.", { status: 404 });
  return date;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const date = dateOf(request);
  const db = context.get(dbContext);
  const now = new Date();
  const [day, routes, late] = await Promise.all([loadDispatchDay(db, date), loadRouteOverview(db, date, now), lateDeliveriesOfDay(db, { date, now })]);
  // Fresh keys per page: a double-clicked "Optimizar rutas" is one run (decision 0078), a
  // double-clicked "Aplicar plan" one write (decision 0093).
  return { day, routes, requestKey: randomUUID(), applyKey: randomUUID(), today: limaToday(now), tiles: mapTiles(), late: lateBadges(late) };
}

const done: Record<string, (count: number) => string> = {
  preparar: (count) => `${count} ${count === 1 ? "envío pasó" : "envíos pasaron"} a Preparando.`,
  asignar: (count) => `${count} ${count === 1 ? "envío asignado" : "envíos asignados"} al repartidor.`,
  reprogramar: (count) => `${count} ${count === 1 ? "envío reprogramado" : "envíos reprogramados"}; avisamos a cada cliente por correo.`,
};

export async function action({ request, context }: Route.ActionArgs) {
  const date = dateOf(request);
  const form = await readFormData(request);
  if (form.get("intent") === "optimizar") return optimiseAction({ form, date, context, request });
  if (form.get("intent") === "aplicar") return applyPlanAction({ form, date, context, request });
  const values = dispatchFormValues(form);
  const parsed = dispatchActionSchema.safeParse({ ...Object.fromEntries(form), ids: form.getAll("ids") });
  if (!parsed.success) return data({ ok: false, message: parsed.error.issues[0]?.message ?? "La solicitud no es válida.", values }, { status: 400 });
  const db = context.get(dbContext);
  const actor = staffActor(context, request);
  const now = new Date();
  const input = parsed.data;
  let result: DispatchActionResult;
  try {
    if (input.intent === "preparar") result = await prepareDeliveries(db, actor, { ids: input.ids, now });
    else if (input.intent === "asignar") result = await assignDeliveries(db, actor, { ids: input.ids, driverId: input.repartidor, now });
    else {
      const { siteUrl } = await siteInfo(db);
      result = await rescheduleDeliveries(db, actor, { ids: input.ids, date: input.nuevaFecha, deliveryWindow: input.nuevoHorario, now, siteUrl });
    }
  } catch (error) {
    if (error instanceof DispatchRefusedError) return data({ ok: false, message: error.message, values }, { status: 409 });
    throw error;
  }
  const message =
    result.changed === 0
      ? "Nada que cambiar: los envíos seleccionados ya estaban así."
      : done[input.intent]!(result.changed) + (result.unchanged > 0 ? ` ${result.unchanged} ya estaban así.` : "");
  // `done` remounts the form, so the boxes just acted on come back unticked.
  return { ok: true, message, values: { ...values, ids: [] }, done: now.getTime() };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Despacho ${loaderData.day.date} · Back office` : "Despacho · Back office" },
  { name: "robots", content: "noindex,nofollow" },
];

const TONES: Record<AnswerTone, string> = {
  success: "bg-green-50 text-green-900",
  info: "bg-sky-50 text-sky-900",
  warning: "bg-amber-50 text-amber-900",
  error: "bg-red-50 text-red-900",
};

/** Green only for what was written; a plan computed is information, one that assigns nothing a warning. */
const toneOf = (answer: { ok: boolean; tone?: AnswerTone }): AnswerTone => answer.tone ?? (answer.ok ? "success" : "error");

export default function AdminDispatch({ loaderData, actionData }: Route.ComponentProps) {
  const { day, today } = loaderData;
  const values = actionData && "values" in actionData ? actionData.values : undefined;
  const selected = new Set(actionData && !actionData.ok ? values?.ids : []);
  const here = `/admin/despacho?fecha=${day.date}`;
  return (
    <>
      <AdminPageHeader title="Despacho">
        <DayPickerForm path="/admin/despacho" date={day.date} />
      </AdminPageHeader>
      <DayNav path="/admin/despacho" date={day.date} today={today} testId="dispatch-date" />

      {actionData?.message && (
        <p
          role={actionData.ok ? "status" : "alert"}
          className={`mb-4 rounded-xl p-4 font-semibold ${TONES[toneOf(actionData)]}`}
          data-testid="dispatch-message"
          data-tone={toneOf(actionData)}
        >
          {actionData.message}
        </p>
      )}

      <section aria-labelledby="resumen-dia" className="mb-6 grid gap-4 lg:grid-cols-3">
        <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100">
          <h2 id="resumen-dia" className="font-bold text-slate-900">
            Resumen del día
          </h2>
          <p className="mt-2 text-3xl font-bold text-brand-900" data-testid="dispatch-total">
            {day.total} {day.total === 1 ? "envío" : "envíos"}
          </p>
          <ul className="mt-3 flex flex-wrap gap-2" aria-label="Envíos por estado">
            {day.statusCounts.map((entry) => (
              <li key={entry.status} className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800">
                {deliveryStatusLabel(entry.status)}: {entry.count}
              </li>
            ))}
          </ul>
          <div className="mt-3">
            <DispatchCapacitySummary pool={day.pool} closedName={day.closedName} />
          </div>
        </div>
        <DispatchLoadSummary load={day.load} bidones={day.bidones} />
        <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100">
          <h2 className="font-bold text-slate-900">Hojas de ruta</h2>
          <ul className="mt-2 space-y-1 text-sm" data-testid="dispatch-drivers">
            {day.drivers.map((driver) => (
              <li key={driver.id} className="flex flex-wrap justify-between gap-2">
                <span>
                  {driver.name}: {driver.stops} {driver.stops === 1 ? "parada" : "paradas"}
                </span>
                {driver.stops > 0 && (
                  <Link
                    to={`/admin/despacho/hoja?fecha=${day.date}&repartidor=${encodeURIComponent(driver.id)}`}
                    className="font-semibold text-brand-800 underline"
                  >
                    Hoja de {driver.name}
                  </Link>
                )}
              </li>
            ))}
          </ul>
          {day.drivers.some((driver) => driver.stops > 0) && (
            <Link to={`/admin/despacho/hoja?fecha=${day.date}`} className="mt-3 inline-block font-semibold text-brand-800 underline">
              Todas las hojas del día
            </Link>
          )}
        </div>
      </section>

      <RoutePlanning
        date={day.date}
        overview={loaderData.routes}
        requestKey={loaderData.requestKey}
        applyKey={loaderData.applyKey}
        tiles={loaderData.tiles}
        values={(actionData && "vans" in actionData ? actionData.vans : null) ?? null}
      />

      {day.total === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">No hay envíos para este día.</p>
      ) : (
        <Form key={actionData && "done" in actionData ? actionData.done : "form"} method="post" action={here} className="space-y-6">
          <fieldset className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
            <legend className="px-1 font-bold text-slate-900">Acciones con los envíos seleccionados</legend>
            <div className="flex flex-wrap items-end gap-4">
              <button type="submit" name="intent" value="preparar" className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white">
                Preparar
              </button>
              <div className="flex flex-wrap items-end gap-2">
                <div className="text-sm font-semibold text-slate-700">
                  <label htmlFor="despacho-repartidor">Repartidor</label>
                  <select
                    id="despacho-repartidor"
                    name="repartidor"
                    defaultValue={values?.repartidor ?? ""}
                    className="mt-1 block rounded-lg border border-slate-300 px-3 py-2"
                  >
                    <option value="">Elige…</option>
                    {day.drivers.map((driver) => (
                      <option key={driver.id} value={driver.id}>
                        {driver.name}
                      </option>
                    ))}
                  </select>
                </div>
                <button type="submit" name="intent" value="asignar" className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white">
                  Asignar a repartidor
                </button>
              </div>
              <div className="flex flex-wrap items-end gap-2">
                <label className="text-sm font-semibold text-slate-700">
                  Nueva fecha
                  <input
                    type="date"
                    name="nuevaFecha"
                    min={addDays(today, 1)}
                    defaultValue={values?.nuevaFecha ?? ""}
                    className="mt-1 block rounded-lg border border-slate-300 px-3 py-2"
                  />
                </label>
                <div className="text-sm font-semibold text-slate-700">
                  <label htmlFor="despacho-horario">Horario</label>
                  <select
                    id="despacho-horario"
                    name="nuevoHorario"
                    defaultValue={values?.nuevoHorario ?? "manana"}
                    className="mt-1 block rounded-lg border border-slate-300 px-3 py-2"
                  >
                    {Object.entries(deliveryWindows).map(([value, window]) => (
                      <option key={value} value={value}>
                        {window.label}
                      </option>
                    ))}
                  </select>
                </div>
                <button type="submit" name="intent" value="reprogramar" className="rounded-lg bg-slate-800 px-4 py-2 font-semibold text-white">
                  Reprogramar
                </button>
              </div>
            </div>
          </fieldset>
          <DispatchDeliveryList groups={day.groups} selected={selected} late={loaderData.late} />
        </Form>
      )}
    </>
  );
}
