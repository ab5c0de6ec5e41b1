import { Form } from "react-router";
import type { PlannedRoute, PlannedStop, RouteOverview } from "@server/deliveries/index.server";
import { deliveryWindows, type DeliveryWindow } from "@core/delivery-schedule";
import { formatLimaInstant } from "@core/lima-dates";
import { LITRES_PER_BIDON } from "@core/route-schemas";
import { UnassignedList } from "./route-unassigned";

/**
 * One colour per van, the same on the plan's cards and on the map: the map's line and pins take the
 * hex, the page a class (the CSP allows no inline style attribute).
 */
const VAN_COLOURS = [
  { hex: "#1d4ed8", swatch: "bg-[#1d4ed8]" },
  { hex: "#c2410c", swatch: "bg-[#c2410c]" },
  { hex: "#15803d", swatch: "bg-[#15803d]" },
  { hex: "#7e22ce", swatch: "bg-[#7e22ce]" },
  { hex: "#be123c", swatch: "bg-[#be123c]" },
  { hex: "#0f766e", swatch: "bg-[#0f766e]" },
  { hex: "#a16207", swatch: "bg-[#a16207]" },
  { hex: "#4338ca", swatch: "bg-[#4338ca]" },
  { hex: "#9d174d", swatch: "bg-[#9d174d]" },
  { hex: "#334155", swatch: "bg-[#334155]" },
] as const;
export const vanColour = (index: number) => VAN_COLOURS[index % VAN_COLOURS.length]!;

const windowLabel = (window: string) => deliveryWindows[window as DeliveryWindow]?.label ?? window;

function loadLabel(route: PlannedRoute): string {
  if (route.capacityUnit === "litros") return `${route.loadLitres} de ${route.capacityLitres} L`;
  return `${Math.ceil(route.loadLitres / LITRES_PER_BIDON)} de ${route.capacity} bidones`;
}

/** What the plan changes for a stop, against where it is now. */
function changeLabel(route: PlannedRoute, stop: PlannedStop, position: number): string | null {
  if (stop.fromDriverId === null) return "Nueva: no tenía ruta";
  if (stop.fromDriverId !== route.driverId) return `Pasa de ${stop.fromDriverName ?? "otro repartidor"}`;
  if (stop.fromPosition !== position) return `Antes parada ${stop.fromPosition ?? "sin orden"}`;
  return null;
}

/**
 * A computed plan waiting for staff (issue 40, decision 0093): per van its stops in order with the
 * time the driver rings, the distance, the driving time and the load, each stop marked with what
 * changes (new, from another van, reordered) and "Con retraso" when its window has passed; a stop
 * that no longer fits stays with its driver unless its box is ticked. Nothing is written until
 * "Aplicar plan".
 */
