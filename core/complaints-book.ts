/**
 * The Libro de Reclamaciones' sheet (Ley 29571 arts. 150–152; D.S. 011-2011-PCM Anexo I, as
 * amended): its fields, the legal definitions of reclamo and queja, the legends every sheet
 * carries, and the form's checks with Spanish messages. The page, the PDF and the e-mail all read
 * these, so the three copies say the same thing (docs/decisions/0043-libro-de-reclamaciones.md).
 */
import { z } from "./zod";
import { emailField } from "./account-schemas";
import { documentNumberError, type DocumentType } from "./documents";
import { CONTROL_CHARACTERS, isPlainLine, isPlainText } from "./input-schemas";

export const COMPLAINT_KINDS = ["reclamo", "queja"] as const;
export type ComplaintKind = (typeof COMPLAINT_KINDS)[number];

export const COMPLAINT_KIND_LABELS: Record<ComplaintKind, string> = { reclamo: "Reclamo", queja: "Queja" };

/** The definitions the official sheet prints next to each box. */
export const COMPLAINT_KIND_DEFINITIONS: Record<ComplaintKind, string> = {
  reclamo: "Disconformidad relacionada a los productos o servicios.",
  queja: "Disconformidad no relacionada a los productos o servicios; o malestar o descontento respecto a la atención al público.",
};

export const GOOD_TYPES = ["producto", "servicio"] as const;
export type GoodType = (typeof GOOD_TYPES)[number];
export const GOOD_TYPE_LABELS: Record<GoodType, string> = { producto: "Producto", servicio: "Servicio" };

/** The legends every sheet carries (reference: peru-consumer.md). */
export const COMPLAINT_LEGENDS = [
  "La formulación del reclamo no impide acudir a otras vías de solución de controversias ni es requisito previo para interponer una denuncia ante el INDECOPI.",
  "El proveedor deberá dar respuesta al reclamo o queja en un plazo no mayor a quince (15) días hábiles improrrogables.",
] as const;

/** "N° 000000001-2026": nine digits and the year, as Anexo I numbers sheets. */
export function formatComplaintNumber(year: number, number: number): string {
  return `${String(number).padStart(9, "0")}-${year}`;
}

export const COMPLAINT_DOCUMENT_TYPES = ["dni", "ce", "pasaporte"] as const satisfies readonly DocumentType[];

const ORDER_NUMBER = /^VA-\d{6,9}$/;
const PHONE = /^\+?[\d\s()-]{6,20}$/;

const required = (max: number, empty: string, tooLong: string) => z.string().trim().min(1, empty).max(max, tooLong).refine(isPlainLine, CONTROL_CHARACTERS);
const requiredText = (min: number, max: number, empty: string, short: string, tooLong: string) =>
  z.string().trim().min(1, empty).min(min, short).max(max, tooLong).refine(isPlainText, CONTROL_CHARACTERS);
const optionalLine = (max: number, tooLong: string) => z.string().trim().max(max, tooLong).refine(isPlainLine, CONTROL_CHARACTERS);

