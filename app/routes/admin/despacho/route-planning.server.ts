import { data, redirect, type RouterContextProvider } from "react-router";
import {
  applyRoutePlan,
  DispatchRefusedError,
  InfeasibleAnswerError,
  MAX_VANS,
  planRoutes,
  saveRouteSettings,
  type VanShift,
} from "@server/deliveries/index.server";
import { RoutingEngineError } from "@server/routing/index.server";
import { routeSettingsSchema, vanSchema } from "@core/route-schemas";
import { isPlainLine } from "@core/input-schemas";
import type { VanFormValues } from "~/components/admin/route-planning";
import { dbContext } from "~/server/db-context.server";
import { staffActor } from "~/server/staff.server";

/** How Despacho's banner reads: green only for a plan applied, amber for a plan that assigns nothing. */
export type AnswerTone = "success" | "info" | "warning" | "error";
type OptimiseAnswer = { ok: boolean; tone: AnswerTone; message: string; vans?: VanFormValues };

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
 * Despacho's "Optimizar rutas" (issues 26 and 40): the chosen vans with their capacity and shift,
 * checked field by field with Spanish messages, then the deliveries domain computes a plan and keeps
 * it; nothing is written to the routes until "Aplicar plan" (`applyPlanAction`). The page shows the
 * plan from its loader. The page's key makes a repeated post (double click, reload) the same run.
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
  const refuse = (message: string, status = 400) => data<OptimiseAnswer>({ ok: false, tone: "error", message, vans }, { status });
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
    const { run, repeated } = await planRoutes(context.get(dbContext), staffActor(context, request), { date, vans: shifts, requestKey: key, now: new Date() });
    const plan = run.result.plan;
    if (run.status === "applied") return { ok: true, tone: "info" as const, message: "Este plan ya se calculó y se aplicó." };
    if (!plan || plan.placed === 0) {
      return {
        ok: true,
        tone: "warning" as const,
        message:
          "El plan no asigna ninguna parada: con estos vehículos y turnos ninguna entrega cabe (ver motivos). No hay nada que aplicar y no se cambió ninguna ruta.",
        vans,
      };
    }
    const cut = plan.searchCutAtSeconds !== null ? ` Búsqueda cortada a los ${plan.searchCutAtSeconds} s.` : "";
    const message =
      (repeated ? "Este plan ya se calculó (doble clic). " : "") +
      `Plan calculado: ${plan.placed} ${plan.placed === 1 ? "parada" : "paradas"} en ${plan.vans.filter((van) => van.stops.length).length} de ${plan.vans.length} vehículos` +
      (run.result.unassigned.length ? `, ${run.result.unassigned.length} sin ruta` : "") +
      `. Todavía no se cambió ninguna ruta: revísalo y presiona «Aplicar plan».${cut}`;
    return { ok: true, tone: "info" as const, message, vans };
  } catch (error) {
    if (error instanceof DispatchRefusedError) return refuse(error.message, 409);
    // ROUTING_URL's VROOM server down, slow or refusing: nothing was written; staff may press again.
    if (error instanceof RoutingEngineError) {
      console.warn(`Optimizar rutas: ${error.message}`);
      return refuse("No se pudo optimizar: el servidor de rutas no respondió. No se cambió ninguna ruta; inténtalo de nuevo en unos minutos.", 502);
    }
    if (error instanceof InfeasibleAnswerError) {
      return refuse(
        "El servidor de rutas devolvió rutas que no cumplen los horarios, la capacidad o los turnos. No se guardó el plan ni se cambió ninguna ruta; inténtalo de nuevo.",
        502,
      );
    }
    throw error;
  }
}

/**
 * "Aplicar plan" (issue 40): writes the plan shown, with the stops staff ticked to take off their
 * driver's route. Its own key (a fresh one per page) makes a double click one write; a plan whose
 * deliveries changed since it was computed is refused with a message and nothing is written.
 */
export async function applyPlanAction({
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
  const refuse = (message: string, status = 400) => data<OptimiseAnswer>({ ok: false, tone: "error", message }, { status });
  const key = String(form.get("clave") ?? "");
  if (!/^[0-9a-f-]{36}$/i.test(key)) return refuse("Recarga la página e inténtalo de nuevo.");
  const runId = Number(form.get("plan"));
  if (!Number.isSafeInteger(runId) || runId <= 0) return refuse("Vuelve a presionar «Optimizar rutas».");
  const remove = [...new Set(form.getAll("quitar").map(String))].filter((id) => isPlainLine(id) && id.length <= 200).slice(0, 5_000);
  try {
    const { result, repeated } = await applyRoutePlan(context.get(dbContext), staffActor(context, request), {
      runId,
      date,
      applyKey: key,
      remove,
      now: new Date(),
    });
    if (repeated) return { ok: true, tone: "success" as const, message: "Este plan ya se aplicó (doble clic); no se cambió nada más." };
    const placed = result.routes.reduce((sum, route) => sum + route.stops, 0);
    const message =
      `Plan aplicado: ${placed} ${placed === 1 ? "parada asignada" : "paradas asignadas"}, ${result.changed} ${result.changed === 1 ? "cambio" : "cambios"}` +
      (result.unassigned.length ? `; ${result.unassigned.length} sin ruta (ver motivos).` : ".");
    return { ok: true, tone: "success" as const, message };
  } catch (error) {
    if (error instanceof DispatchRefusedError) return refuse(error.message, 409);
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
