/**
 * The checkout form, validated with the same schema in the browser and again in the server's
 * action (spec §5 and §8 messages). Prices are not part of what the server trusts: lines carry
 * only product, variant and quantity, plus the subtotal the visitor saw, to compare.
 */
import { z } from "./zod";
import { coercedInt32Id, isPlainText, lineText, CONTROL_CHARACTERS } from "./input-schemas";
import { documentNumberError, isPeruvianMobile, isValidRuc, normalizePeruvianMobile, type DocumentType } from "./documents";
import { isIsoDate } from "./lima-dates";
import { consentCheckbox } from "./promotional-consent";
import { emailAddress } from "./email-address";
import { optionalPointFields } from "./geo";
import { solesToCents } from "./catalog-schemas";
import { DEFAULT_DELIVERY_CADENCE, deliveryCadences } from "./delivery-cadence";

export const SHIPPING_INCOMPLETE = "Completa los datos de envío";

/**
 * What one household order can hold (decision 0027-malformed-input): the cart never has two lines
 * of the same product and variant, and these bounds are far above any real order while keeping a
 * crafted one (thousands of units repeated over many lines) from being accepted.
 */
export const MAX_ORDER_LINES = 30;
export const MAX_ORDER_UNITS = 999;
export const TOO_MANY_LINES = `Tu pedido puede tener como máximo ${MAX_ORDER_LINES} productos distintos`;
export const TOO_MANY_UNITS = `Tu pedido puede tener como máximo ${MAX_ORDER_UNITS} unidades en total`;

export const checkoutLineSchema = z.object({
  productId: coercedInt32Id("Producto no válido"),
  variantId: coercedInt32Id("Producto no válido").nullable(),
  quantity: z.coerce.number().int("Ingresa una cantidad entera").min(1, "La cantidad mínima es 1").max(MAX_ORDER_UNITS, TOO_MANY_UNITS),
});

export type CheckoutLine = z.infer<typeof checkoutLineSchema>;

