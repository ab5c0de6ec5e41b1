/**
 * The /contact form (decisions.md, Routes: a real contact page whose form reaches the staff),
 * validated by the same schema in the action; messages in Spanish.
 */
import { z } from "./zod";
import { emailField } from "./account-schemas";
import { freeText, lineText } from "./input-schemas";

/** A phone anyone in Peru could give: digits with the usual separators, 6 to 15 digits. */
function isPhoneNumber(value: string): boolean {
  if (!/^\+?[\d\s().-]+$/.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 6 && digits <= 15;
}

export const CONTACT_MESSAGE_MAX = 4000;

export const contactMessageSchema = z.object({
  name: lineText(120).trim().min(1, "Ingresa tu nombre"),
  email: emailField,
  phone: lineText(30)
    .trim()
    .optional()
    .transform((value) => value || null)
    .refine((value) => value === null || isPhoneNumber(value), "Ingresa un teléfono válido (solo números)"),
  subject: lineText(150).trim().min(1, "Escribe el asunto"),
  message: freeText(CONTACT_MESSAGE_MAX).trim().min(10, "Cuéntanos un poco más (al menos 10 caracteres)"),
});

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;
