/**
 * Peruvian identity documents and phone numbers, checked the same way in the browser and on the
 * server. Formats: DNI 8 digits; carné de extranjería 9 digits (older cards 8–12 letters and
 * digits); passport 6–12 letters and digits; RUC 11 digits starting 10, 15, 16, 17 or 20 with its
 * check digit; mobile numbers 9 digits starting with 9, optionally written with +51.
 */
export type DocumentType = "dni" | "ce" | "pasaporte";

export const documentTypeLabels: Record<DocumentType, string> = {
  dni: "DNI",
  ce: "Carné de extranjería",
  pasaporte: "Pasaporte",
};

export function documentNumberError(type: DocumentType, value: string): string | null {
  const number = value.trim().toUpperCase();
  if (!number) return "Ingresa tu número de documento";
  if (type === "dni" && !/^\d{8}$/.test(number)) return "El DNI debe tener 8 dígitos";
  if (type === "ce" && !/^[A-Z0-9]{8,12}$/.test(number)) return "El carné de extranjería debe tener entre 8 y 12 letras o números";
  if (type === "pasaporte" && !/^[A-Z0-9]{6,12}$/.test(number)) return "El pasaporte debe tener entre 6 y 12 letras o números";
  return null;
}

/** Digits only, without the +51 country code: '987654321'. */
export function normalizePeruvianMobile(value: string): string {
  const digits = value.replace(/[\s()-]/g, "").replace(/^\+?51(?=9\d{8}$)/, "");
  return digits;
}

export function isPeruvianMobile(value: string): boolean {
  return /^9\d{8}$/.test(normalizePeruvianMobile(value));
}

/** SUNAT's RUC check digit (módulo 11). */
export function isValidRuc(value: string): boolean {
  if (!/^(10|15|16|17|20)\d{9}$/.test(value)) return false;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((total, weight, index) => total + weight * Number(value[index]), 0);
  const check = (11 - (sum % 11)) % 10;
  return check === Number(value[10]);
}