/** Repeated lines of the same product and variant become one, so caps apply to what is bought. */
export function mergeOrderLines(lines: CheckoutLine[]): CheckoutLine[] {
  const merged = new Map<string, CheckoutLine>();
  for (const line of lines) {
    const key = `${line.productId}:${line.variantId ?? ""}`;
    const existing = merged.get(key);
    merged.set(key, existing ? { ...existing, quantity: existing.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/** An order's lines: merged, at most MAX_ORDER_LINES of them and MAX_ORDER_UNITS units in all. */
export const orderLinesSchema = z
  .array(checkoutLineSchema)
  .min(1, "Tu carrito está vacío")
  .max(MAX_ORDER_LINES, TOO_MANY_LINES)
  .transform(mergeOrderLines)
  .refine((lines) => lines.reduce((sum, line) => sum + line.quantity, 0) <= MAX_ORDER_UNITS, TOO_MANY_UNITS);

export const checkoutSchema = z
  .object({
    checkoutKey: z.string().uuid("Recarga la página e inténtalo de nuevo"),
    purchaseType: z.enum(["one-time", "subscription"], { message: "Elige el tipo de compra" }),
    subscriptionFrequency: z.enum(["mensual", "anual"], { message: "Elige la frecuencia de tu suscripción" }),
    /** Issue 41 (decision 0097): how often a subscription's deliveries come. Absent: monthly, as before. */
    deliveryCadence: z.enum(deliveryCadences, { message: "Elige cada cuánto quieres tus entregas" }).default(DEFAULT_DELIVERY_CADENCE),
    nombre: lineText(80).trim().min(1, "Ingresa tu nombre"),
    apellido: lineText(80).trim().min(1, "Ingresa tu apellido"),
    // Spec §5's "simple address pattern", made strict (issue 24): the shop's one rule.
    correo: emailAddress(),
    telefono: lineText(40)
      .trim()
      .min(1, "Ingresa tu celular")
      .refine(isPeruvianMobile, "Ingresa un celular válido de 9 dígitos que empiece con 9")
      .transform(normalizePeruvianMobile),
    tipo_documento: z.enum(["dni", "ce", "pasaporte"], { message: "Selecciona un tipo de documento" }),
    dni: lineText(40).trim().toUpperCase(),
    ruc: lineText(40)
      .trim()
      .optional()
      .transform((value) => value || undefined)
      .refine((value) => value === undefined || isValidRuc(value), "Ingresa un RUC válido de 11 dígitos"),
    razonSocial: lineText(160).trim().optional(),
    districtId: coercedInt32Id("Busca tu distrito"),
    direccion: lineText(200).trim().min(1, "Ingresa una dirección"),
    referencia: z.string().max(200).refine(isPlainText, CONTROL_CHARACTERS).trim().optional(),
    /** Issue 26: the address's pin on the map, optional (the district's centre stands in without it). */
    ubicacion: optionalPointFields.nullish().transform((point) => point ?? null),
    diaHabil: z.coerce.number({ message: "Selecciona un día habilitado" }).int().min(1, "Selecciona un día habilitado").max(7, "Selecciona un día habilitado"),
    fecha: z.string().max(10, "Selecciona una fecha").refine(isIsoDate, "Selecciona una fecha"),
    rangoHorario: z.enum(["manana", "tarde"], { message: "Selecciona un rango horario" }),
    /** Subscriptions: the organisation the subscription supports (optional; can be chosen later). */
    organizationId: z.preprocess(
      (value) => (value === "" || value === null || value === undefined ? undefined : Number(value)),
      coercedInt32Id("Elige una organización de la lista").optional(),
    ),
    items: orderLinesSchema,
    /**
     * Issue 41: "Ya tienes la suscripción SUS-… · ¿Quieres otra?" ticked. A customer with a live
     * subscription gets a second one only with it (the server checks, whatever the page showed).
     */
    otraSuscripcion: consentCheckbox,
    /** Issue 12: the separate, unticked promotional-e-mail consent; the order never depends on it. */
    promociones: consentCheckbox,
    /** Issue 25: the separate, unticked WhatsApp opt-in for this order's number (`telefono`). */
    whatsapp: consentCheckbox,
    /** Issue 38: pay online (card, Yape, codes) or at the door. Absent: online, as before. */
    formaPago: z.enum(["en_linea", "contra_entrega"], { message: "Elige cómo pagas" }).default("en_linea"),
    metodoContraEntrega: z.enum(["efectivo", "yape"], { message: "Elige efectivo o Yape" }).default("efectivo"),
    /**
     * "¿Con cuánto pagas?" in soles as typed (efectivo only, optional): the driver brings the change.
     * Kept as text, so the parsed form can be posted and parsed again; the server reads it with
     * `paysWithCents` and checks it is at least what is collected.
     */
    pagaCon: lineText(20)
      .trim()
      .optional()
      .transform((value) => value || undefined)
      .refine((value) => value === undefined || (solesToCents(value) ?? 0) > 0, "Escribe el monto en soles, por ejemplo 100"),
    clientSubtotalCents: z.coerce.number().int("Carrito inválido").nonnegative("Carrito inválido").max(Number.MAX_SAFE_INTEGER, "Carrito inválido"),
  })
  .superRefine((value, context) => {
    const error = documentNumberError(value.tipo_documento as DocumentType, value.dni);
    if (error) context.addIssue({ code: "custom", path: ["dni"], message: error });
    if (value.ruc && !value.razonSocial) {
      context.addIssue({ code: "custom", path: ["razonSocial"], message: "Ingresa la razón social para tu factura" });
    }
  });

export type CheckoutInput = z.infer<typeof checkoutSchema>;

/** Field → first message, the shape forms show next to each input. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The note a contra-entrega cash customer pays with, in céntimos; null when not said (or not cash). */
export function paysWithCents(input: Pick<CheckoutInput, "formaPago" | "metodoContraEntrega" | "pagaCon">): number | null {
  if (input.formaPago !== "contra_entrega" || input.metodoContraEntrega !== "efectivo" || !input.pagaCon) return null;
  return solesToCents(input.pagaCon);
}
