/**
 * "Nuevo pedido" (issue 38, decision 0091): the office types in an order a customer gives by phone
 * or WhatsApp. The form posts plain fields (it works without JavaScript); this module reads them
 * into what the server checks and the page shows again after a refusal, everything as typed. Prices
 * and totals are never read from the form: the server prices every line itself.
 */
import { isPlainText } from "./input-schemas";
import { isIsoDate } from "./lima-dates";
import type { DeliveryWindow } from "./delivery-schedule";

/** How the customer pays: at the door, by a link the shop sends them, or with a code staff dictate. */
export const STAFF_PAYMENT_CHOICES = ["contra_entrega", "link", "codigo"] as const;
export type StaffPaymentChoice = (typeof STAFF_PAYMENT_CHOICES)[number];

export const STAFF_PAYMENT_LABELS: Record<StaffPaymentChoice, string> = {
  contra_entrega: "Contra entrega",
  link: "Enviar link de pago",
  codigo: "Código de pago",
};

export const DOOR_METHODS = ["efectivo", "yape"] as const;

/** The address radio's value for "type a new one". */
export const NEW_ADDRESS = "nueva";

/** The consent boxes' labels (decision 0091): what the customer said on the phone, recorded as such. */
export const PHONE_PROMOTIONS_LABEL = "Acepta recibir promociones por e-mail (lo dijo por teléfono)";
export const PHONE_WHATSAPP_LABEL = "Acepta avisos por WhatsApp (lo dijo por teléfono)";

/** The shortest reason staff may give for placing an order in a full window. */
export const OVERRIDE_REASON_MIN = 5;
export const OVERRIDE_REASON_MAX = 300;

/** A sellable line's key in the form: `<productId>:<variantId or 0>`. */
export function lineKey(line: { productId: number; variantId: number | null }): string {
  return `${line.productId}:${line.variantId ?? 0}`;
}

/** The quantity field of a line: `cantidad:<productId>:<variantId or 0>`. */
export const quantityField = (key: string) => `cantidad:${key}`;

/** A delivery slot's radio value: `<YYYY-MM-DD>|<window>`. */
export const slotValue = (date: string, window: string) => `${date}|${window}`;

export function parseSlot(value: string): { date: string; window: DeliveryWindow } | null {
  const [date, window, extra] = value.split("|");
  if (extra !== undefined || !date || !isIsoDate(date) || (window !== "manana" && window !== "tarde")) return null;
  return { date, window };
}

/** The form as typed: every field a string, so a refused form shows exactly what was sent. */
export interface StaffOrderValues {
  checkoutKey: string;
  cliente: string;
  nombre: string;
  apellido: string;
  correo: string;
  telefono: string;
  tipo_documento: string;
  dni: string;
  ruc: string;
  razonSocial: string;
  /** A caller's address key, or NEW_ADDRESS. */
  direccionElegida: string;
  districtId: string;
  direccion: string;
  referencia: string;
  /** The pin as "lat, lng" (typed, pasted or set by the map), or empty. */
  coordenadas: string;
  /** `slotValue(date, window)`. */
  horario: string;
  motivoSobrecupo: string;
  pago: string;
  metodoContraEntrega: string;
  pagaCon: string;
  promociones: boolean;
  whatsapp: boolean;
  /** Quantities by line key, as typed. */
  cantidades: Record<string, string>;
}

const TEXT_FIELDS = [
  "checkoutKey",
  "cliente",
  "nombre",
  "apellido",
  "correo",
  "telefono",
  "tipo_documento",
  "dni",
  "ruc",
  "razonSocial",
  "direccionElegida",
  "districtId",
  "direccion",
  "referencia",
  "coordenadas",
  "horario",
  "motivoSobrecupo",
  "pago",
  "metodoContraEntrega",
  "pagaCon",
] as const satisfies readonly (keyof StaffOrderValues)[];

