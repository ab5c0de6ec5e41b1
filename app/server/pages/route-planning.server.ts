import { data, redirect, type RouterContextProvider } from "react-router";
import {
  DispatchRefusedError,
  MAX_VANS,
  optimiseRoutes,
  saveRouteSettings,
  type RouteOptimisationResult,
  type VanShift,
} from "@server/deliveries/index.server";
import { RoutingEngineError } from "@server/routing/index.server";
import { routeSettingsSchema, vanSchema } from "@core/route-schemas";
import { isPlainLine } from "@core/input-schemas";
import type { VanFormValues } from "~/components/admin/route-planning";
import { dbContext } from "../db-context.server";
import { staffActor } from "../staff.server";

type OptimiseAnswer = { ok: boolean; message: string; vans?: VanFormValues; optimisation?: RouteOptimisationResult };

/** What the form posted per driver, kept for a refusal (the form shows it again). */
function typedVans(form: FormData): VanFormValues {
  const selected = new Set(form.getAll("vans").map(String));
  const typed: VanFormValues = {};
  for (const key of form.keys()) {
    const match = /^capacidad-(.{1,200})$/.exec(key);
    if (!match) continue;
    const id = match[1]!;
    const text = (name: string) => String(form.get(`${name}-${id}`) ?? "").slice(0, 40);
    typed[id] = { selected: selected.has(id), capacity: text("capacidad"), unit: text("unidad"), start: text("inicio"), end: text("fin") };
  }
  return typed;
}

/**
 * Despacho's "Optimizar rutas" (issue 26): the chosen vans with their capacity and shift, checked
 * field by field with Spanish messages, then the deliveries domain plans the day. The page's key
 * makes a repeated post (double click, reload) the same run.
 */
export async function optimiseAction({
  form,
  date,
  context,
  request,
}: {
  form: FormData;
  date: string;
  context: Readonly<RouterContextProvider>;
  request: Request;
}) {
  const vans = typedVans(form);
  const refuse = (message: string, status = 400) => data<OptimiseAnswer>({ ok: false, message, vans }, { status });
  const key = String(form.get("clave") ?? "");
  if (!/^[0-9a-f-]{36}$/i.test(key)) return refuse("Recarga la página e inténtalo de nuevo.");
  const chosen = [...new Set(form.getAll("vans").map(String))];
  if (chosen.length === 0) return refuse("Elige al menos un repartidor para optimizar.");
  if (chosen.length > MAX_VANS) return refuse(`Elige como máximo ${MAX_VANS} repartidores a la vez.`);
  const shifts: VanShift[] = [];
  for (const driverId of chosen) {
    if (!isPlainLine(driverId) || driverId.length > 200) return refuse("Elige repartidores de la lista.");
    const typed = vans[driverId];
    const parsed = vanSchema.safeParse({
      driverId,
      capacity: typed?.capacity,
      capacityUnit: typed?.unit,
      shiftStart: typed?.start,
      shiftEnd: typed?.end,
    });
    if (!parsed.success) return refuse(parsed.error.issues[0]?.message ?? "Revisa los datos del vehículo.");
    shifts.push(parsed.data);
  }
  try {
    const { result, repeated } = await optimiseRoutes(context.get(dbContext), staffActor(context, request), {
      date,
      vans: shifts,
      requestKey: key,
      now: new Date(),
    });
    const placed = result.routes.reduce((sum, route) => sum + route.stops, 0);
    const message = repeated
      ? "Esta optimización ya se hizo (doble clic); estas son sus rutas."
      : `Rutas optimizadas: ${placed} ${placed === 1 ? "parada asignada" : "paradas asignadas"}` +
        (result.unassigned.length ? `, ${result.unassigned.length} sin ruta (ver motivos).` : ".");
    return { ok: true, message, optimisation: result };
  } catch (error) {
    if (error instanceof DispatchRefusedError) return refuse(error.message, 409);
    // ROUTING_URL's VROOM server down, slow or refusing: nothing was written; staff may press again.
    if (error instanceof RoutingEngineError) {
      console.warn(`Optimizar rutas: ${error.message}`);
      return refuse("No se pudo optimizar: el servidor de rutas no respondió. No se cambió ninguna ruta; inténtalo de nuevo en unos minutos.", 502);
    }
    throw error;
  }
}

/** The route settings' fields as the form names them, kept for a refusal. */
const ROUTE_SETTING_FIELDS = [
  "depotLabel",
  "depotLat",
  "depotLng",
  "serviceMinutes",
  "detourFactor",
  "averageSpeedKmh",
  "vanCapacity",
  "vanCapacityUnit",
  "shiftStart",
  "shiftEnd",
] as const;

/**
 * /admin/ajustes, "Rutas" (issue 26, admin only like the page): the depot, the time per stop, the
 * travel-time model and the vans' defaults, each field with its Spanish message.
 */
export async function routeSettingsAction({ form, context, request }: { form: FormData; context: Readonly<RouterContextProvider>; request: Request }) {
  const typed = Object.fromEntries(ROUTE_SETTING_FIELDS.map((name) => [name, String(form.get(name) ?? "").slice(0, 120)]));
  const parsed = routeSettingsSchema.safeParse(typed);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? "form")] ??= issue.message;
    return data({ intent: "routes" as const, error: "Revisa los campos marcados.", fieldErrors, typed }, { status: 400 });
  }
  await saveRouteSettings(context.get(dbContext), staffActor(context, request), { values: parsed.data, now: new Date() });
  throw redirect("/admin/ajustes?guardado=rutas");
}
