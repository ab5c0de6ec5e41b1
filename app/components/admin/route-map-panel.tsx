import { lazy, Suspense, useState } from "react";
import type { RouteOverview } from "@server/deliveries/index.server";
import type { MapTiles } from "~/components/map/location-picker";
import type { MappedRoute } from "~/components/map/route-map";
import { useHydrated } from "~/lib/use-hydrated";
import { vanColour } from "./route-plan-review";

/** Leaflet loads only when "Ver mapa" is pressed (decision 0078), as the address map does. */
const RouteMap = lazy(() => import("~/components/map/route-map"));

/** The routes the map draws: the plan waiting for "Aplicar plan" if there is one, else the routes as they are. */
function mappedRoutes(overview: RouteOverview): { title: string; routes: (MappedRoute & { swatch: string })[] } {
  const plan = overview.pendingPlan?.result.plan;
  if (plan) {
    return {
      title: "Mapa del plan sin aplicar",
      routes: plan.vans.map((van, index) => ({
        name: van.driverName,
        colour: vanColour(index).hex,
        swatch: vanColour(index).swatch,
        stops: van.stops.flatMap((stop) => (stop.point ? [{ label: stop.deliveryNumber, point: stop.point }] : [])),
      })),
    };
  }
  const names = new Map(overview.drivers.map((driver) => [driver.id, driver.name]));
  return {
    title: "Mapa de las rutas actuales",
    routes: overview.currentRoutes
      .filter((route) => route.stops.length > 0)
      .map((route, index) => ({
        name: names.get(route.driverId) ?? route.driverId,
        colour: vanColour(index).hex,
        swatch: vanColour(index).swatch,
        stops: route.stops.flatMap((stop) => (stop.point ? [{ label: stop.deliveryNumber, point: stop.point }] : [])),
      })),
  };
}

/**
 * "Ver mapa" in Despacho (issue 40): each van's route in its colour with numbered pins and the
 * depot, and beside it the same routes as a list, which is what remains when the tiles cannot load.
 */
export function RouteMapPanel({ overview, tiles }: { overview: RouteOverview; tiles: MapTiles }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const { title, routes } = mappedRoutes(overview);
  if (!hydrated || routes.length === 0) return null;
  const depot = { label: overview.settings.depotLabel, point: [overview.settings.depotLat, overview.settings.depotLng] as [number, number] };
  return (
    <div className="mt-4">
      <button
        type="button"
        className="rounded-full border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {open ? "Ocultar mapa" : "Ver mapa"}
      </button>
      {open && (
        <div className="mt-3 space-y-2" data-testid="route-map-panel">
          <h3 className="font-semibold text-slate-900">{title}</h3>
          <Suspense fallback={<p className="text-sm text-slate-700">Cargando el mapa…</p>}>
            <RouteMap tiles={tiles} depot={depot} routes={routes} />
          </Suspense>
          <ul className="space-y-1 text-sm" data-testid="route-map-list">
            <li>
              <span className="font-semibold">A</span>: {depot.label} (almacén)
            </li>
            {routes.map((route) => (
              <li key={route.name} className="flex flex-wrap items-center gap-1">
                <span aria-hidden="true" className={`inline-block h-3 w-3 rounded-full ${route.swatch}`} />
                <span className="font-semibold">{route.name}:</span>
                {route.stops.map((stop, index) => `${index + 1}. ${stop.label}`).join(" → ") || "sin paradas con ubicación"}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
