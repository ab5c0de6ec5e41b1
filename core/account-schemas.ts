/**
 * Account forms, validated by the same zod schemas in the browser and again in the actions
 * (spec §5, §8; decisions.md: the account password change uses the reset form's rules).
 */
import { z } from "./zod";
import { emailAddress, INVALID_EMAIL } from "./email-address";
import { coercedInt32Id, isPlainLine, lineText } from "./input-schemas";
export { fieldErrors } from "./checkout-schema";
import { consentCheckbox } from "./promotional-consent";
import { INVALID_POINT, optionalPointFields } from "./geo";
import { documentNumberError, isPeruvianMobile, normalizePeruvianMobile, type DocumentType } from "./documents";

/** The shop's one address rule (core/email-address.ts, issue 24). */
export const emailField = emailAddress("Ingresa tu correo");

/** Spec §5, reset password: the checks in this order, each with its message. */
export const PASSWORD_RULES: ReadonlyArray<{ test: (value: string) => boolean; message: string; hint: string }> = [
  { test: (value) => value.length >= 8, message: "La contraseña debe tener al menos 8 caracteres", hint: "Al menos 8 caracteres" },
  { test: (value) => /[a-záéíóúñü]/.test(value), message: "La contraseña debe contener al menos una letra minúscula", hint: "Una letra minúscula" },
  { test: (value) => /[A-ZÁÉÍÓÚÑÜ]/.test(value), message: "La contraseña debe contener al menos una letra mayúscula", hint: "Una letra mayúscula" },
  { test: (value) => /\d/.test(value), message: "La contraseña debe contener al menos un número", hint: "Un número" },
];

export const PASSWORDS_DIFFER = "Las contraseñas no coinciden";
/** The reset form's hidden token, when it is not one we could have sent (auth-actions says the same). */
const INVALID_RESET_TOKEN = "El enlace de recuperación no es válido o ha expirado.";

/** The first rule a password breaks, or null when it passes all of them. */
export function passwordStrengthError(value: string): string | null {
  return PASSWORD_RULES.find((rule) => !rule.test(value))?.message ?? null;
}

export const strongPassword = z
  .string()
  .max(128, "La contraseña es demasiado larga")
  .refine(isPlainLine, "La contraseña contiene caracteres no permitidos")
  .superRefine((value, context) => {
    const error = passwordStrengthError(value);
    if (error) context.addIssue({ code: "custom", message: error });
  });

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Ingresa tu correo").max(160, INVALID_EMAIL).refine(isPlainLine, INVALID_EMAIL),
  password: z.string().min(1, "Ingresa tu contraseña").max(128, "La contraseña es demasiado larga"),
  remember: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
  redirectTo: z.string().max(2000).optional().catch(undefined),
});

export const INVALID_MOBILE = "Ingresa un celular válido de 9 dígitos que empiece con 9";
export const WHATSAPP_NEEDS_MOBILE = "Ingresa tu celular para recibir avisos por WhatsApp";

/** An optional Peruvian mobile: blank is null; anything else must be 9 digits starting with 9 (+51 allowed), kept as the 9 digits. */
const optionalMobile = lineText(20)
  .trim()
  .optional()
  .transform((value) => value || null)
  .refine((value) => value === null || isPeruvianMobile(value), INVALID_MOBILE)
  .transform((value) => (value ? normalizePeruvianMobile(value) : null));

