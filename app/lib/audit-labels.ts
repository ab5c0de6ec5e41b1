/** How the audit page names what was done; an action without a label shows its code (`order.refund`). */
export const staffActionLabels: Record<string, string> = {
  "staff.create": "Alta en el equipo",
  "staff.promote": "Cliente pasa al equipo",
  "staff.role_change": "Cambio de rol",
  "staff.remove": "Sale del equipo (queda como cliente)",
  "staff.deactivate": "Cuenta desactivada",
  "staff.reactivate": "Cuenta reactivada",
  "email.retry": "Reintento de correo",
  "complaint.answer": "Respuesta a hoja de reclamación",
};

export const entityTypeLabels: Record<string, string> = {
  user: "Cuenta",
  order: "Pedido",
  delivery: "Entrega",
  refund: "Reembolso",
  payment: "Pago",
  email: "Correo",
  complaint: "Hoja de reclamación",
};

export function staffActionLabel(action: string): string {
  return staffActionLabels[action] ?? action;
}
