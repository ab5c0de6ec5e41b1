/** How the audit page names what was done; an action without a label shows its code (`order.refund`). */
export const staffActionLabels: Record<string, string> = {
  "staff.create": "Alta en el equipo",
  "staff.promote": "Cliente pasa al equipo",
  "staff.role_change": "Cambio de rol",
  "staff.remove": "Sale del equipo (queda como cliente)",
  "staff.deactivate": "Cuenta desactivada",
  "staff.reactivate": "Cuenta reactivada",
  "email.retry": "Reintento de correo",
  "contact_message.attend": "Mensaje de contacto atendido",
  "settings.site": "Ajustes del sitio",
  "settings.issuer": "Datos del emisor",
  "legal_text.update": "Nueva versión de texto legal",
  "organization.create": "Organización creada",
  "organization.update": "Organización editada",
  "history.create": "Diapositiva de historia creada",
  "history.update": "Diapositiva de historia editada",
  "history.delete": "Diapositiva de historia eliminada",
  "complaint.answer": "Respuesta a hoja de reclamación",
  "customer.resend_verification": "Reenvío de verificación de correo a un cliente",
  "customer.send_password_reset": "Enlace para restablecer contraseña enviado a un cliente",
  "customer.deactivate": "Cuenta de cliente desactivada",
  "customer.reactivate": "Cuenta de cliente reactivada",
  "customer.export": "Exportación de datos personales (Ley 29733)",
  "customer.anonymize": "Cliente anonimizado (Ley 29733)",
  "guest.export": "Exportación de datos de un comprador invitado (Ley 29733)",
  "guest.anonymize": "Comprador invitado anonimizado (Ley 29733)",
  "person.export": "Exportación de datos de una persona sin compras (Ley 29733)",
  "person.anonymize": "Persona sin compras anonimizada (Ley 29733)",
};

export const entityTypeLabels: Record<string, string> = {
  user: "Cuenta",
  order: "Pedido",
  delivery: "Entrega",
  refund: "Reembolso",
  payment: "Pago",
  email: "Correo",
  contact_message: "Mensaje de contacto",
  settings: "Ajustes",
  legal_text: "Texto legal",
  organization: "Organización",
  history_entry: "Historia",
  complaint: "Hoja de reclamación",
  guest: "Comprador invitado",
  person: "Persona sin compras",
};

export function staffActionLabel(action: string): string {
  return staffActionLabels[action] ?? action;
}
