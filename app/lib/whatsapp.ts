/** Link that opens WhatsApp with the shop's preset greeting (spec §2 floating chat button). */
export function whatsappLink(number: string, greeting: string): string {
  return `https://wa.me/${number.replace(/\D/g, "")}?text=${encodeURIComponent(greeting)}`;
}
