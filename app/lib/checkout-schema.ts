/**
 * The checkout form, validated with the same schema in the browser and again in the server's
 * action (spec §5 and §8 messages). Prices are not part of what the server trusts: lines carry
 * only product, variant and quantity, plus the subtotal the visitor saw, to compare.
 */
import "./zod-without-eval";
import { z } from "zod";
import { documentNumberError, isPeruvianMobile, isValidRuc, normalizePeruvianMobile, type DocumentType } from "./documents";
import { isIsoDate } from "./lima-dates";

export const SHIPPING_INCOMPLETE = "Completa los datos de envío";
export const INVALID_EMAIL = "Ingresa un correo válido";

/** Spec §5: "a simple address pattern". */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const checkoutLineSchema = z.object({
  productId: z.coerce.number().int().positive(),
  variantId: z.coerce.number().int().positive().nullable(),
  quantity: z.coerce.number().int().min(1).max(999),
});

export const checkoutSchema = z
  .object({
    checkoutKey: z.string().uuid(),
    purchaseType: z.enum(["one-time", "subscription"]),
    subscriptionFrequency: z.enum(["mensual", "anual"]),
    nombre: z.string().trim().min(1, "Ingresa tu nombre").max(80),
    apellido: z.string().trim().min(1, "Ingresa tu apellido").max(80),
    correo: z.string().trim().toLowerCase().regex(EMAIL_PATTERN, INVALID_EMAIL).max(160),
    telefono: z
      .string()
      .trim()
      .min(1, "Ingresa tu celular")
      .refine(isPeruvianMobile, "Ingresa un celular válido de 9 dígitos que empiece con 9")
      .transform(normalizePeruvianMobile),
    tipo_documento: z.enum(["dni", "ce", "pasaporte"], { message: "Selecciona un tipo de documento" }),
    dni: z.string().trim().toUpperCase(),
    ruc: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || undefined)
      .refine((value) => value === undefined || isValidRuc(value), "Ingresa un RUC válido de 11 dígitos"),
    razonSocial: z.string().trim().max(160).optional(),
    districtId: z.coerce.number({ message: "Busca tu distrito" }).int().positive("Busca tu distrito"),
    direccion: z.string().trim().min(1, "Ingresa una dirección").max(200),
    referencia: z.string().trim().max(200).optional(),
    diaHabil: z.coerce.number({ message: "Selecciona un día habilitado" }).int().min(1, "Selecciona un día habilitado").max(7, "Selecciona un día habilitado"),
    fecha: z.string().refine(isIsoDate, "Selecciona una fecha"),
    rangoHorario: z.enum(["manana", "tarde"], { message: "Selecciona un rango horario" }),
    /** Subscriptions: the organisation the subscription supports (optional; can be chosen later). */
    organizationId: z.preprocess((value) => (value === "" || value === null || value === undefined ? undefined : Number(value)), z.number().int().positive().optional()),
    items: z.array(checkoutLineSchema).min(1, "Tu carrito está vacío"),
    clientSubtotalCents: z.coerce.number().int().nonnegative(),
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
