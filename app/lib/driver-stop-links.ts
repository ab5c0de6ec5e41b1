import { whatsappLink } from "./whatsapp";

/** A Peruvian number as dialled from a phone: local 9-digit mobiles get the country code. */
function internationalDigits(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length === 9 ? `51${digits}` : digits;
}

export function callHref(phone: string): string {
  return `tel:+${internationalDigits(phone)}`;
}

/** WhatsApp to the customer, with a greeting the driver can send as is. */
export function customerWhatsappHref(phone: string, firstName: string): string {
  return whatsappLink(internationalDigits(phone), `Hola ${firstName}, le escribe el repartidor de Vida Alcalina. Estoy en camino con su pedido.`);
}

/** Google Maps search for the stop: address, district and city, so a bare street name still lands in Lima. */
export function mapHref(address: string, districtName: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${address}, ${districtName}, Lima, Perú`)}`;
}
