/** What Despacho's forms post (issue 10), validated before any query runs. */
import { isIsoDate } from "@core/lima-dates";
import { isPlainLine, isUuid } from "@core/input-schemas";
import { z } from "@core/zod";

const selectedIds = z.array(z.string().refine(isUuid, "La selección no es válida. Recarga la página.")).min(1, "Selecciona al menos un envío.");

export const dispatchActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("preparar"), ids: selectedIds }),
  z.object({
    intent: z.literal("asignar"),
    ids: selectedIds,
    repartidor: z.string("Elige un repartidor.").min(1, "Elige un repartidor.").max(200).refine(isPlainLine, "Elige un repartidor."),
  }),
  z.object({
    intent: z.literal("reprogramar"),
    ids: selectedIds,
    nuevaFecha: z.string("Elige la nueva fecha.").refine(isIsoDate, "Elige la nueva fecha."),
    nuevoHorario: z.enum(["manana", "tarde"], "Elige un horario de entrega."),
  }),
]);

/** The values typed in the bulk form, returned with a refusal so the form keeps them. */
export function dispatchFormValues(form: FormData) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.slice(0, 200) : "";
  };
  return {
    ids: form.getAll("ids").filter((value): value is string => typeof value === "string" && isUuid(value)),
    repartidor: text("repartidor"),
    nuevaFecha: text("nuevaFecha"),
    nuevoHorario: text("nuevoHorario"),
  };
}

/** Moving one stop of a route sheet up or down; `posicion` is where the sheet showed it (1-based). */
export const moveStopSchema = z.object({
  intent: z.enum(["subir", "bajar"], "La acción no es válida."),
  envio: z.string().refine(isUuid, "La parada no es válida."),
  posicion: z.coerce.number().int().min(1).max(100_000),
});

/** `?fecha=` of the dispatch pages: absent means today in Lima; anything else must be a real date. */
export function dispatchDateParam(value: string | null, today: string): string | null {
  if (value === null || value === "") return today;
  return isIsoDate(value) ? value : null;
}
