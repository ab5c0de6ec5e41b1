import { useEffect, useId, useRef, useState } from "react";
import L from "leaflet";
import "leaflet/dist/leaflet.css";
import { formatPoint, isInsideLima, LIMA_BOUNDS, OUTSIDE_LIMA, roundCoordinate, type GeoPoint } from "@core/geo";
import type { MapTiles } from "./location-picker";

const buttonClass = "rounded-full border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50";

/** Leaflet takes the attribution as HTML; ours is plain text from the environment. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The map itself (issue 26, decision 0078: Leaflet with raster tiles), loaded on demand by
 * LocationPicker. The pin stays at the map's centre and the map moves under it: arrow keys (once
 * the map has focus) or a finger or mouse move it, + and − (or the buttons) zoom, so the keyboard
 * places a pin as well as a pointer does. When no tile loads (no signal, a blocked host, the
 * tests' machine without internet) the map says so and shows the typed address instead; the pin
 * still moves and can be used.
 */
export default function LeafletMap({
  centre,
  zoom,
  tiles,
  addressText,
  onPick,
  onCancel,
}: {
  centre: GeoPoint;
  zoom: number;
  tiles: MapTiles;
  addressText: string;
  onPick: (point: GeoPoint) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const [point, setPoint] = useState(centre);
  const [tilesFailed, setTilesFailed] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const bounds = L.latLngBounds([LIMA_BOUNDS.south, LIMA_BOUNDS.west], [LIMA_BOUNDS.north, LIMA_BOUNDS.east]);
    const instance = L.map(element, {
      center: [centre.lat, centre.lng],
      zoom,
      minZoom: 10,
      maxZoom: 19,
      maxBounds: bounds,
      maxBoundsViscosity: 1,
      zoomControl: false,
      keyboardPanDelta: 40,
    });
    instance.attributionControl.setPrefix(false);
    let anyTileLoaded = false;
    L.tileLayer(tiles.url, { attribution: escapeHtml(tiles.attribution), maxZoom: 19, subdomains: "abc" })
      .on("tileload", () => {
        anyTileLoaded = true;
        setTilesFailed(false);
      })
      .on("tileerror", () => {
        if (!anyTileLoaded) setTilesFailed(true);
      })
      .addTo(instance);
    instance.on("move", () => {
      const at = instance.getCenter();
      setPoint({ lat: roundCoordinate(at.lat), lng: roundCoordinate(at.lng) });
    });
    map.current = instance;
    element.focus({ preventScroll: true });
    return () => {
      instance.remove();
      map.current = null;
    };
    // The map is made once per opening; later props do not move it under the customer's hands.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function pick() {
    if (!isInsideLima(point)) {
      setRefusal(OUTSIDE_LIMA);
      return;
    }
    onPick(point);
  }

  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-3">
      <p id={`${id}-help`} className="mb-2 text-sm text-slate-700">
        Mueve el mapa hasta que el marcador quede sobre la puerta: con el dedo o el mouse, o con las flechas del teclado después de seleccionar el mapa. + y −
        acercan y alejan.
      </p>
      <div className="relative isolate h-72 overflow-hidden rounded-xl bg-slate-100">
        <div
          ref={container}
          className="h-full w-full"
          role="application"
          aria-roledescription="mapa"
          aria-label="Mapa para marcar la dirección de entrega"
          aria-describedby={`${id}-help`}
          data-testid="location-map"
        />
        <svg
          aria-hidden="true"
          viewBox="0 0 24 36"
          className="pointer-events-none absolute left-1/2 top-1/2 z-[1000] h-9 w-6 -translate-x-1/2 -translate-y-full text-brand-800 drop-shadow"
        >
          <path fill="currentColor" d="M12 0C5.4 0 0 5.4 0 12c0 9 12 24 12 24s12-15 12-24C24 5.4 18.6 0 12 0Zm0 17a5 5 0 1 1 0-10 5 5 0 0 1 0 10Z" />
        </svg>
        {tilesFailed && (
          <div role="status" className="absolute inset-x-2 top-2 z-[1000] rounded-lg bg-white/95 p-3 text-sm text-slate-900 shadow" data-testid="map-fallback">
            <p className="font-semibold">No se pudo cargar el mapa.</p>
            <p>
              Dirección: <span className="font-semibold">{addressText.trim() || "aún sin escribir"}</span>
            </p>
            <p>Puedes mover el marcador igual con las flechas o quedarte sin ubicación: usaremos el centro de tu distrito.</p>
          </div>
        )}
      </div>
      <p className="mt-2 text-sm text-slate-800" aria-live="polite" data-testid="map-point">
        Punto elegido: {formatPoint(point)}
      </p>
      {refusal && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {refusal}
        </p>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        <button type="button" className={buttonClass} onClick={() => map.current?.zoomIn()}>
          + Acercar
        </button>
        <button type="button" className={buttonClass} onClick={() => map.current?.zoomOut()}>
          − Alejar
        </button>
        <button type="button" className="rounded-full bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800" onClick={pick}>
          Usar este punto
        </button>
        <button type="button" className={buttonClass} onClick={onCancel}>
          Cancelar
        </button>
      </div>
    </div>
  );
}
