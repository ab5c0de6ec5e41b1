import { addDays, formatLimaDate } from "./lima-dates";

/** Spec §4 labels for delivery statuses, shared by the server and the pages. */
export const deliveryStatusLabels: Record<string, string> = {
  pending: "Pendiente",
  preparing: "Preparando",
  scheduled: "Programado",
  shipped: "Enviado",
  in_transit: "En camino",
  delivered: "Entregado",
  // Issue 10: the driver's "No se pudo entregar"; operaciones give it a new date.
  failed: "No entregado",
  cancelled: "Cancelado",
  rescheduled: "Reprogramado",
};

export function deliveryStatusLabel(status: string): string {
  return deliveryStatusLabels[status] ?? "Desconocido";
}

/** Spec §4: upcoming means pending, preparing, shipped, in_transit; the deliveries screen also counts scheduled. */
export const upcomingDeliveryStatuses = ["pending", "preparing", "scheduled", "shipped", "in_transit"] as const;
/** The 'En camino' tab: out of the warehouse, not yet at the door. */
export const inTransitDeliveryStatuses = ["shipped", "in_transit"] as const;

/** The tabs of 'Mis Envíos' (spec §2), in order; `?filter=` picks one, upcoming by default. */
export const deliveryFilters = [
  { value: "upcoming", label: "Próximos" },
  { value: "in_transit", label: "En camino" },
  { value: "delivered", label: "Entregados" },
  { value: "all", label: "Todos" },
] as const;
export type DeliveryFilter = (typeof deliveryFilters)[number]["value"];

export function parseDeliveryFilter(value: string | null): DeliveryFilter {
  return deliveryFilters.find((filter) => filter.value === value)?.value ?? "upcoming";
}

/**
 * Spec §4: an upcoming delivery dated today shows 'Hoy', tomorrow 'Mañana'; anything else its
 * date. `today` is Lima's date (decisions.md), computed once by the server for the page.
 */
export function deliveryDayLabel(delivery: { deliveryDate: string; status: string }, today: string): string {
  const upcoming = (upcomingDeliveryStatuses as readonly string[]).includes(delivery.status);
  if (upcoming && delivery.deliveryDate === today) return "Hoy";
  if (upcoming && delivery.deliveryDate === addDays(today, 1)) return "Mañana";
  return formatDeliveryDate(delivery.deliveryDate);
}

/** 'sábado, 21 de noviembre de 2026' */
export function formatDeliveryDate(isoDate: string): string {
  return formatLimaDate(isoDate, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
}

/** Badge colours: delivered green, failed or cancelled red, on the road blue, anything else amber. */
export function deliveryStatusTone(status: string): string {
  if (status === "delivered") return "bg-green-100 text-green-900";
  if (status === "failed" || status === "cancelled") return "bg-red-100 text-red-900";
  if ((inTransitDeliveryStatuses as readonly string[]).includes(status)) return "bg-sky-100 text-sky-900";
  return "bg-amber-100 text-amber-900";
}

/** The shop delivers with its own staff (no courier), so the schema keeps no carrier column. */
export const DELIVERY_CARRIER = "Reparto propio";

/** Why the driver could not deliver (issue 10, "No se pudo entregar"). */
export const deliveryFailureReasons = [
  { value: "ausente", label: "Cliente ausente" },
  { value: "direccion_errada", label: "Dirección errada" },
  { value: "rechazado", label: "Pedido rechazado" },
  /** Issue 38: an order to be paid at the door whose money was not there. */
  { value: "no_pago", label: "No pagó" },
  { value: "otro", label: "Otro motivo" },
] as const;
export type DeliveryFailureReason = (typeof deliveryFailureReasons)[number]["value"];

export function deliveryFailureReasonLabel(reason: string): string {
  return deliveryFailureReasons.find((candidate) => candidate.value === reason)?.label ?? "Otro motivo";
}

/**
 * Decision 0066: an order whose delivery waits for its paused subscription has no date. What the
 * customer reads (receipt, account, e-mail): it comes once the pause ends, on its last day at the latest.
 */
export function pausedDeliveryNote(pausedUntil: string | null): string {
  return pausedUntil
    ? `En pausa hasta el ${formatLimaDate(pausedUntil, { day: "numeric", month: "long", year: "numeric" })}: la entregaremos cuando se reanude tu suscripción`
    : "En pausa: la entregaremos cuando se reanude tu suscripción";
}

/** The same for staff (order page). */
export function pausedDeliveryStaffNote(pausedUntil: string | null): string {
  return pausedUntil
    ? `Suscripción en pausa hasta el ${formatLimaDate(pausedUntil, { day: "numeric", month: "short", year: "numeric" })}`
    : "Suscripción en pausa";
}

/** The staff CSV's "Fecha de entrega" cell: text, so no spreadsheet takes it for a date; the pause's last day as ISO, like the other dates. */
export function pausedDeliveryCsvCell(pausedUntil: string | null): string {
  return pausedUntil ? `En pausa hasta ${pausedUntil}` : "En pausa";
}
