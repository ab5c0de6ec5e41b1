import { useEffect, useRef, useState } from "react";
import L from "leaflet";
import "leaflet/dist/leaflet.css";
import type { MapTiles } from "./location-picker";

/** One van's route on the map: its colour and its stops in visiting order. */
export interface MappedRoute {
  name: string;
  colour: string;
  stops: { label: string; point: [number, number] }[];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * A numbered pin (no marker images to fetch) in the van's colour: an element styled through the
 * DOM, which the CSP allows, where a style attribute in HTML would be blocked.
 */
function numberedPin(number: number | string, colour: string, square = false): L.DivIcon {
  const pin = document.createElement("span");
  pin.textContent = String(number);
  pin.className = `flex h-[26px] w-[26px] items-center justify-center border-2 border-white text-xs font-bold text-white shadow ${square ? "rounded-md" : "rounded-full"}`;
  pin.style.background = colour;
  return L.divIcon({ className: "", html: pin, iconSize: [26, 26], iconAnchor: [13, 13] });
}

/**
 * Despacho's map of the day's routes (issue 40), loaded on demand like the address map (decision
 * 0078): the depot, each van's route as a line in its colour through numbered pins. When no tile
 * loads (no signal, a blocked host, the tests' machine) it says so; the list beside it still
 * reads the same routes.
 */
export default function RouteMap({
  tiles,
  depot,
  routes,
  numbers,
}: {
  tiles: MapTiles;
  depot: { label: string; point: [number, number] };
  routes: MappedRoute[];
  /** The pins' numbers when they are not 1, 2, 3… (the driver's map numbers its stops as its cards do). */
  numbers?: number[];
}) {
  const container = useRef<HTMLDivElement>(null);
  const [tilesFailed, setTilesFailed] = useState(false);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const instance = L.map(element, { center: depot.point, zoom: 12, minZoom: 9, maxZoom: 18 });
    instance.attributionControl.setPrefix(false);
    let anyTileLoaded = false;
    L.tileLayer(tiles.url, { attribution: escapeHtml(tiles.attribution), maxZoom: 18, subdomains: "abc" })
      .on("tileload", () => {
        anyTileLoaded = true;
        setTilesFailed(false);
      })
      .on("tileerror", () => {
        if (!anyTileLoaded) setTilesFailed(true);
      })
      .addTo(instance);
    const everything: L.LatLngExpression[] = [depot.point];
    L.marker(depot.point, { icon: numberedPin("A", "#0f172a", true), title: depot.label, keyboard: false }).addTo(instance);
    for (const route of routes) {
      const line: L.LatLngExpression[] = [depot.point, ...route.stops.map((stop) => stop.point), depot.point];
      L.polyline(line, { color: route.colour, weight: 3, opacity: 0.8 }).addTo(instance);
      route.stops.forEach((stop, index) => {
        const number = numbers?.[index] ?? index + 1;
        L.marker(stop.point, { icon: numberedPin(number, route.colour), title: `${route.name} · ${number}. ${stop.label}`, keyboard: false }).addTo(instance);
        everything.push(stop.point);
      });
    }
    if (everything.length > 1) instance.fitBounds(L.latLngBounds(everything), { padding: [20, 20] });
    return () => {
      instance.remove();
    };
    // Drawn once per opening: the page's routes change only with a new plan, which reopens it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="relative isolate h-80 overflow-hidden rounded-xl bg-slate-100">
      <div ref={container} className="h-full w-full" role="img" aria-label="Mapa de las rutas del día" data-testid="route-map" />
      {tilesFailed && (
        <p
          role="status"
          className="absolute inset-x-2 top-2 z-[1000] rounded-lg bg-white/95 p-3 text-sm text-slate-900 shadow"
          data-testid="route-map-fallback"
        >
          No se pudo cargar el mapa de fondo. Las rutas siguen en la lista de abajo.
        </p>
      )}
    </div>
  );
}
