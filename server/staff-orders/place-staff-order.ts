import { checkoutSchema, fieldErrors as checkoutFieldErrors } from "@core/checkout-schema";
import { isoWeekday } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { MINIMUM_ORDER_CENTS } from "@core/pricing";
import { parseCoordinates } from "@core/geo";
import {
  COORDINATES_ERROR,
  DOOR_METHODS,
  NEW_ADDRESS,
  overrideReasonError,
  parseSlot,
  STAFF_PAYMENT_CHOICES,
  typedCashAmount,
  typedLines,
  type StaffOrderValues,
  type StaffPaymentChoice,
} from "@core/staff-order-form";
import type { StaffActor } from "../audit/index.server";
import { priceCartLines } from "../catalog/index.server";
import { placeOrder } from "../checkout/index.server";
import { listServedDistricts } from "../content/index.server";
import { loadCallerPicture, type CallerPicture } from "../customers/index.server";
import type { Database } from "../db/client";
import { offeredDeliverySlots } from "../deliveries/index.server";
import { recordStaffOrderPlaced } from "./staff-order-records";

export interface StaffOrderRefusal {
  ok: false;
  /** The form's field → its Spanish message (`form`: the whole form). */
  fieldErrors: Record<string, string>;
  message: string;
  /** The chosen window filled meanwhile: the page reloads the slots it offers. */
  slotTaken?: boolean;
}

export type StaffOrderResult =
  { ok: true; orderId: string; orderNumber: string; paymentId: string; created: boolean; payment: StaffPaymentChoice } | StaffOrderRefusal;

const CHECK_FIELDS = "Revisa los datos marcados: no se creó ningún pedido.";

/** Where each of the checkout schema's fields is on this form. */
const FORM_FIELD_OF: Record<string, string> = {
  fecha: "horario",
  diaHabil: "horario",
  rangoHorario: "horario",
  ubicacion: "coordenadas",
  formaPago: "pago",
  clientSubtotalCents: "items",
  checkoutKey: "form",
  purchaseType: "form",
  subscriptionFrequency: "form",
  organizationId: "form",
};
const ADDRESS_FIELDS = new Set(["districtId", "direccion", "referencia", "ubicacion"]);

function refused(fieldErrors: Record<string, string>, message = CHECK_FIELDS): StaffOrderRefusal {
  return { ok: false, fieldErrors, message };
}

/**
 * "Crear pedido" on /admin/pedidos/nuevo (issue 38, decision 0091): the office types in an order a
 * customer gives by phone. Everything the checkout checks is checked by the checkout itself: the
 * form becomes a one-time CheckoutInput and goes through `placeOrder` with the staff member as the
 * order history's actor. What the office adds is resolved here first, from the database, never
 * from the form's word: the caller (an account the order will belong to, a guest, or nobody yet),
 * the address chosen from their history, whether the chosen window is full (then a reason is
 * required and the order passes the capacity with it), and the prices (the form carries no price;
 * the subtotal the checkout compares is the catalogue's own). The checkout key makes a double
 * click one order; the audit rows and the consent asks follow the order once (`recordStaffOrderPlaced`).
 */
