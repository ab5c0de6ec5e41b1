import { button, emailLayout, escapeHtml } from "./layout";

export interface ContactMessageEmailData {
  brandName: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  inboxUrl: string;
}

/** A message from /contact, for the shop's contact address (decisions.md, Routes). */
export function contactMessageEmail(data: ContactMessageEmailData) {
  const subject = `Nuevo mensaje de contacto: ${data.subject}`;
  const paragraphs = escapeHtml(data.message).replace(/\r?\n/g, "<br>");
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:20px;color:#164e63;margin:0 0 12px">${escapeHtml(data.subject)}</h1>
<p style="margin:0 0 4px"><strong>De:</strong> ${escapeHtml(data.name)} &lt;<a href="mailto:${escapeHtml(data.email)}">${escapeHtml(data.email)}</a>&gt;</p>
${data.phone ? `<p style="margin:0 0 4px"><strong>Teléfono:</strong> ${escapeHtml(data.phone)}</p>` : ""}
<div style="margin:16px 0;padding:16px;background:#f8fafc;border-radius:12px">${paragraphs}</div>
<p style="margin:24px 0">${button(data.inboxUrl, "Ver en el back office")}</p>`,
  });
  const text = [
    subject,
    `De: ${data.name} <${data.email}>`,
    ...(data.phone ? [`Teléfono: ${data.phone}`] : []),
    "",
    data.message,
    "",
    `Back office: ${data.inboxUrl}`,
  ].join("\n");
  return { subject, html, text };
}
