import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/district";
import { readDistrictCentre } from "@server/content/index.server";
import {
  setDistrictCentre,
  loadDistrictForStaff,
  MAX_DISTRICT_NOTES,
  setDistrictCapacities,
  updateDistrictSettings,
  type DistrictChangeResult,
} from "@server/deliveries/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { CAPACITY_CELLS, CapacityGrid, wholeNumber } from "~/components/admin/capacity-grid";
import { SavedNotice, contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffInputClass, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { FieldError } from "~/components/ui/form-field";
import { contentIdParam, contentNotFound } from "~/routes/admin/catalog/content-admin.server";
import { isPlainText } from "@core/input-schemas";
import { limaToday, weekdayNames } from "@core/lima-dates";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { OrderLocationForm, parseCoordinates } from "~/components/admin/order-location-form";
import { mapTiles } from "~/server/map-tiles.server";
import { OUTSIDE_LIMA } from "@core/geo";

/**
 * Issue 11: one district — served or not, weekdays, its own cut-off, notes for the team, and its
 * own places per weekday and window (moved here from /admin/calendario, decision 0053).
 */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("distritos.gestionar")];

const NOT_FOUND = "Distrito no encontrado";
const DAYS = [1, 2, 3, 4, 5, 6, 7];

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const district = await loadDistrictForStaff(context.get(dbContext), contentIdParam(params.districtId, NOT_FOUND), limaToday(new Date()));
  if (!district) contentNotFound(NOT_FOUND);
  const centre = await readDistrictCentre(context.get(dbContext), district.id);
  return { district, centre, tiles: mapTiles(), maxNotes: MAX_DISTRICT_NOTES, saved: new URL(request.url).searchParams.get("guardado") };
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.district.name ?? "Distrito"} · Distritos · Back office` },
  { name: "robots", content: "noindex,nofollow" },
];

interface ActionData {
  intent: string;
  error: string;
  fieldErrors: Record<string, string>;
  /** What staff typed, to fill the form again. */
  values: { served?: boolean; doorPayment?: boolean; dayNumbers?: string[]; fields: Record<string, string> };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const districtId = contentIdParam(params.districtId, NOT_FOUND);
  const form = await readFormData(request);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  const intent = text("intent");
  const db = context.get(dbContext);
  const actor = staffActor(context, request);
  let result: DistrictChangeResult;
  let values: ActionData["values"];
  if (intent === "location") {
    // Issue 26: the district's centre, where its stops without a pin are routed.
    const typed = text("coordenadas").slice(0, 80);
    const centre = parseCoordinates(typed);
    if (!centre) return refuse(intent, { fields: { coordenadas: typed } }, `${OUTSIDE_LIMA}: escribe latitud y longitud, p. ej. -12.1211, -77.0297.`, {});
    const saved = await setDistrictCentre(db, actor, { districtId, centre });
    if (saved === "not_found") contentNotFound(NOT_FOUND);
    throw redirect(`/admin/distritos/${districtId}?guardado=centro`);
  }
  if (intent === "settings") {
    const dayNumbers = form.getAll("dias").filter((value): value is string => typeof value === "string");
    values = {
      served: text("served") === "si",
      doorPayment: text("doorPayment") === "si",
      dayNumbers,
      fields: { cutoffTime: text("cutoffTime"), staffNotes: text("staffNotes") },
    };
    if (!isPlainText(values.fields.cutoffTime!) || dayNumbers.some((value) => !/^\d$/.test(value))) {
      return refuse(intent, values, "El formulario contiene valores no permitidos.", {});
    }
    result = await updateDistrictSettings(
      db,
      actor,
      districtId,
      {
        served: values.served,
        doorPayment: values.doorPayment,
        dayNumbers: dayNumbers.map(Number),
        cutoffTime: values.fields.cutoffTime,
        staffNotes: values.fields.staffNotes,
      },
      { today: limaToday(new Date()) },
    );
  } else if (intent === "capacities") {
    const fields = Object.fromEntries(CAPACITY_CELLS.map(({ name }) => [name, text(name)]));
    values = { fields };
    result = await setDistrictCapacities(
      db,
      actor,
      districtId,
      CAPACITY_CELLS.map(({ dayNumber, window, name }) => ({ dayNumber, window, capacity: fields[name] === "" ? null : wholeNumber(fields[name]!) })),
    );
  } else {
    return refuse(intent, { fields: {} }, "Acción no válida. Recarga la página e inténtalo de nuevo.", {});
  }
  if (result.ok) throw redirect(`/admin/distritos/${districtId}?guardado=${intent === "settings" ? "datos" : "cupos"}`);
  if (result.reason === "not_found") contentNotFound(NOT_FOUND);
  const message = result.fieldErrors.served ?? "Revisa los campos marcados.";
  return refuse(intent, values, message, result.fieldErrors);
}

function refuse(intent: string, values: ActionData["values"], error: string, fieldErrors: Record<string, string>) {
  return data<ActionData>({ intent, values, error, fieldErrors }, { status: 400 });
}

export default function AdminDistrict({ loaderData, actionData }: Route.ComponentProps) {
  const { district, maxNotes, saved } = loaderData;
  const busy = useNavigation().state === "submitting";
  const answer = (intent: string) => (actionData?.intent === intent ? actionData : undefined);
  const settings = answer("settings");
  const capacities = answer("capacities");
  const served = settings?.values.served ?? district.served;
  const dayNumbers = settings?.values.dayNumbers ?? district.dayNumbers.map(String);
  const errorOf = (data: ActionData | undefined, field: string) => data?.fieldErrors[field];

  return (
    <div className="max-w-3xl">
      <AdminPageHeader title={district.name}>
        <Link to="/admin/distritos" className="font-semibold text-brand-700 underline">
          Todos los distritos
        </Link>
      </AdminPageHeader>
      <SavedNotice show={saved === "datos" && !actionData}>Distrito guardado: la tienda ya lo muestra así.</SavedNotice>
      <SavedNotice show={saved === "cupos" && !actionData}>Cupos del distrito guardados.</SavedNotice>
      <SavedNotice show={saved === "centro" && !actionData}>Centro del distrito guardado.</SavedNotice>
      <p className="mb-4 text-sm text-slate-700">
        {district.province} · Entregas pendientes: {district.openDeliveries} · Suscripciones vigentes: {district.liveSubscriptions}. Los feriados y días
        cerrados valen para todos los distritos y se editan en{" "}
        <Link to="/admin/calendario" className="font-semibold text-brand-700 underline">
          Calendario
        </Link>
        .
      </p>

      <Form method="post" className={`${contentCardClass} mb-6`} aria-labelledby="datos">
        <h2 id="datos" className="text-lg font-bold text-slate-900">
          Reparto
        </h2>
        <StaffFormError message={settings?.error} />
        <input type="hidden" name="intent" value="settings" />
        <label className="flex items-start gap-2 font-semibold">
          <input
            type="checkbox"
            name="served"
            value="si"
            defaultChecked={served}
            className="mt-1 h-5 w-5"
            aria-invalid={errorOf(settings, "served") ? true : undefined}
            aria-describedby="served-help"
          />
          Repartimos en este distrito
        </label>
        <p id="served-help" className="text-sm text-slate-600">
          Sin reparto, el distrito sale del pie de página y del checkout. No se puede quitar mientras tenga entregas pendientes o suscripciones vigentes.
        </p>
        <label className="flex items-start gap-2 font-semibold">
          <input type="checkbox" name="doorPayment" value="si" defaultChecked={settings?.values.doorPayment ?? district.doorPayment} className="mt-1 h-5 w-5" />
          Ofrecer pago contra entrega aquí
        </label>
        <fieldset aria-describedby={errorOf(settings, "dayNumbers") ? "dias-error" : undefined}>
          <legend className="font-semibold">Días de reparto</legend>
          <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
            {DAYS.map((day) => (
              <label key={day} className="flex items-center gap-2">
                <input type="checkbox" name="dias" value={day} defaultChecked={dayNumbers.includes(String(day))} className="h-5 w-5" />
                {weekdayNames[day]}
              </label>
            ))}
          </div>
          <FieldError id="dias-error" message={errorOf(settings, "dayNumbers")} />
        </fieldset>
        <div>
          <label htmlFor="cutoffTime" className="font-semibold">
            Hora de corte propia
          </label>
          <p id="cutoff-help" className="text-sm text-slate-600">
            Desde esta hora (Lima), mañana ya no se ofrece para este distrito. Vacía: la general ({district.shopCutoffTime}).
          </p>
          <input
            id="cutoffTime"
            name="cutoffTime"
            type="time"
            className={`${staffInputClass} mt-1 sm:w-40`}
            defaultValue={settings?.values.fields.cutoffTime ?? district.cutoffTime ?? ""}
            aria-invalid={errorOf(settings, "cutoffTime") ? true : undefined}
            aria-describedby={errorOf(settings, "cutoffTime") ? "cutoff-help cutoff-error" : "cutoff-help"}
          />
          <FieldError id="cutoff-error" message={errorOf(settings, "cutoffTime")} />
        </div>
        <div>
          <label htmlFor="staffNotes" className="font-semibold">
            Notas para repartidores y equipo
          </label>
          <textarea
            id="staffNotes"
            name="staffNotes"
            rows={3}
            maxLength={maxNotes}
            className={`${staffInputClass} mt-1`}
            defaultValue={settings?.values.fields.staffNotes ?? district.staffNotes}
            aria-invalid={errorOf(settings, "staffNotes") ? true : undefined}
            aria-describedby={errorOf(settings, "staffNotes") ? "notes-error" : undefined}
          />
          <FieldError id="notes-error" message={errorOf(settings, "staffNotes")} />
        </div>
        <button type="submit" className={staffPrimaryButtonClass} disabled={busy}>
          Guardar distrito
        </button>
      </Form>

      <div className={`${contentCardClass} mb-6`}>
        <OrderLocationForm
          key={`${loaderData.centre?.lat ?? ""},${loaderData.centre?.lng ?? ""}`}
          title="Centro del distrito"
          description="Las entregas sin ubicación marcada van aquí en las rutas (ubicación aproximada), y el mapa de la compra abre aquí."
          point={loaderData.centre}
          districtCenter={loaderData.centre}
          addressText={district.name}
          tiles={loaderData.tiles}
          typed={answer("location")?.values.fields.coordenadas}
          result={answer("location") ? { ok: false, message: answer("location")!.error } : undefined}
        />
      </div>

      <Form method="post" className={contentCardClass} aria-labelledby="cupos">
        <h2 id="cupos" className="text-lg font-bold text-slate-900">
          Cupos propios por día y horario
        </h2>
        <p className="text-sm text-slate-600">
          Con un número, el distrito se cuenta aparte en ese día y horario. Vacío: comparte el cupo general (entre paréntesis).
        </p>
        <StaffFormError message={capacities?.error} />
        <input type="hidden" name="intent" value="capacities" />
        <CapacityGrid
          cellClassName="py-1 pr-2 align-top"
          renderCell={({ dayNumber, window, name }, inputProps) => {
            const row = district.capacities.find((entry) => entry.dayNumber === dayNumber && entry.window === window);
            const error = errorOf(capacities, name);
            return (
              <>
                <div className="flex flex-wrap items-center gap-1">
                  <input
                    {...inputProps}
                    className="w-20 rounded-xl border border-slate-300 px-2 py-2 aria-[invalid=true]:border-red-600"
                    defaultValue={capacities?.values.fields[name] ?? (row?.own === null || row?.own === undefined ? "" : String(row.own))}
                    aria-invalid={error ? true : undefined}
                  />
                  <span className="text-xs text-slate-600">({row?.shop ?? "sin límite"})</span>
                </div>
                {error && <p className="text-xs text-red-700">{error}</p>}
              </>
            );
          }}
        />
        <button type="submit" className={staffPrimaryButtonClass} disabled={busy}>
          Guardar cupos del distrito
        </button>
      </Form>
    </div>
  );
}