export async function placeStaffOrder(
  db: Database,
  values: StaffOrderValues,
  options: { actor: StaffActor; now: Date; provider: string; userAgent?: string | null; siteUrl?: string },
): Promise<StaffOrderResult> {
  const errors: Record<string, string> = {};

  let caller: CallerPicture | null = null;
  if (values.cliente) {
    caller = await loadCallerPicture(db, values.cliente);
    if (!caller) return refused({ cliente: "Ese cliente ya no está disponible: búscalo de nuevo o regístralo como cliente nuevo." });
  }

  // The address: one of the caller's (read again here), or the one typed.
  let address: { districtId: string; direccion: string; referencia: string; lat: string; lng: string };
  if (values.direccionElegida && values.direccionElegida !== NEW_ADDRESS) {
    const saved = caller?.addresses.find((candidate) => candidate.key === values.direccionElegida);
    if (!saved) return refused({ direccionElegida: "Elige una de sus direcciones o escribe una nueva." });
    address = {
      districtId: String(saved.districtId),
      direccion: saved.address,
      referencia: saved.reference,
      lat: saved.point ? String(saved.point.lat) : "",
      lng: saved.point ? String(saved.point.lng) : "",
    };
  } else {
    const typedPoint = values.coordenadas.trim() ? parseCoordinates(values.coordenadas) : null;
    if (values.coordenadas.trim() && !typedPoint) errors.coordenadas = COORDINATES_ERROR;
    address = {
      districtId: values.districtId,
      direccion: values.direccion,
      referencia: values.referencia,
      lat: typedPoint ? String(typedPoint.lat) : "",
      lng: typedPoint ? String(typedPoint.lng) : "",
    };
  }

  const slot = parseSlot(values.horario);
  if (!slot) errors.horario = "Elige la fecha y el horario de entrega.";

  const typed = typedLines(values.cantidades);
  if ("error" in typed) errors.items = typed.error;
  else if (typed.lines.length === 0) errors.items = "Agrega al menos un producto.";

  const payment = (STAFF_PAYMENT_CHOICES as readonly string[]).includes(values.pago) ? (values.pago as StaffPaymentChoice) : null;
  if (!payment) errors.pago = "Elige cómo paga el cliente.";
  const doorMethod = (DOOR_METHODS as readonly string[]).includes(values.metodoContraEntrega) ? values.metodoContraEntrega : "efectivo";

  // The chosen window against capacity, by the checkout's own rules for this district and date.
  let capacityOverride: { reason: string } | undefined;
  const districtId = Number(address.districtId);
  const district = (await listServedDistricts(db)).find((candidate) => candidate.id === districtId);
  if (slot && district) {
    const offered = await offeredDeliverySlots(db, { now: options.now, districts: [district], keepFullDays: true });
    const day = offered[district.id]?.find((candidate) => candidate.date === slot.date);
    const window = day?.windows.find((candidate) => candidate.window === slot.window);
    if (!window) errors.horario = `Esa fecha ya no se puede reservar para ${district.name}: elige otra de la lista.`;
    else if (!window.hasRoom) {
      const reasonError = overrideReasonError(values.motivoSobrecupo);
      if (reasonError) errors.motivoSobrecupo = reasonError;
      else capacityOverride = { reason: values.motivoSobrecupo.trim() };
    }
  }

  // The server's own subtotal: the checkout compares it with what it prices, never with the form.
  const lines = "lines" in typed ? typed.lines : [];
  const priced = lines.length > 0 ? await priceCartLines(db, lines) : null;

  const parsed = checkoutSchema.safeParse({
    checkoutKey: values.checkoutKey,
    purchaseType: "one-time",
    subscriptionFrequency: "mensual",
    nombre: values.nombre,
    apellido: values.apellido,
    correo: values.correo,
    telefono: values.telefono,
    tipo_documento: values.tipo_documento,
    dni: values.dni,
    ruc: values.ruc,
    razonSocial: values.razonSocial,
    districtId: address.districtId,
    direccion: address.direccion,
    referencia: address.referencia,
    ubicacion: { lat: address.lat, lng: address.lng },
    diaHabil: slot ? isoWeekday(slot.date) : "",
    fecha: slot?.date ?? "",
    rangoHorario: slot?.window ?? "",
    items: lines,
    // Asked below with the order's records, as said on the phone (decision 0091), not as a checkout's boxes.
    promociones: false,
    whatsapp: false,
    clientSubtotalCents: priced?.subtotalCents ?? 0,
    formaPago: payment === "contra_entrega" ? "contra_entrega" : "en_linea",
    metodoContraEntrega: doorMethod,
    pagaCon: payment === "contra_entrega" ? typedCashAmount(values.pagaCon) : undefined,
  });
  if (!parsed.success) {
    for (const [field, message] of Object.entries(checkoutFieldErrors(parsed.error))) {
      const formField = caller && values.direccionElegida !== NEW_ADDRESS && ADDRESS_FIELDS.has(field) ? "direccionElegida" : (FORM_FIELD_OF[field] ?? field);
      errors[formField] ??= message;
    }
  }
  if (!district && !errors.districtId && !errors.direccionElegida) {
    errors[values.direccionElegida && values.direccionElegida !== NEW_ADDRESS ? "direccionElegida" : "districtId"] =
      "Por ahora no repartimos en ese distrito. Elige uno de la lista.";
  }
  if (Object.keys(errors).length > 0 || !parsed.success || !payment) return refused(errors);

  const result = await placeOrder(db, parsed.data, {
    now: options.now,
    provider: options.provider,
    userId: caller?.userId ?? null,
    client: { address: options.actor.clientAddress ?? "", userAgent: options.userAgent ?? null },
    actor: options.actor.email,
    ...(options.siteUrl ? { siteUrl: options.siteUrl } : {}),
    ...(capacityOverride ? { capacityOverride } : {}),
  });
  if (result.ok) {
    if (result.nextStep === "tokenize_card") throw new Error("A staff order never starts a subscription");
    await recordStaffOrderPlaced(db, {
      actor: options.actor,
      now: options.now,
      orderId: result.orderId,
      orderNumber: result.orderNumber,
      customer: caller ? caller.kind : "new",
      userId: caller?.userId ?? null,
      email: parsed.data.correo,
      phone: parsed.data.telefono,
      payment,
      capacityOverride: capacityOverride ? { ...capacityOverride, date: parsed.data.fecha, window: parsed.data.rangoHorario } : null,
      promociones: values.promociones,
      whatsapp: values.whatsapp,
    });
    return { ok: true, orderId: result.orderId, orderNumber: result.orderNumber, paymentId: result.paymentId, created: result.created, payment };
  }
  switch (result.reason) {
    case "invalid":
      return refused(mapped(result.fieldErrors, caller !== null && values.direccionElegida !== NEW_ADDRESS));
    case "cart_changed":
      return refused({ items: "Un producto dejó de venderse o cambió de precio: revisa la lista y el total." });
    case "minimum":
      return refused(
        {
          items: `El pedido mínimo es ${formatSoles(MINIMUM_ORDER_CENTS)} en productos (la garantía no cuenta): faltan ${formatSoles(result.shortfallCents)}.`,
        },
        "El pedido no llega al mínimo: no se creó.",
      );
    case "slot_taken": {
      const errors = mapped(result.fieldErrors, false);
      if (errors.horario) errors.horario = `${errors.horario} Si igual debe ir en ese horario, escribe el motivo para pasar el cupo.`;
      return { ...refused(errors), slotTaken: true };
    }
    case "unpaid_limit":
      return refused({ pago: result.message }, result.message);
    case "door_payment_unavailable":
      return refused({ pago: result.message, ...mapped(result.fieldErrors, false) }, result.message);
    case "account_required":
      return refused({ form: "Este pedido no puede crearse desde aquí." });
  }
}

function mapped(fieldErrors: Record<string, string>, savedAddress: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, message] of Object.entries(fieldErrors)) {
    const formField = savedAddress && ADDRESS_FIELDS.has(field) ? "direccionElegida" : (FORM_FIELD_OF[field] ?? field);
    errors[formField] ??= message;
  }
  return errors;
}
