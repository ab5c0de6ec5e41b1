/**
 * What staff type on /admin/contenido (issue 11): site settings, the issuer's data, legal texts,
 * organisations and history entries. Spanish messages; the content domain parses with these before
 * any write, so a bad value never reaches the database.
 */
import { isEmailAddress } from "./email-address";
import { isValidRuc } from "./documents";
import { freeText, lineText } from "./input-schemas";
import { z } from "./zod";
import { solesToCents } from "./catalog-schemas";

const required = (min: number, max: number, tooShort: string) => lineText(max).pipe(z.string().min(min, tooShort));

/** Empty means "none"; otherwise a full https address (the footer links open it as is). */
const optionalHttpsUrl = lineText(300)
  .refine((value) => value === "" || /^https:\/\/[^\s/]+\.[^\s]+$/.test(value), "Escribe una dirección que empiece con https://")
  .transform((value) => (value === "" ? null : value));

/**
 * A picture already published with the site (e.g. `/images/organizaciones/logo.png`): the page's
 * security policy loads images from the shop only, and no upload can smuggle anything else in.
 */
export const siteImagePath = lineText(200)
  .refine(
    (value) => value === "" || (/^\/[A-Za-z0-9_\-/.]+\.(svg|png|jpe?g|webp|avif)$/i.test(value) && !value.includes("..") && !value.startsWith("//")),
    "Escribe la ruta de una imagen del sitio, por ejemplo /images/organizaciones/logo.png",
  )
  .transform((value) => (value === "" ? null : value));

/**
 * wa.me wants the number with its country code and nothing else. A Peruvian mobile typed without
 * it (987 654 321) gets 51 in front.
 */
export function normalizeWhatsappNumber(value: string): string {
  const digits = value.replace(/[\s()+.-]/g, "");
  return /^9\d{8}$/.test(digits) ? `51${digits}` : digits;
}

export const siteSettingsSchema = z.object({
  brandName: required(2, 80, "Escribe el nombre de la marca"),
  whatsappNumber: lineText(30)
    .transform(normalizeWhatsappNumber)
    .refine((value) => /^[1-9]\d{7,14}$/.test(value), "Escribe el número de WhatsApp con código de país, por ejemplo 51 987 654 321"),
  whatsappGreeting: required(2, 300, "Escribe el saludo del mensaje de WhatsApp"),
  contactEmail: lineText(200).trim().refine(isEmailAddress, "Escribe un correo válido, por ejemplo hola@tumarca.pe"),
  instagramUrl: optionalHttpsUrl,
  facebookUrl: optionalHttpsUrl,
  tiktokUrl: optionalHttpsUrl,
  closingCtaLabel: required(2, 40, "Escribe el texto del botón final de la portada"),
});
export type SiteSettingsInput = z.infer<typeof siteSettingsSchema>;

/** The issuer's data as SUNAT's Ficha RUC shows it: printed on every comprobante. */
export const issuerSchema = z.object({
  legalName: required(3, 150, "Escribe la razón social"),
  ruc: lineText(20)
    .transform((value) => value.replace(/\s/g, ""))
    .refine(isValidRuc, "El RUC no es válido: deben ser 11 dígitos con su dígito verificador (revisa la Ficha RUC)"),
  fiscalAddress: required(5, 250, "Escribe el domicilio fiscal"),
  phone: lineText(30).refine((value) => /^\+?[\d\s()-]{6,30}$/.test(value), "Escribe un teléfono, por ejemplo +51 987 654 321"),
});
export type IssuerInput = z.infer<typeof issuerSchema>;

/**
 * Repeat business (decisions 0075 and 0076): the "¿Te queda agua?" reminders on or off, and where
 * comprobantes put the bidón garantía (the accountant's answer; VERIFY).
 */
export const repeatSettingsSchema = z.object({
  reorderRemindersEnabled: z.boolean(),
  garantiaComprobanteMode: z.enum(["inafecto", "fuera"], { message: "Elige cómo va la garantía en el comprobante" }),
});

/** Issue 38: pago contra entrega's switch, its maximum (typed in soles), who may use it and the shop's Yape. */
export const doorPaymentSettingsSchema = z.object({
  doorPaymentEnabled: z.boolean(),
  doorPaymentMaxCents: lineText(20).transform((value, context) => {
    const cents = solesToCents(value);
    if (cents === null || cents < 5000 || cents > 1_000_000) {
      context.addIssue({ code: "custom", message: "Escribe un monto en soles entre 50 y 10000, por ejemplo 300" });
      return z.NEVER;
    }
    return cents;
  }),
  doorPaymentCustomers: z.enum(["all", "delivered"], { message: "Elige a quién se ofrece" }),
  doorYapeNumber: lineText(20)
    .trim()
    .transform((value) => value || null)
    .refine((value) => value === null || /^9\d{2} ?\d{3} ?\d{3}$/.test(value), "Escribe el celular de Yape/Plin de la tienda: 9 dígitos que empiezan con 9"),
  /** Issue 40: above this total (soles typed) a contra-entrega delivery needs the photo of the bidones; empty: never. */
  deliveryPhotoRequiredAboveCents: lineText(20)
    .optional()
    .transform((value, context) => {
      const typed = (value ?? "").trim();
      if (typed === "") return null;
      const cents = solesToCents(typed);
      if (cents === null || cents < 0 || cents > 1_000_000) {
        context.addIssue({ code: "custom", message: "Escribe un monto en soles, por ejemplo 200, o déjalo vacío para no pedir foto" });
        return z.NEVER;
      }
      return cents;
    }),
});

export const legalTextSchema = z.object({
  title: required(3, 120, "Escribe el título"),
  html: freeText(100_000).pipe(z.string().trim().min(20, "Escribe el texto (al menos 20 caracteres)")),
});

export const organizationSchema = z.object({
  title: required(2, 120, "Escribe el nombre de la organización"),
  description: freeText(1000).pipe(z.string().trim().min(10, "Escribe la descripción (al menos 10 caracteres)")),
  image: siteImagePath,
  active: z.boolean(),
});

export const historyEntrySchema = z.object({
  title: required(2, 120, "Escribe el título, por ejemplo Marzo 2025"),
  description: freeText(1000).pipe(z.string().trim().min(5, "Escribe la descripción")),
  image: siteImagePath,
  /** Spec's `orden`: empty places the entry after the numbered ones. */
  sortOrder: lineText(6)
    .refine((value) => value === "" || /^\d{1,4}$/.test(value), "Escribe un número de 0 a 9999, o déjalo vacío")
    .transform((value) => (value === "" ? null : Number(value))),
});
