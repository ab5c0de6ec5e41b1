import { lazy, Suspense, useId, useState } from "react";
import { formatPoint, isInsideLima, LIMA_MAP_CENTRE, OUTSIDE_LIMA, roundCoordinate, type GeoPoint } from "@core/geo";
import { useHydrated } from "~/lib/use-hydrated";

/** The map's tiles as the server configures them (MAP_TILES_URL, MAP_TILES_ATTRIBUTION). */
export interface MapTiles {
  url: string;
  attribution: string;
}

/**
 * Leaflet and its stylesheet load only when someone opens the map (issue 26: no weight on the
 * checkout's first load; docs/decisions/0078).
 */
const LeafletMap = lazy(() => import("./leaflet-map"));

const buttonClass = "rounded-full border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-60";

/**
 * An address's optional pin (issue 26): "Marcar en el mapa" opens a map whose centre is the pin
 * (moved with the arrow keys or by dragging), "Usar mi ubicación" asks the browser. Without a pin
 * the district's centre stands in, so nothing here ever blocks a purchase. With `names`, hidden
 * inputs carry the point in a plain form post; otherwise the caller keeps it (checkout's JSON).
 */
export function LocationPicker({
  value,
  onChange,
  tiles,
  openAt,
  addressText,
  names,
  error,
  label = "Ubicación en el mapa (opcional)",
  hint = "Ayuda al repartidor a llegar a tu puerta. Si no la marcas, usamos el centro de tu distrito.",
}: {
  value: GeoPoint | null;
  onChange: (point: GeoPoint | null) => void;
  tiles: MapTiles;
  /** Where the map opens without a pin: the district's centre, else Lima's. */
  openAt?: GeoPoint | null;
  /** The address as typed: what the map falls back to when its tiles do not load. */
  addressText: string;
  names?: { lat: string; lng: string };
  error?: string;
  label?: string;
  hint?: string;
}) {
  const hydrated = useHydrated();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [locating, setLocating] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  function locateMe() {
    if (!("geolocation" in navigator)) {
      setMessage("Tu navegador no comparte la ubicación. Márcala en el mapa.");
      return;
    }
    setLocating(true);
    setMessage(null);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        const point = { lat: roundCoordinate(position.coords.latitude), lng: roundCoordinate(position.coords.longitude) };
        if (!isInsideLima(point)) {
          setMessage(`${OUTSIDE_LIMA}. Márcala en el mapa.`);
          return;
        }
        onChange(point);
        setMessage("Usamos tu ubicación actual. Revísala en el mapa si no estás en la dirección de entrega.");
      },
      (failure) => {
        setLocating(false);
        setMessage(
          failure.code === failure.PERMISSION_DENIED
            ? "No diste permiso para usar tu ubicación. Puedes marcarla en el mapa."
            : "No pudimos obtener tu ubicación. Puedes marcarla en el mapa.",
        );
      },
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
    );
  }

  return (
    <fieldset className="sm:col-span-2" aria-describedby={`${id}-hint`}>
      <legend className="mb-1 font-semibold">{label}</legend>
      <p id={`${id}-hint`} className="mb-2 text-sm text-slate-600">
        {hint}
      </p>
      {names && (
        <>
          <input type="hidden" name={names.lat} value={value ? String(value.lat) : ""} />
          <input type="hidden" name={names.lng} value={value ? String(value.lng) : ""} />
        </>
      )}
      <p className="mb-2 text-sm text-slate-800" data-testid="location-status" aria-live="polite">
        {value ? `Ubicación marcada (${formatPoint(value)}).` : "Sin ubicación marcada."}
      </p>
      {hydrated ? (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={buttonClass} aria-expanded={open} onClick={() => setOpen((was) => !was)}>
            {open ? "Cerrar el mapa" : value ? "Corregir en el mapa" : "Marcar en el mapa"}
          </button>
          <button type="button" className={buttonClass} disabled={locating} onClick={locateMe}>
            {locating ? "Buscando tu ubicación…" : "Usar mi ubicación"}
          </button>
          {value && (
            <button type="button" className={buttonClass} onClick={() => onChange(null)}>
              Quitar ubicación
            </button>
          )}
        </div>
      ) : (
        <p className="text-sm text-slate-600">El mapa necesita JavaScript; sin él usamos el centro de tu distrito.</p>
      )}
      {message && (
        <p role="status" className="mt-2 text-sm text-slate-800">
          {message}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
      {open && (
        <div className="mt-3">
          <Suspense fallback={<p className="text-sm text-slate-600">Cargando el mapa…</p>}>
            <LeafletMap
              centre={value ?? openAt ?? LIMA_MAP_CENTRE}
              zoom={value ? 17 : openAt ? 15 : 12}
              tiles={tiles}
              addressText={addressText}
              onPick={(point) => {
                onChange(point);
                setOpen(false);
                setMessage(null);
              }}
              onCancel={() => setOpen(false)}
            />
          </Suspense>
        </div>
      )}
    </fieldset>
  );
}
