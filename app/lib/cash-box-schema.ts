/** What /admin/caja's "Registrar rendición" form posts (decision 0060), validated before any query runs. */
import { solesToCents } from "@core/catalog-schemas";
import { freeText, isPlainLine, lineText } from "@core/input-schemas";
import { isIsoDate } from "@core/lima-dates";
import { z } from "@core/zod";

/** More than any day's round could carry: a typo of a few zeros is refused, not recorded. */
export const MAX_HANDOVER_CENTS = 10_000_000;

const AMOUNT_MESSAGE = "Escribe el efectivo contado en soles, por ejemplo 150.50";

export const cashHandoverSchema = z.object({
  driverId: z.string().min(1).max(200).refine(isPlainLine),
  fecha: z.string().refine(isIsoDate, "La fecha no es válida. Recarga la página."),
  monto: lineText(20).transform((value, context) => {
    const cents = solesToCents(value);
    if (cents === null || cents > MAX_HANDOVER_CENTS) {
      context.addIssue({ code: "custom", message: cents === null ? AMOUNT_MESSAGE : "El monto es demasiado alto" });
      return z.NEVER;
    }
    return cents;
  }),
  nota: freeText(500)
    .trim()
    .optional()
    .transform((value) => value || null),
  corrige: z
    .string()
    .regex(/^\d{1,6}$/, "La rendición cambió. Recarga la página.")
    .transform(Number),
});
