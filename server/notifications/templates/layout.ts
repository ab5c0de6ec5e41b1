/** The shop's email frame: inline styles only, since mail clients drop stylesheets. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function emailLayout({ brandName, title, body }: { brandName: string; title: string; body: string }): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;background:#ecfeff;font-family:Arial,Helvetica,sans-serif;color:#1e293b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:24px 0"><tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:16px;overflow:hidden">
<tr><td style="background:#0e7490;color:#ffffff;padding:20px 28px;font-size:22px;font-weight:bold">${escapeHtml(brandName)}</td></tr>
<tr><td style="padding:28px">${body}</td></tr>
<tr><td style="padding:16px 28px;background:#f0f9ff;color:#475569;font-size:12px">Agua alcalina pH 8.5 con delivery en Lima. Este correo fue enviado por ${escapeHtml(brandName)}.</td></tr>
</table></td></tr></table></body></html>`;
}

export function button(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}" style="display:inline-block;background:#0e7490;color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:999px;font-weight:bold">${escapeHtml(label)}</a>`;
}
