import { button, emailLayout, escapeHtml } from "./layout";

/** A sheet of the Libro de Reclamaciones as the complaints domain lays it out (every field, in order). */
export interface ComplaintSheetEmailData {
  brandName: string;
  heading: string;
  sheetNumber: string;
  consumerName: string;
  sections: { title: string; rows: [string, string][] }[];
  legends: readonly string[];
}

function sheetHtml(data: ComplaintSheetEmailData): string {
  return data.sections
    .map(
      (section) =>
        `<h2 style="font-size:15px;color:#0e7490;margin:20px 0 6px">${escapeHtml(section.title)}</h2>
<table role="presentation" width="100%" style="border-top:1px solid #e2e8f0">${section.rows
          .map(
            ([label, value]) =>
              `<tr><td style="padding:6px 8px 6px 0;vertical-align:top;font-weight:bold;width:40%">${escapeHtml(label)}</td><td style="padding:6px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
          )
          .join("")}</table>`,
    )
    .join("");
}

function sheetText(data: ComplaintSheetEmailData): string[] {
  return data.sections.flatMap((section) => ["", section.title.toUpperCase(), ...section.rows.map(([label, value]) => `${label}: ${value}`)]);
}

const legendsHtml = (legends: readonly string[]) => legends.map((legend) => `<p style="font-size:12px;color:#475569">* ${escapeHtml(legend)}</p>`).join("");

/** The consumer's copy, sent at once (transactional: no marketing in it); the PDF is attached. */
export function complaintCopyEmail(data: ComplaintSheetEmailData & { sheetUrl: string }) {
  const subject = `Copia de tu hoja de reclamación N° ${data.sheetNumber} – ${data.brandName}`;
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:18px;color:#164e63;margin:0 0 12px">${escapeHtml(data.heading)}</h1>
<p>Hola, ${escapeHtml(data.consumerName)}. Registramos tu hoja en nuestro Libro de Reclamaciones. Esta es tu copia con todos los datos que declaraste; también va adjunta en PDF.</p>
${sheetHtml(data)}
${legendsHtml(data.legends)}
<p style="margin:24px 0">${button(data.sheetUrl, "Ver mi hoja de reclamación")}</p>`,
  });
  const text = [
    data.heading,
    `Hola, ${data.consumerName}. Registramos tu hoja en nuestro Libro de Reclamaciones. Esta es tu copia con todos los datos que declaraste; también va adjunta en PDF.`,
    ...sheetText(data),
    "",
    ...data.legends.map((legend) => `* ${legend}`),
    "",
    `Ver tu hoja: ${data.sheetUrl}`,
  ].join("\n");
  return { subject, html, text };
}

/**
 * The provider's answer (section 4), sent to the e-mail the consumer gave on the sheet. No link: the
 * consumer's link holds a token only they have (we keep its hash), so the whole sheet goes in the mail.
 */
export function complaintAnswerEmail(data: ComplaintSheetEmailData & { answer: string }) {
  const subject = `Respuesta a tu hoja de reclamación N° ${data.sheetNumber} – ${data.brandName}`;
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:18px;color:#164e63;margin:0 0 12px">Respuesta a tu hoja N° ${escapeHtml(data.sheetNumber)}</h1>
<p>Hola, ${escapeHtml(data.consumerName)}. Esta es nuestra respuesta a tu reclamo o queja:</p>
<p style="white-space:pre-wrap;border-left:4px solid #0e7490;padding:8px 12px;background:#f0f9ff">${escapeHtml(data.answer)}</p>
<p>Debajo va tu hoja completa con la respuesta.</p>
${sheetHtml(data)}
${legendsHtml(data.legends)}`,
  });
  const text = [
    `Respuesta a tu hoja de reclamación N° ${data.sheetNumber}`,
    `Hola, ${data.consumerName}. Esta es nuestra respuesta a tu reclamo o queja:`,
    "",
    data.answer,
    ...sheetText(data),
    "",
    ...data.legends.map((legend) => `* ${legend}`),
  ].join("\n");
  return { subject, html, text };
}
