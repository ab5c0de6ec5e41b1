import { formatSoles } from "@core/money";
import { button, emailLayout, escapeHtml } from "./layout";

export interface ComprobanteAcceptedData {
  brandName: string;
  firstName: string;
  /** "Boleta de venta electrónica", "Nota de crédito electrónica"… */
  title: string;
  invoiceNumber: string;
  orderNumber: string;
  totalCents: number;
  links: { pdf: string | null; xml: string | null; cdr: string | null };
  invoicesUrl: string;
}

/** Decision 0045: once SUNAT accepted a comprobante, the customer gets it (PDF attached, XML and CDR linked). */
export function comprobanteAcceptedEmail(data: ComprobanteAcceptedData) {
  const subject = `Tu ${data.title.toLowerCase()} ${data.invoiceNumber}`;
  const candidates: [string, string | null][] = [
    ["PDF", data.links.pdf],
    ["XML", data.links.xml],
    ["CDR (constancia de SUNAT)", data.links.cdr],
  ];
  const files = candidates.filter((entry): entry is [string, string] => entry[1] !== null);
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>SUNAT aceptó tu ${escapeHtml(data.title.toLowerCase())} <strong>${escapeHtml(data.invoiceNumber)}</strong> del pedido ${escapeHtml(data.orderNumber)}, por ${formatSoles(data.totalCents)}. Va adjunta en PDF.</p>
${files.length > 0 ? `<ul>${files.map(([label, href]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`).join("")}</ul>` : ""}
<p style="margin:24px 0">${button(data.invoicesUrl, "Ver mis comprobantes")}</p>`,
  });
  const text = [
    `Hola, ${data.firstName}.`,
    `SUNAT aceptó tu ${data.title.toLowerCase()} ${data.invoiceNumber} del pedido ${data.orderNumber}, por ${formatSoles(data.totalCents)}. Va adjunta en PDF.`,
    ...files.map(([label, href]) => `${label}: ${href}`),
    `Tus comprobantes: ${data.invoicesUrl}`,
  ].join("\n");
  return { subject, html, text };
}