/** Longest a typed field is kept (the schemas refuse long values; this only bounds what is echoed back). */
const FIELD_MAX = 400;

/** Reads the posted fields (a FormData's entries); a box counts as ticked when posted as "on". */
export function readStaffOrderValues(entries: Iterable<[string, FormDataEntryValue | string]>): StaffOrderValues {
  const values: Record<string, string> = {};
  const cantidades: Record<string, string> = {};
  let promociones = false;
  let whatsapp = false;
  for (const [name, raw] of entries) {
    if (typeof raw !== "string") continue;
    const value = raw.slice(0, FIELD_MAX);
    if (name.startsWith("cantidad:")) {
      const key = name.slice("cantidad:".length);
      if (/^\d{1,10}:\d{1,10}$/.test(key)) cantidades[key] = value;
    } else if (name === "promociones") promociones = value === "on";
    else if (name === "whatsapp") whatsapp = value === "on";
    else if ((TEXT_FIELDS as readonly string[]).includes(name)) values[name] ??= value;
  }
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, values[field] ?? ""])) as Record<(typeof TEXT_FIELDS)[number], string>;
  return { ...text, promociones, whatsapp, cantidades };
}

export interface StaffOrderLine {
  productId: number;
  variantId: number | null;
  quantity: number;
}

/** The lines typed (quantities above zero), or the message for a quantity that is not a whole number. */
export function typedLines(cantidades: Record<string, string>): { lines: StaffOrderLine[] } | { error: string } {
  const lines: StaffOrderLine[] = [];
  for (const [key, typed] of Object.entries(cantidades)) {
    const text = typed.trim();
    if (text === "" || text === "0") continue;
    if (!/^\d{1,3}$/.test(text)) return { error: "Escribe cantidades enteras, de 0 a 999" };
    const [productId, variantId] = key.split(":").map(Number) as [number, number];
    if (!productId) continue;
    lines.push({ productId, variantId: variantId === 0 ? null : variantId, quantity: Number(text) });
  }
  return { lines };
}

/**
 * "¿Con cuánto paga?" in soles ("100", "100.50", "S/ 100"), as the contract's `pagaCon` takes it:
 * empty when not said; the checkout's schema checks it covers the total.
 */
export function typedCashAmount(value: string): string | undefined {
  const text = value.replace(/^\s*S\/\s*/i, "").trim();
  return text === "" ? undefined : text;
}

/** The reason for exceeding a full window, or why it is not one (null: fine). */
export function overrideReasonError(reason: string): string | null {
  const text = reason.trim();
  if (text.length < OVERRIDE_REASON_MIN)
    return `Ese horario no tiene cupos: escribe el motivo para pasar el cupo (mínimo ${OVERRIDE_REASON_MIN} letras), o elige otro horario`;
  if (text.length > OVERRIDE_REASON_MAX) return `El motivo puede tener como máximo ${OVERRIDE_REASON_MAX} caracteres`;
  if (!isPlainText(text)) return "El motivo contiene caracteres no permitidos";
  return null;
}

export const COORDINATES_ERROR = "Escribe las coordenadas como -12.121100, -77.029700 (dentro de Lima), o déjalas vacías";

/**
 * "Lo de siempre": the last order's quantities (by line key) for what is still on sale, at today's
 * prices as one-time lines, and the titles of what is not on sale any more.
 */
export function usualQuantities(
  lastOrderLines: readonly { productId: number; variantId: number | null; quantity: number; title: string }[],
  onSale: readonly { productId: number; variantId: number | null }[],
): { quantities: Record<string, string>; missing: string[] } {
  const sold = new Set(onSale.map(lineKey));
  const quantities: Record<string, string> = {};
  const missing: string[] = [];
  for (const line of lastOrderLines) {
    const key = lineKey(line);
    if (sold.has(key)) quantities[key] = String(Number(quantities[key] ?? 0) + line.quantity);
    else missing.push(line.title);
  }
  return { quantities, missing };
}
