import type { DeliveryWindow } from "@core/delivery-schedule";
import type { DocumentType } from "@core/documents";
import type { GeoPoint } from "@core/geo";

/** What the customer types at checkout, before the server checks it again. */
export const emptyCheckoutForm = {
  nombre: "",
  apellido: "",
  correo: "",
  telefono: "",
  tipo_documento: "dni" as DocumentType,
  dni: "",
  wantsInvoice: false,
  ruc: "",
  razonSocial: "",
  districtName: "",
  direccion: "",
  referencia: "",
  diaHabil: "",
  fecha: "",
  rangoHorario: "" as DeliveryWindow | "",
  promociones: false,
  whatsapp: false,
  /** Issue 38: online (Culqi) or at the door; at the door, cash (with the note it is paid with) or Yape. */
  formaPago: "en_linea" as "en_linea" | "contra_entrega",
  metodoContraEntrega: "efectivo" as "efectivo" | "yape",
  pagaCon: "",
  /** Issue 26: the address's optional pin (null: the district's centre stands in). */
  ubicacion: null as GeoPoint | null,
};

export type CheckoutFormValues = typeof emptyCheckoutForm;

/** What each part of the form needs to show a value, change it and show its error. */
export interface CheckoutFieldBindings {
  form: CheckoutFormValues;
  update: <K extends keyof CheckoutFormValues>(field: K, value: CheckoutFormValues[K]) => void;
  /** Marks a field as visited, so its client-side error shows from then on. */
  touch: (field: string) => () => void;
  errorFor: (field: string) => string | undefined;
}
