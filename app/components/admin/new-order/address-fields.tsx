import { useState } from "react";
import { Field, FieldError } from "~/components/ui/form-field";
import { LocationPicker, type MapTiles } from "~/components/map/location-picker";
import { formatPoint, parseCoordinates } from "@core/geo";
import { NEW_ADDRESS } from "@core/staff-order-form";
import type { CallerPicture, DeskDistrict } from "./types";

const inputClass = "w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base aria-[invalid=true]:border-red-600";

/**
 * Where it goes: one of the caller's addresses (each with its district and pin), or a new one typed
 * here — a served district, the address, a reference and an optional pin (typed or pasted as
 * coordinates, or set on the checkout's map). Without JavaScript the new address's fields are
 * always shown and count only when "Otra dirección" is chosen.
 */
export function AddressFields({
  addresses,
  districts,
  choice,
  onChoice,
  districtId,
  onDistrict,
  typed,
  errors,
  hydrated,
  tiles,
}: {
  addresses: CallerPicture["addresses"];
  districts: DeskDistrict[];
  choice: string;
  onChoice: (value: string) => void;
  districtId: string;
  onDistrict: (value: string) => void;
  typed: { direccion: string; referencia: string; coordenadas: string };
  errors: Record<string, string>;
  hydrated: boolean;
  tiles: MapTiles;
}) {
  const [coordinates, setCoordinates] = useState(typed.coordenadas);
  const [direccion, setDireccion] = useState(typed.direccion);
  const district = districts.find((candidate) => String(candidate.id) === districtId);
  const served = new Set(districts.map((candidate) => candidate.id));
  const showNew = !hydrated || choice === NEW_ADDRESS || addresses.length === 0;
  return (
    <fieldset className="min-w-0" aria-describedby={errors.direccionElegida ? "direccionElegida-error" : undefined}>
      <legend className="mb-2 text-lg font-bold text-slate-900">Dirección</legend>
      {addresses.length > 0 && (
        <div className="mb-3 space-y-2">
          {addresses.map((address) => (
            <label
              key={address.key}
              className="flex items-start gap-2 rounded-xl border px-3 py-2 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name="direccionElegida"
                value={address.key}
                checked={choice === address.key}
                disabled={!served.has(address.districtId)}
                onChange={() => onChoice(address.key)}
                className="mt-1 accent-brand-700"
              />
              <span className="min-w-0 break-words">
                <span className="font-semibold text-slate-900">
                  {address.address}, {address.districtName}
                </span>
                {address.reference && <span className="block text-slate-700">Referencia: {address.reference}</span>}
                <span className="block text-slate-600">
                  {address.source} · {address.point ? "con ubicación en el mapa" : "sin ubicación (centro del distrito)"}
                  {!served.has(address.districtId) && " · ya no repartimos en este distrito"}
                </span>
              </span>
            </label>
          ))}
          <label className="flex items-center gap-2 rounded-xl border px-3 py-2 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
            <input
              type="radio"
              name="direccionElegida"
              value={NEW_ADDRESS}
              checked={choice === NEW_ADDRESS}
              onChange={() => onChoice(NEW_ADDRESS)}
              className="accent-brand-700"
            />
            Otra dirección
          </label>
        </div>
      )}
      {addresses.length === 0 && <input type="hidden" name="direccionElegida" value={NEW_ADDRESS} />}
      <FieldError id="direccionElegida-error" message={errors.direccionElegida} className="mb-2 text-sm text-red-700" />
      <div className="grid gap-3 sm:grid-cols-2" hidden={!showNew}>
        {addresses.length > 0 && !hydrated && <p className="text-sm text-slate-600 sm:col-span-2">Solo si eliges «Otra dirección»:</p>}
        <Field label="Distrito" error={errors.districtId} id="districtId">
          {(field) => (
            <select {...field} name="districtId" value={districtId} onChange={(event) => onDistrict(event.target.value)} className={inputClass}>
              <option value="">Elige el distrito</option>
              {districts.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Dirección" error={errors.direccion} id="direccion">
          {(field) => (
            <input
              {...field}
              name="direccion"
              value={direccion}
              onChange={(event) => setDireccion(event.target.value)}
              autoComplete="off"
              maxLength={200}
              className={inputClass}
            />
          )}
        </Field>
        <div className="sm:col-span-2">
          <Field label="Referencia (opcional)" error={errors.referencia} id="referencia">
            {(field) => <input {...field} name="referencia" defaultValue={typed.referencia} autoComplete="off" maxLength={200} className={inputClass} />}
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Field label="Ubicación: coordenadas (opcional)" error={errors.coordenadas} id="coordenadas">
            {(field) => (
              <input
                {...field}
                name="coordenadas"
                value={coordinates}
                onChange={(event) => setCoordinates(event.target.value)}
                inputMode="decimal"
                autoComplete="off"
                placeholder="-12.121100, -77.029700"
                className={inputClass}
              />
            )}
          </Field>
        </div>
        {hydrated && (
          <LocationPicker
            value={parseCoordinates(coordinates)}
            onChange={(point) => setCoordinates(point ? formatPoint(point) : "")}
            tiles={tiles}
            openAt={district?.center}
            addressText={[direccion, district?.name].filter(Boolean).join(", ")}
            hint="Si el cliente da una referencia clara, márcala en el mapa para el repartidor. Sin ubicación usamos el centro del distrito."
          />
        )}
      </div>
    </fieldset>
  );
}
