import { Form } from "react-router";
import type { RouteSettings } from "@server/deliveries/index.server";
import { CAPACITY_UNITS } from "@core/route-schemas";
import { StaffFormError, staffInputClass, staffPrimaryButtonClass } from "./staff-form";
import { FieldError } from "~/components/ui/form-field";

type Answer = { error: string; fieldErrors: Record<string, string>; typed: Record<string, string> } | null;

const FIELDS: { name: keyof RouteSettings; label: string; help?: string; inputMode?: "decimal" | "numeric"; type?: string }[] = [
  { name: "depotLabel", label: "Almacén (de dónde salen los vehículos)" },
  { name: "depotLat", label: "Latitud del almacén", inputMode: "decimal" },
  { name: "depotLng", label: "Longitud del almacén", inputMode: "decimal" },
  { name: "serviceMinutes", label: "Minutos por parada", help: "Estacionar, subir los bidones, cobrar y recoger vacíos.", inputMode: "numeric" },
  {
    name: "detourFactor",
    label: "Factor de desvío",
    help: "Cuánto más larga es la ruta por calles que la línea recta (1.35 por defecto).",
    inputMode: "decimal",
  },
  { name: "averageSpeedKmh", label: "Velocidad promedio (km/h)", help: "Puerta a puerta, con tráfico (18 por defecto).", inputMode: "decimal" },
  { name: "vanCapacity", label: "Capacidad por vehículo (por defecto)", inputMode: "numeric" },
  { name: "shiftStart", label: "Inicio del turno (por defecto)", type: "time" },
  { name: "shiftEnd", label: "Fin del turno (por defecto)", type: "time" },
];

/**
 * /admin/ajustes, "Rutas" (issue 26): what route planning assumes. Travel time is the straight
 * line × the detour factor ÷ the average speed; docs/routes-and-tracking.md says how to measure
 * both with the vans' real trips.
 */
export function RouteSettingsForm({ settings, answer }: { settings: RouteSettings; answer: Answer }) {
  const value = (name: keyof RouteSettings) => answer?.typed[name] ?? String(settings[name]);
  const errorOf = (name: string) => answer?.fieldErrors[name] ?? (name === "depotLat" || name === "depotLng" ? answer?.fieldErrors.depot : undefined);
  return (
    <Form method="post" className="mt-6 space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="route-settings">
      <input type="hidden" name="intent" value="routes" />
      <h2 className="text-lg font-bold text-slate-900">Rutas</h2>
      <StaffFormError message={answer?.error} />
      <div className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map((field) => {
          const error = errorOf(field.name);
          const id = `ruta-${field.name}`;
          return (
            <div key={field.name}>
              <label htmlFor={id} className="mb-1 block font-semibold text-slate-800">
                {field.label}
              </label>
              <input
                id={id}
                name={field.name}
                type={field.type ?? "text"}
                inputMode={field.inputMode}
                autoComplete="off"
                defaultValue={value(field.name)}
                aria-invalid={error ? true : undefined}
                aria-describedby={[field.help ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined}
                className={staffInputClass}
              />
              {field.help && (
                <p id={`${id}-help`} className="mt-1 text-sm text-slate-600">
                  {field.help}
                </p>
              )}
              <FieldError id={`${id}-error`} message={error} />
            </div>
          );
        })}
        <div>
          <label htmlFor="ruta-vanCapacityUnit" className="mb-1 block font-semibold text-slate-800">
            Unidad de la capacidad
          </label>
          <select id="ruta-vanCapacityUnit" name="vanCapacityUnit" defaultValue={value("vanCapacityUnit")} className={staffInputClass}>
            {Object.entries(CAPACITY_UNITS).map(([unit, label]) => (
              <option key={unit} value={unit}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" className={staffPrimaryButtonClass}>
        Guardar ajustes de rutas
      </button>
    </Form>
  );
}
