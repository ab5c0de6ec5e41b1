import { formatSoles } from "@core/money";
import { button, emailLayout, escapeHtml } from "./layout";

export interface InvoicesEmailData {
  brandName: string;
  firstName: string;
  invoices: { invoiceNumber: string; issuedOn: string; totalCents: number; statusLabel: string }[];
  invoicesUrl: string;
}

/** 'Enviar por email' on /dashboard/facturas: the customer's invoices, each PDF attached. */
export function invoicesEmail(data: InvoicesEmailData) {
  const count = data.invoices.length;
  const subject = count === 1 ? `Tu comprobante de ${data.brandName}` : `Tus ${count} comprobantes de ${data.brandName}`;
  const rows = data.invoices
    .map(
      (invoice) =>
        `<tr><td style="padding:6px 0">${escapeHtml(invoice.invoiceNumber)}</td><td style="padding:6px 8px;color:#475569">${escapeHtml(invoice.statusLabel)}</td><td align="right">${formatSoles(invoice.totalCents)}</td></tr>`,
    )
    .join("");
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>Como lo pediste, te enviamos ${count === 1 ? "tu comprobante" : `tus ${count} comprobantes`} en PDF, adjunto${count === 1 ? "" : "s"} a este correo.</p>
<table role="presentation" width="100%" style="border-top:1px solid #e2e8f0;border-bottom:1px solid #e2e8f0;margin:16px 0">${rows}</table>
<p style="margin:24px 0">${button(data.invoicesUrl, "Ver mis facturas")}</p>
<p style="font-size:12px;color:#64748b">Si no pediste este correo, puedes ignorarlo.</p>`,
  });
  const text = [
    `Hola, ${data.firstName}.`,
    `Como lo pediste, te enviamos ${count === 1 ? "tu comprobante" : `tus ${count} comprobantes`} en PDF, adjunto${count === 1 ? "" : "s"} a este correo:`,
    ...data.invoices.map((invoice) => `${invoice.invoiceNumber} (${invoice.statusLabel}): ${formatSoles(invoice.totalCents)}`),
    `Ver tus facturas: ${data.invoicesUrl}`,
  ].join("\n");
  return { subject, html, text };
}
