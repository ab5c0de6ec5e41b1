/** Subscription statuses as the customer reads them (spec §4: others shown as-is). */
export const subscriptionStatusLabels: Record<string, string> = {
  pending_payment: "Pendiente de pago",
  active: "Activa",
  paused: "Pausada",
  past_due: "Pago pendiente",
  cancelled: "Cancelada",
};

export function subscriptionStatusLabel(status: string): string {
  return subscriptionStatusLabels[status] ?? status;
}

export function frequencyLabel(frequency: string): string {
  return frequency === "anual" ? "Anual" : "Mensual";
}
