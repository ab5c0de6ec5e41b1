/**
 * Route planning's settings and forms (issue 26), validated the same way in the browser and on the
 * server: the depot, the travel-time model, the time a stop takes and each van's capacity and shift.
 */
import { limaPointSchema } from "./geo";
import { z } from "./zod";

export const CAPACITY_UNITS = { bidones: "bidones (20 L)", litros: "litros" } as const;
export type CapacityUnit = keyof typeof CAPACITY_UNITS;
export const LITRES_PER_BIDON = 20;

/**
 * The defaults a fresh shop starts from (the schema's column defaults are these). Travel time is
 * straight-line distance × detour factor ÷ average speed. They are reasoned, not measured: this
 * workshop has no internet and no van to drive. TomTom's Traffic Index ranks Lima among the most
 * congested cities it measures, with daytime city-centre averages around 20 km/h; a van stopping
 * and turning in residential streets goes slower, hence 18 km/h. A dense grid with one-way
 * streets makes the road 1.3–1.4 times the straight line (circuity factors of Ballou et al.,
 * 2002), hence 1.35. Against three midday trips as Lima drivers usually quote them: Parque
 * Kennedy → Óvalo Gutiérrez (2.0 km straight) 9 min in the model, 10–15 quoted; Jockey Plaza →
 * Larcomar (7.8 km) 35 min, 30–40 quoted; San Borja → Lince (4.5 km) 20 min, 20–25 quoted. To be
 * re-measured with the vans' real trips (docs/routes-and-tracking.md says how).
 */
export const ROUTE_SETTING_DEFAULTS = {
  depotLabel: "Almacén Surquillo",
  depotLat: -12.1175,
  depotLng: -77.012,
  serviceMinutes: 6,
  detourFactor: 1.35,
  averageSpeedKmh: 18,
  vanCapacity: 60,
  vanCapacityUnit: "bidones" as CapacityUnit,
  shiftStart: "08:30",
  shiftEnd: "18:30",
};

export type RouteSettingsValues = typeof ROUTE_SETTING_DEFAULTS;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** 'HH:MM' → minutes after midnight. */
export function minutesOfDay(value: string): number {
  const [hours, minutes] = value.split(":").map(Number);
  return hours! * 60 + minutes!;
}

/** Minutes after midnight → 'HH:MM' (wrapping past midnight is not expected: shifts end the same day). */
export function clockTime(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  return `${String(Math.floor(whole / 60) % 24).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`;
}

const clock = (message: string) => z.string(message).trim().regex(HH_MM, message);

export const shiftSchema = z
  .object({
    shiftStart: clock("Ingresa la hora de inicio como HH:MM"),
    shiftEnd: clock("Ingresa la hora de fin como HH:MM"),
  })
  .refine((value) => minutesOfDay(value.shiftEnd) > minutesOfDay(value.shiftStart), {
    message: "El turno debe terminar después de empezar",
    path: ["shiftEnd"],
  });

const capacity = z.coerce
  .number("Ingresa la capacidad del vehículo")
  .int("Ingresa la capacidad como número entero")
  .min(1, "La capacidad debe ser al menos 1")
  .max(20_000, "La capacidad debe ser como máximo 20000");

export const capacityUnitSchema = z.enum(["bidones", "litros"], "Elige bidones o litros");

/** /admin/ajustes, "Rutas": every field required, with a Spanish message each. */
export const routeSettingsSchema = z
  .object({
    depotLabel: z.string().trim().min(1, "Ingresa el nombre del almacén").max(120, "Debe tener como máximo 120 caracteres"),
    depotLat: z.string(),
    depotLng: z.string(),
    serviceMinutes: z.coerce
      .number("Ingresa los minutos por parada")
      .int("Ingresa minutos enteros")
      .min(1, "Al menos 1 minuto")
      .max(120, "Como máximo 120 minutos"),
    detourFactor: z.coerce.number("Ingresa el factor de desvío").min(1, "El factor de desvío va de 1 a 3").max(3, "El factor de desvío va de 1 a 3"),
    averageSpeedKmh: z.coerce.number("Ingresa la velocidad promedio").min(5, "La velocidad va de 5 a 80 km/h").max(80, "La velocidad va de 5 a 80 km/h"),
    vanCapacity: capacity,
    vanCapacityUnit: capacityUnitSchema,
    shiftStart: z.string(),
    shiftEnd: z.string(),
  })
  .transform((value, context) => {
    const depot = limaPointSchema.safeParse({ lat: value.depotLat, lng: value.depotLng });
    if (!depot.success) context.addIssue({ code: "custom", path: ["depot"], message: depot.error.issues[0]?.message ?? "Ubicación no válida" });
    const shift = shiftSchema.safeParse(value);
    if (!shift.success) for (const issue of shift.error.issues) context.addIssue({ code: "custom", path: issue.path, message: issue.message });
    if (!depot.success || !shift.success) return z.NEVER;
    return {
      depotLabel: value.depotLabel,
      depotLat: depot.data.lat,
      depotLng: depot.data.lng,
      serviceMinutes: value.serviceMinutes,
      detourFactor: value.detourFactor,
      averageSpeedKmh: value.averageSpeedKmh,
      vanCapacity: value.vanCapacity,
      vanCapacityUnit: value.vanCapacityUnit,
      shiftStart: shift.data.shiftStart,
      shiftEnd: shift.data.shiftEnd,
    } satisfies RouteSettingsValues;
  });

/** One van of Despacho's "Optimizar rutas" form. */
export const vanSchema = z
  .object({ driverId: z.string().min(1).max(200), capacity, capacityUnit: capacityUnitSchema, shiftStart: z.string(), shiftEnd: z.string() })
  .transform((value, context) => {
    const shift = shiftSchema.safeParse(value);
    if (!shift.success) {
      for (const issue of shift.error.issues) context.addIssue({ code: "custom", path: issue.path, message: issue.message });
      return z.NEVER;
    }
    return { ...value, ...shift.data };
  });

/** A van's capacity in litres, the unit loads are counted in. */
export function capacityInLitres(van: { capacity: number; capacityUnit: string }): number {
  return van.capacityUnit === "litros" ? van.capacity : van.capacity * LITRES_PER_BIDON;
}
