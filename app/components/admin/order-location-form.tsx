import { useState } from "react";
import { Form } from "react-router";
import { formatPoint, parseCoordinates, type GeoPoint } from "@core/geo";
import { LocationPicker, type MapTiles } from "~/components/map/location-picker";

export { parseCoordinates };

/**
 * Staff set or correct an order's pin (issue 26) on /admin/pedidos/{id}: on the map, or by typing
 * or pasting the coordinates (without JavaScript too). Empty and saved: the district's centre stands
 * in again, and the route sheet says "ubicación aproximada".
 */
export function OrderLocationForm({
  point,
  districtCenter,
  addressText,
  tiles,
  typed,
  result,
  title = "Ubicación en el mapa",
  description,
}: {
  title?: string;
  /** What the point stands for; by default the order's pin or, without one, the district's centre. */
  description?: string;
  point: GeoPoint | null;
  districtCenter: GeoPoint | null;
  addressText: string;
  tiles: MapTiles;
  typed?: string;
  result?: { ok: boolean; message: string };
}) {
  const [text, setText] = useState(typed ?? (point ? formatPoint(point) : ""));
  const current = parseCoordinates(text);
  return (
    <Form method="post" className="mt-4 space-y-2" data-testid="order-location">
      <input type="hidden" name="intent" value="location" />
      <h3 className="text-sm font-bold text-slate-900">{title}</h3>
      <p className="text-sm text-slate-700">
        {description ?? (point ? `Marcada: ${formatPoint(point)}.` : "Sin punto: la ruta usa el centro del distrito (ubicación aproximada).")}
      </p>
      <label htmlFor="coordenadas" className="block text-sm font-semibold text-slate-700">
        Coordenadas (latitud, longitud)
      </label>
      <input
        id="coordenadas"
        name="coordenadas"
        inputMode="decimal"
        autoComplete="off"
        placeholder="-12.121100, -77.029700"
        value={text}
        onChange={(event) => setText(event.target.value)}
        className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
      />
      <LocationPicker
        value={current}
        onChange={(picked) => setText(picked ? formatPoint(picked) : "")}
        tiles={tiles}
        openAt={districtCenter}
        addressText={addressText}
        label="Marcar en el mapa"
        hint="Mueve el mapa hasta la puerta del cliente, o usa tu ubicación si estás allí."
      />
      {result && (
        <p role={result.ok ? "status" : "alert"} className={`text-sm ${result.ok ? "text-emerald-900" : "text-red-800"}`}>
          {result.message}
        </p>
      )}
      <button type="submit" className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
        Guardar ubicación
      </button>
    </Form>
  );
}
