import { lazy, Suspense, useState } from "react";
import type { MapTiles } from "~/components/map/location-picker";
import type { MappedRoute } from "~/components/map/route-map";
import { useHydrated } from "~/lib/use-hydrated";

/** What the map draws: the stops still ahead, in the order the driver will ring. */
export interface DriverMapStop {
  number: number;
  address: string;
  pin: { lat: number; lng: number } | null;
}

/**
 * Leaflet loads only when the driver asks for the map (decision 0078). Without signal the module
 * may not be on the phone (the service worker keeps the route's own files, not the map's): the
 * list is then the map.
 */
const RouteMap = lazy(() =>
  import("~/components/map/route-map").catch(() => ({
    default: () => (
      <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900" data-testid="driver-map-unavailable">
        Sin señal no se puede abrir el mapa. Sigue la lista de paradas.
      </p>
    ),
  })),
);

/** "Ver mapa del día" on the driver's phone (issue 40): the depot and the stops ahead, numbered as the cards. */
export function DriverDayMap({
  stops,
  depot,
  tiles,
}: {
  stops: DriverMapStop[];
  /** Absent from a route the phone saved before the map existed: no map until the next load. */
  depot: { label: string; lat: number; lng: number } | undefined;
  tiles: MapTiles | undefined;
}) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  if (!hydrated || stops.length === 0 || !depot || !tiles) return null;
  const pinned = stops.filter((stop) => stop.pin);
  const route: MappedRoute = {
    name: "Mi ruta",
    colour: "#0e7490",
    stops: pinned.map((stop) => ({ label: String(stop.number), point: [stop.pin!.lat, stop.pin!.lng] })),
  };
  return (
    <div className="mb-4">
      <button
        type="button"
        className="min-h-12 rounded-full border border-brand-700 px-5 py-2 font-semibold text-brand-800 hover:bg-brand-50"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {open ? "Ocultar mapa" : "Ver mapa del día"}
      </button>
      {open && (
        <div className="mt-3 space-y-2" data-testid="driver-day-map">
          <Suspense fallback={<p className="text-sm text-slate-700">Cargando el mapa…</p>}>
            <RouteMap
              tiles={tiles}
              depot={{ label: depot.label, point: [depot.lat, depot.lng] }}
              routes={[route]}
              numbers={pinned.map((stop) => stop.number)}
            />
          </Suspense>
          <ul className="space-y-1 text-sm text-slate-800" data-testid="driver-day-map-list">
            {stops.map((stop) => (
              <li key={stop.number}>
                <span className="font-semibold">{stop.number}.</span> {stop.address}
                {!stop.pin && <span className="text-slate-600"> (sin ubicación en el mapa)</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
