import { Form, Link } from "react-router";
import type { RouteOverview } from "@server/deliveries/index.server";
import { CAPACITY_UNITS } from "@core/route-schemas";
import { formatLimaInstant } from "@core/lima-dates";
import type { MapTiles } from "~/components/map/location-picker";
import { RouteMapPanel } from "./route-map-panel";
import { RoutePlanReview } from "./route-plan-review";
import { UnassignedList } from "./route-unassigned";

const inputClass = "mt-1 block w-full rounded-lg border border-slate-300 px-2 py-1.5";

/** "5 min atrasado", "3 min adelantado", "a tiempo": a route against its plan. */
export function delayLabel(minutes: number | null): string {
  if (minutes === null) return "sin avance aún";
  if (Math.abs(minutes) < 3) return "a tiempo";
  return minutes > 0 ? `${minutes} min atrasado` : `${-minutes} min adelantado`;
}

/** The values the optimise form posted, kept when it is refused. */
export type VanFormValues = Record<string, { selected: boolean; capacity: string; unit: string; start: string; end: string }>;

/**
 * Despacho's routes (issues 26 and 40): each driver's progress today (done / total, ahead or
 * behind), the "Optimizar rutas" form (which vans, their capacity and shift), the plan it computed
 * waiting for "Aplicar plan", a map of the routes on demand, and what the last applied run could
 * not place, with the reason. Plain forms: they work without JavaScript (the map needs it).
 */
export function RoutePlanning({
  date,
  overview,
  requestKey,
  applyKey,
  values,
  tiles,
}: {
  date: string;
  overview: RouteOverview;
  requestKey: string;
  applyKey: string;
  values: VanFormValues | null;
  tiles: MapTiles;
}) {
  const here = `/admin/despacho?fecha=${date}`;
  return (
    <section aria-labelledby="rutas" className="mb-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="route-planning">
      <h2 id="rutas" className="font-bold text-slate-900">
        Rutas del día
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Salen de {overview.settings.depotLabel}. {overview.unassigned} {overview.unassigned === 1 ? "envío sin ruta" : "envíos sin ruta"}.
      </p>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2" data-testid="route-progress">
        {overview.drivers
          .filter((driver) => driver.progress.total > 0)
          .map((driver) => (
            <li key={driver.id} className="rounded-xl border border-slate-200 p-3 text-sm" data-testid="route-progress-driver">
              <p className="font-semibold text-slate-900">{driver.name}</p>
              <p>
                <span data-testid="route-progress-count">
                  {driver.progress.done} / {driver.progress.total} paradas hechas
                </span>{" "}
                · <span data-testid="route-progress-delay">{delayLabel(driver.progress.delayMinutes)}</span>
              </p>
              {(driver.late > 0 || driver.approximate > 0) && (
                <p className="text-amber-900">
                  {driver.late > 0 ? `${driver.late} fuera de horario` : ""}
                  {driver.late > 0 && driver.approximate > 0 ? " · " : ""}
                  {driver.approximate > 0 ? `${driver.approximate} con ubicación aproximada` : ""}
                </p>
              )}
              <Link to={`/admin/despacho/hoja?fecha=${date}&repartidor=${encodeURIComponent(driver.id)}`} className="font-semibold text-brand-800 underline">
                Ver hoja de {driver.name}
              </Link>
            </li>
          ))}
      </ul>

      <Form method="post" action={here} className="mt-4 space-y-3">
        <input type="hidden" name="intent" value="optimizar" />
        <input type="hidden" name="clave" value={requestKey} />
        <fieldset>
          <legend className="font-semibold text-slate-900">Optimizar rutas: vehículos del día</legend>
          <p className="text-sm text-slate-700">
            Elige los repartidores que salen, la capacidad de cada vehículo y su turno. Las paradas en camino o entregadas no se mueven.
          </p>
          {overview.drivers.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No hay repartidores activos.</p>
          ) : (
            <ul className="mt-2 space-y-2">
              {overview.drivers.map((driver) => {
                const typed = values?.[driver.id];
                const prefix = `van-${driver.id}`;
                return (
                  <li key={driver.id} className="grid grid-cols-2 gap-2 rounded-xl border border-slate-200 p-3 sm:grid-cols-5" data-testid="route-van">
                    <label className="col-span-2 flex items-center gap-2 font-semibold sm:col-span-1">
                      <input type="checkbox" name="vans" value={driver.id} defaultChecked={typed ? typed.selected : driver.progress.total > 0} />
                      {driver.name}
                    </label>
                    <label className="text-sm">
                      Capacidad
                      <input
                        name={`capacidad-${driver.id}`}
                        inputMode="numeric"
                        defaultValue={typed?.capacity ?? String(driver.van.capacity)}
                        className={inputClass}
                        id={`${prefix}-capacidad`}
                      />
                    </label>
                    <label className="text-sm">
                      Unidad
                      <select name={`unidad-${driver.id}`} defaultValue={typed?.unit ?? driver.van.capacityUnit} className={inputClass}>
                        {Object.entries(CAPACITY_UNITS).map(([value, label]) => (
                          <option key={value} value={value}>
                            {label}
                          </option>
                        ))}
                      </select>
                    </label>
                    <label className="text-sm">
                      Inicio del turno
                      <input type="time" name={`inicio-${driver.id}`} defaultValue={typed?.start ?? driver.van.shiftStart} className={inputClass} />
                    </label>
                    <label className="text-sm">
                      Fin del turno
                      <input type="time" name={`fin-${driver.id}`} defaultValue={typed?.end ?? driver.van.shiftEnd} className={inputClass} />
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </fieldset>
        <button type="submit" className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white">
          Optimizar rutas
        </button>
      </Form>

      {overview.pendingPlan && <RoutePlanReview date={date} plan={overview.pendingPlan} applyKey={applyKey} />}
      {overview.lastRun && overview.lastRun.unassigned.length > 0 && (
        <div className="mt-4">
          <p className="text-sm text-slate-700">
            Último plan aplicado: {formatLimaInstant(overview.lastRun.at)} por {overview.lastRun.by}.
          </p>
          <UnassignedList unassigned={overview.lastRun.unassigned} />
        </div>
      )}
      <RouteMapPanel overview={overview} tiles={tiles} />
    </section>
  );
}
