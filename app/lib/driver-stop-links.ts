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

/** The typed address as a map app searches it: district and city added, so a bare street name still lands in Lima. */
const searchableAddress = (address: string, districtName: string) => `${address}, ${districtName}, Lima, Perú`;

/** A coordinate as the map apps read it: six decimals (about 10 cm), a dot, no spaces. */
const coordinate = (value: number) => value.toFixed(6);

/** The pin as a person writes it down: latitude, longitude (the route sheet, the card). */
export function pinLabel(pin: { lat: number; lng: number }): string {
  return `${coordinate(pin.lat)}, ${coordinate(pin.lng)}`;
}

/**
 * "Cómo llegar" (issue 40): Google Maps directions to the stop's pin. The typed address is only a
 * fallback for a stop without one: "Mz. B Lt. 4, AA.HH. …" on a hillside finds nothing, the pin does.
 */
export function directionsHref(pin: { lat: number; lng: number } | null, address: string, districtName: string): string {
  if (pin) return `https://www.google.com/maps/dir/?api=1&destination=${coordinate(pin.lat)},${coordinate(pin.lng)}`;
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(searchableAddress(address, districtName))}`;
}

/** The same in Waze, which many drivers in Lima prefer: navigation to the pin, or a search of the address. */
export function wazeHref(pin: { lat: number; lng: number } | null, address: string, districtName: string): string {
  if (pin) return `https://waze.com/ul?ll=${coordinate(pin.lat)},${coordinate(pin.lng)}&navigate=yes`;
  return `https://waze.com/ul?q=${encodeURIComponent(searchableAddress(address, districtName))}&navigate=yes`;
}