export function RoutePlanReview({ date, plan, applyKey }: { date: string; plan: NonNullable<RouteOverview["pendingPlan"]>; applyKey: string }) {
  const detail = plan.result.plan!;
  const hasKept = detail.vans.some((route) => route.stops.some((stop) => stop.keptReason));
  const here = `/admin/despacho?fecha=${date}`;
  return (
    <section aria-labelledby="plan-rutas" className="mt-4 rounded-xl border-2 border-brand-200 p-3" data-testid="route-plan">
      <h3 id="plan-rutas" className="font-bold text-slate-900">
        Plan calculado, sin aplicar
      </h3>
      <p className="text-sm text-slate-700">
        Calculado {formatLimaInstant(plan.at)} por {plan.by}. Las rutas no cambian hasta que presiones «Aplicar plan».
      </p>
      {detail.searchCutAtSeconds !== null && (
        <p className="mt-2 rounded-lg bg-amber-50 p-2 text-sm font-semibold text-amber-900" data-testid="route-plan-cut">
          Búsqueda cortada a los {detail.searchCutAtSeconds} s: el servidor estaba ocupado y otro cálculo puede dar rutas distintas.
        </p>
      )}
      {detail.placed === 0 && (
        <p className="mt-2 rounded-lg bg-amber-50 p-2 text-sm font-semibold text-amber-900" data-testid="route-plan-empty">
          Este plan no asigna ninguna parada.{hasKept ? " Solo puedes quitar de su ruta las que marques." : " No hay nada que aplicar."}
        </p>
      )}
      <p className="mt-2 text-sm text-slate-800" data-testid="route-plan-summary">
        {detail.placed} {detail.placed === 1 ? "parada" : "paradas"} en ruta · {detail.newlyAssigned} {detail.newlyAssigned === 1 ? "nueva" : "nuevas"} ·{" "}
        {detail.movedBetweenVans} cambian de vehículo · {plan.result.unassigned.length} sin ruta
        {detail.late > 0 ? ` · ${detail.late} con retraso` : ""}
      </p>
      <Form method="post" action={here} className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="aplicar" />
        <input type="hidden" name="plan" value={plan.id} />
        <input type="hidden" name="clave" value={applyKey} />
        <ul className="grid gap-3 lg:grid-cols-2">
          {detail.vans.map((route, index) => (
            <li key={route.driverId} className="rounded-xl border border-slate-200 p-3 text-sm" data-testid="plan-van" data-driver={route.driverId}>
              <p className="flex items-center gap-2 font-semibold text-slate-900">
                <span aria-hidden="true" className={`inline-block h-3 w-3 rounded-full ${vanColour(index).swatch}`} />
                {route.driverName}
              </p>
              <p className="text-slate-700">
                {route.stops.length} {route.stops.length === 1 ? "parada" : "paradas"} · {route.distanceKm.toLocaleString("es-PE")} km · {route.drivingMinutes}{" "}
                min manejando · carga {loadLabel(route)}
              </p>
              <p className="text-slate-600">
                Ahora: {route.currentStops} {route.currentStops === 1 ? "parada" : "paradas"} por atender
                {route.keptOnRoad > 0 ? `; ${route.keptOnRoad} en camino o terminadas no se mueven` : ""}.
              </p>
              {route.stops.length > 0 && (
                <ol className="mt-2 space-y-1">
                  {route.stops.map((stop, position) => {
                    const change = changeLabel(route, stop, position + 1 + route.keptOnRoad);
                    return (
                      <li key={stop.deliveryId} className="rounded-lg bg-slate-50 p-2" data-testid="plan-stop" data-delivery={stop.deliveryId}>
                        <p>
                          <span className="font-semibold">
                            {position + 1}. {stop.arrival ?? "sin hora"}
                          </span>{" "}
                          · {stop.deliveryNumber} · {stop.districtName} · {windowLabel(stop.deliveryWindow)}
                        </p>
                        <p className="flex flex-wrap gap-1">
                          {stop.lateMinutes > 0 && (
                            <span className="rounded-full bg-red-100 px-2 text-xs font-semibold text-red-900">Con retraso: su horario ya pasó</span>
                          )}
                          {change && <span className="rounded-full bg-brand-50 px-2 text-xs font-semibold text-brand-900">{change}</span>}
                          {stop.approximate && <span className="rounded-full bg-slate-200 px-2 text-xs">ubicación aproximada</span>}
                        </p>
                        {stop.keptReason && (
                          <div className="mt-1 rounded-lg bg-amber-50 p-2 text-amber-900">
                            <p>
                              No cabe en el plan: {stop.keptReason} Sigue con {route.driverName}, al final de su ruta.
                            </p>
                            <label className="mt-1 flex items-center gap-2 font-semibold">
                              <input type="checkbox" name="quitar" value={stop.deliveryId} />
                              Quitar de la ruta de {route.driverName}
                            </label>
                          </div>
                        )}
                      </li>
                    );
                  })}
                </ol>
              )}
            </li>
          ))}
        </ul>
        <UnassignedList unassigned={plan.result.unassigned} />
        {(detail.placed > 0 || hasKept) && (
          <button type="submit" className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white">
            Aplicar plan
          </button>
        )}
      </Form>
    </section>
  );
}
