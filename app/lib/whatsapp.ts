/** Link that opens WhatsApp with the shop's preset greeting (spec §2 floating chat button). */
export function whatsappLink(number: string, greeting: string): string {
  return `https://wa.me/${number.replace(/\D/g, "")}?text=${encodeURIComponent(greeting)}`;
}

/** The shop's number as a Peruvian reads and dials it: "+51 987 654 321" and "tel:+51987654321" (a 9-digit mobile after 51). */
export function shopPhone(number: string): { display: string; href: string } {
  const digits = number.replace(/\D/g, "");
  const mobile = /^51(9\d{2})(\d{3})(\d{3})$/.exec(digits);
  return { display: mobile ? `+51 ${mobile[1]} ${mobile[2]} ${mobile[3]}` : `+${digits}`, href: `tel:+${digits}` };
}
