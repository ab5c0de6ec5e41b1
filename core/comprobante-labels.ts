/**
 * Where an electronic comprobante is on its way to SUNAT (decision 0045),
 * as staff read it. The stored values are in server/db/schema/invoices.ts (ELECTRONIC_STATUSES).
 */
export const ELECTRONIC_STATUS_LABELS = {
  pending: "Pendiente",
  sent: "Enviado",
  accepted: "Aceptado",
  observed: "Observado",
  rejected: "Rechazado",
  format_error: "Error de formato",
  local: "Sin validez (local)",
} as const;

export type ComprobanteFilter = keyof typeof ELECTRONIC_STATUS_LABELS | "open" | "all";

/** `?estado=`: a known state, "all", or by default the ones still to send. */
export function parseComprobanteFilter(value: string | null): ComprobanteFilter {
  if (value === "all" || (value !== null && value in ELECTRONIC_STATUS_LABELS)) return value as ComprobanteFilter;
  return "open";
}

/** Not yet final: the sender still works on these, and each has a legal deadline. */
export const OPEN_ELECTRONIC_STATUSES = ["pending", "sent", "format_error"] as const;

export function isOpenElectronicStatus(status: string): boolean {
  return (OPEN_ELECTRONIC_STATUSES as readonly string[]).includes(status);
}
