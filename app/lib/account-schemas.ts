/**
 * Account forms, validated by the same zod schemas in the browser and again in the actions
 * (spec §5, §8; decisions.md: the account password change uses the reset form's rules).
 */
import "./zod-without-eval";
import { z } from "zod";
import { EMAIL_PATTERN, INVALID_EMAIL } from "./checkout-schema";
export { fieldErrors } from "./checkout-schema";
import { documentNumberError, isPeruvianMobile, normalizePeruvianMobile, type DocumentType } from "./documents";

const email = z.string().trim().toLowerCase().min(1, "Ingresa tu correo").regex(EMAIL_PATTERN, INVALID_EMAIL).max(160);

/** Spec §5, reset password: the checks in this order, each with its message. */
export const PASSWORD_RULES: ReadonlyArray<{ test: (value: string) => boolean; message: string; hint: string }> = [
  { test: (value) => value.length >= 8, message: "La contraseña debe tener al menos 8 caracteres", hint: "Al menos 8 caracteres" },
  { test: (value) => /[a-záéíóúñü]/.test(value), message: "La contraseña debe contener al menos una letra minúscula", hint: "Una letra minúscula" },
  { test: (value) => /[A-ZÁÉÍÓÚÑÜ]/.test(value), message: "La contraseña debe contener al menos una letra mayúscula", hint: "Una letra mayúscula" },
  { test: (value) => /\d/.test(value), message: "La contraseña debe contener al menos un número", hint: "Un número" },
];

export const PASSWORDS_DIFFER = "Las contraseñas no coinciden";

/** The first rule a password breaks, or null when it passes all of them. */
export function passwordStrengthError(value: string): string | null {
  return PASSWORD_RULES.find((rule) => !rule.test(value))?.message ?? null;
}

const strongPassword = z
  .string()
  .max(128, "La contraseña es demasiado larga")
  .superRefine((value, context) => {
    const error = passwordStrengthError(value);
    if (error) context.addIssue({ code: "custom", message: error });
  });

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Ingresa tu correo"),
  password: z.string().min(1, "Ingresa tu contraseña").max(128),
  remember: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
  redirectTo: z.string().optional(),
});

export const registerSchema = z
  .object({
    firstName: z.string().trim().min(1, "Ingresa tu nombre").max(80),
    lastName: z.string().trim().min(1, "Ingresa tu apellido").max(80),
    email,
    password: strongPassword,
    confirmPassword: z.string(),
  })
  .refine((value) => value.password === value.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({ token: z.string().min(1), password: strongPassword, confirmPassword: z.string() })
  .refine((value) => value.password === value.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Por favor, completa todos los campos"),
    newPassword: z.string().min(1, "Por favor, completa todos los campos").pipe(strongPassword),
    confirmPassword: z.string().min(1, "Por favor, completa todos los campos"),
  })
  .refine((value) => value.newPassword === value.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || null);

export const NAMES_REQUIRED = "El nombre y apellido son obligatorios";

export const profileSchema = z
  .object({
    firstName: z.string().trim().min(1, NAMES_REQUIRED).max(80),
    lastName: z.string().trim().min(1, NAMES_REQUIRED).max(80),
    phone: optionalText(20).refine((value) => value === null || isPeruvianMobile(value), "Ingresa un celular válido de 9 dígitos que empiece con 9"),
    documentType: z.enum(["dni", "ce", "pasaporte"]).optional().or(z.literal("").transform(() => undefined)),
    documentNumber: optionalText(20),
    districtId: z.preprocess((value) => (value === "" || value === undefined ? null : Number(value)), z.number().int().positive().nullable()),
    address: optionalText(200),
  })
  .superRefine((value, context) => {
    if (value.documentNumber && !value.documentType) {
      context.addIssue({ code: "custom", path: ["documentType"], message: "Selecciona un tipo de documento" });
    }
    if (value.documentType && value.documentNumber) {
      const error = documentNumberError(value.documentType as DocumentType, value.documentNumber.toUpperCase());
      if (error) context.addIssue({ code: "custom", path: ["documentNumber"], message: error });
    }
  })
  .transform((value) => ({
    ...value,
    phone: value.phone ? normalizePeruvianMobile(value.phone) : null,
    documentType: value.documentType ?? null,
    documentNumber: value.documentNumber ? value.documentNumber.toUpperCase() : null,
  }));

export type ProfileInput = z.infer<typeof profileSchema>;