export const registerSchema = z
  .object({
    firstName: lineText(80).trim().min(1, "Ingresa tu nombre"),
    lastName: lineText(80).trim().min(1, "Ingresa tu apellido"),
    email: emailField,
    password: strongPassword,
    confirmPassword: z.string(),
    /** Issue 12: the separate, unticked promotional-e-mail consent; the account never depends on it. */
    promociones: consentCheckbox,
    /** Issue 25: an optional mobile, needed only with the separate, unticked WhatsApp opt-in. */
    phone: optionalMobile,
    whatsapp: consentCheckbox,
    /** Issue 26: an optional delivery address with its pin, to start the first checkout from. */
    districtId: z.preprocess((value) => (value === "" || value === undefined ? null : value), coercedInt32Id("Elige un distrito de la lista").nullable()),
    address: lineText(200)
      .trim()
      .optional()
      .transform((value) => value || null),
    lat: z.string().max(40).optional(),
    lng: z.string().max(40).optional(),
  })
  .refine((value) => value.password === value.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER })
  .refine((value) => !value.whatsapp || value.phone !== null, { path: ["phone"], message: WHATSAPP_NEEDS_MOBILE })
  .superRefine((value, context) => {
    const point = optionalPointFields.safeParse({ lat: value.lat, lng: value.lng });
    if (!point.success) context.addIssue({ code: "custom", path: ["ubicacion"], message: point.error.issues[0]?.message ?? INVALID_POINT });
  })
  .transform(({ lat, lng, ...value }) => ({ ...value, point: optionalPointFields.parse({ lat, lng }) }));

export const forgotPasswordSchema = z.object({ email: emailField });

/** Decision 0072: the password chosen on the page of an e-mail confirmation link, with the reset form's rules. */
export const choosePasswordSchema = z
  .object({ password: strongPassword, confirmPassword: z.string() })
  .refine((value) => value.password === value.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1, INVALID_RESET_TOKEN).max(200, INVALID_RESET_TOKEN).refine(isPlainLine, INVALID_RESET_TOKEN),
    password: strongPassword,
    confirmPassword: z.string(),
  })
  .refine((value) => value.password === value.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Por favor, completa todos los campos"),
    newPassword: z.string().min(1, "Por favor, completa todos los campos").pipe(strongPassword),
    confirmPassword: z.string().min(1, "Por favor, completa todos los campos"),
  })
  .refine((value) => value.newPassword === value.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

const optionalText = (max: number) =>
  lineText(max)
    .trim()
    .optional()
    .transform((value) => value || null);

export const NAMES_REQUIRED = "El nombre y apellido son obligatorios";

export const profileSchema = z
  .object({
    firstName: lineText(80).trim().min(1, NAMES_REQUIRED),
    lastName: lineText(80).trim().min(1, NAMES_REQUIRED),
    phone: optionalText(20).refine((value) => value === null || isPeruvianMobile(value), INVALID_MOBILE),
    /** Issue 25: the WhatsApp opt-in box of the profile, for the profile's phone. */
    whatsapp: consentCheckbox,
    documentType: z
      .enum(["dni", "ce", "pasaporte"], { message: "Selecciona un tipo de documento" })
      .optional()
      .or(z.literal("").transform(() => undefined)),
    documentNumber: optionalText(20),
    districtId: z.preprocess((value) => (value === "" || value === undefined ? null : value), coercedInt32Id("Elige un distrito de la lista").nullable()),
    address: optionalText(200),
    /** Issue 26: the address's optional pin, from the map's hidden fields. */
    lat: z.string().max(40).optional(),
    lng: z.string().max(40).optional(),
  })
  .superRefine((value, context) => {
    const point = optionalPointFields.safeParse({ lat: value.lat, lng: value.lng });
    if (!point.success) context.addIssue({ code: "custom", path: ["ubicacion"], message: point.error.issues[0]?.message ?? INVALID_POINT });
    if (value.documentNumber && !value.documentType) {
      context.addIssue({ code: "custom", path: ["documentType"], message: "Selecciona un tipo de documento" });
    }
    if (value.documentType && value.documentNumber) {
      const error = documentNumberError(value.documentType as DocumentType, value.documentNumber.toUpperCase());
      if (error) context.addIssue({ code: "custom", path: ["documentNumber"], message: error });
    }
    if (value.whatsapp && !value.phone) context.addIssue({ code: "custom", path: ["phone"], message: WHATSAPP_NEEDS_MOBILE });
  })
  .transform(({ lat, lng, ...value }) => ({
    ...value,
    point: optionalPointFields.parse({ lat, lng }),
    phone: value.phone ? normalizePeruvianMobile(value.phone) : null,
    documentType: value.documentType ?? null,
    documentNumber: value.documentNumber ? value.documentNumber.toUpperCase() : null,
  }));