/** Soles as typed ("120", "120.50", "120,5") → céntimos; null when empty; NaN when unreadable. */
export function parseClaimedAmount(value: string): number | null {
  const text = value.trim().replace(/^S\/\s*/i, "");
  if (text === "") return null;
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(text);
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/**
 * The form as posted (every value a string; checkboxes "on" or absent). A sheet without name,
 * document, address, e-mail or detail counts as not filed, so those are required; a minor's sheet
 * also needs the parent's or guardian's name and document.
 */
export const complaintFormSchema = z.object({
  consumerNames: required(120, "Ingresa tus nombres", "Tus nombres pueden tener hasta 120 caracteres"),
  consumerSurnames: required(120, "Ingresa tus apellidos", "Tus apellidos pueden tener hasta 120 caracteres"),
  documentType: z.enum(COMPLAINT_DOCUMENT_TYPES, { message: "Selecciona un tipo de documento" }),
  documentNumber: optionalLine(20, "El número de documento es demasiado largo"),
  address: required(200, "Ingresa tu domicilio", "El domicilio puede tener hasta 200 caracteres"),
  phone: optionalLine(20, "Ingresa un teléfono válido").refine((value) => value === "" || PHONE.test(value), "Ingresa un teléfono válido"),
  email: emailField,
  isMinor: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
  guardianName: optionalLine(200, "El nombre puede tener hasta 200 caracteres"),
  guardianDocumentType: z.enum(COMPLAINT_DOCUMENT_TYPES).optional().catch(undefined),
  guardianDocumentNumber: optionalLine(20, "El número de documento es demasiado largo"),
  goodType: z.enum(GOOD_TYPES, { message: "Elige si es un producto o un servicio" }),
  claimedAmount: optionalLine(20, "Ingresa un monto válido, por ejemplo 45.50").refine((value) => {
    const cents = parseClaimedAmount(value);
    return cents === null || Number.isFinite(cents);
  }, "Ingresa un monto válido, por ejemplo 45.50"),
  goodDescription: requiredText(
    3,
    500,
    "Describe el producto o servicio",
    "Describe el producto o servicio",
    "La descripción puede tener hasta 500 caracteres",
  ),
  orderNumber: optionalLine(20, "El número de pedido no es válido")
    .transform((value) => value.toUpperCase())
    .refine((value) => value === "" || ORDER_NUMBER.test(value), "El número de pedido tiene la forma VA-001234"),
  kind: z.enum(COMPLAINT_KINDS, { message: "Elige si es un reclamo o una queja" }),
  detail: requiredText(
    10,
    3000,
    "Escribe el detalle de tu reclamo o queja",
    "Cuéntanos un poco más (al menos 10 caracteres)",
    "El detalle puede tener hasta 3000 caracteres",
  ),
  consumerRequest: requiredText(3, 2000, "Escribe qué solicitas", "Escribe qué solicitas", "El pedido puede tener hasta 2000 caracteres"),
});

export type ComplaintForm = z.infer<typeof complaintFormSchema>;

/** The document checks that depend on another field, run even when other fields are wrong, so every message shows at once. */
function documentErrors(raw: Record<string, unknown>): Record<string, string> {
  const text = (name: string) => (typeof raw[name] === "string" ? (raw[name] as string) : "");
  const isDocumentType = (value: string): value is DocumentType => (COMPLAINT_DOCUMENT_TYPES as readonly string[]).includes(value);
  const errors: Record<string, string> = {};
  const documentType = text("documentType");
  if (isDocumentType(documentType)) {
    const problem = documentNumberError(documentType, text("documentNumber"));
    if (problem) errors.documentNumber = problem;
  }
  if (raw.isMinor === "on" || raw.isMinor === "true" || raw.isMinor === true) {
    if (text("guardianName").trim() === "") errors.guardianName = "Ingresa el nombre de tu padre, madre o apoderado";
    const guardianType = text("guardianDocumentType");
    if (!isDocumentType(guardianType)) errors.guardianDocumentType = "Selecciona el tipo de documento de tu padre, madre o apoderado";
    else {
      const problem = documentNumberError(guardianType, text("guardianDocumentNumber"));
      if (problem) errors.guardianDocumentNumber = problem;
    }
  }
  return errors;
}

/** Field → first Spanish message, or the checked sheet. */
export function parseComplaintForm(input: Record<string, unknown>): { ok: true; data: ComplaintForm } | { ok: false; fieldErrors: Record<string, string> } {
  // Every field as text ("" when absent), so a missing field gets its own message, not a generic one.
  const raw: Record<string, unknown> = Object.fromEntries(COMPLAINT_FORM_FIELDS.map((field) => [field, typeof input[field] === "string" ? input[field] : ""]));
  if (input.isMinor === true) raw.isMinor = "on";
  const parsed = complaintFormSchema.safeParse(raw);
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  }
  for (const [field, message] of Object.entries(documentErrors(raw))) errors[field] ??= message;
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
  return { ok: true, data: parsed.data };
}

/** The form's fields, in the order the page shows them (the values kept after a refused post). */
export const COMPLAINT_FORM_FIELDS = [
  "consumerNames",
  "consumerSurnames",
  "documentType",
  "documentNumber",
  "address",
  "phone",
  "email",
  "isMinor",
  "guardianName",
  "guardianDocumentType",
  "guardianDocumentNumber",
  "goodType",
  "claimedAmount",
  "goodDescription",
  "orderNumber",
  "kind",
  "detail",
  "consumerRequest",
] as const;

export type ComplaintFormValues = Partial<Record<(typeof COMPLAINT_FORM_FIELDS)[number], string>>;

/** What staff type as the answer (section 4 of the sheet). */
export const complaintAnswerSchema = z.object({
  answer: requiredText(10, 5000, "Escribe la respuesta", "La respuesta debe tener al menos 10 caracteres", "La respuesta puede tener hasta 5000 caracteres"),
});
