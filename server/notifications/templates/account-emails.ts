import { button, emailLayout, escapeHtml } from "./layout";

export function passwordResetEmail(data: { brandName: string; firstName: string; resetUrl: string }) {
  const subject = "Restablece tu contraseña";
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>Recibimos una solicitud para restablecer la contraseña de tu cuenta. Elige una nueva con este enlace:</p>
<p style="margin:24px 0">${button(data.resetUrl, "Crear nueva contraseña")}</p>
<p style="font-size:12px;color:#64748b">El enlace sirve una sola vez y vence en 1 hora. Si no lo pediste, ignora este correo: tu contraseña no cambia.</p>`,
  });
  const text = `Hola, ${data.firstName}.\nPara restablecer tu contraseña abre este enlace (sirve una vez y vence en 1 hora):\n${data.resetUrl}\nSi no lo pediste, ignora este correo.`;
  return { subject, html, text };
}

export function emailVerificationEmail(data: { brandName: string; firstName: string; verifyUrl: string }) {
  const subject = "Confirma tu correo";
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">¡Bienvenido, ${escapeHtml(data.firstName)}!</h1>
<p>Confirma tu correo para terminar de crear tu cuenta: el enlace abre una página con el botón «Confirmar mi correo». Si hiciste pedidos como invitado con este correo, ahí mismo eliges tu contraseña para verlos en tu cuenta.</p>
<p style="margin:24px 0">${button(data.verifyUrl, "Confirmar mi correo")}</p>
<p style="font-size:12px;color:#64748b">El enlace vence en 24 horas. Si no creaste una cuenta, no confirmes nada e ignora este correo.</p>`,
  });
  const text = `¡Bienvenido, ${data.firstName}!\nConfirma tu correo en la página de este enlace (vence en 24 horas):\n${data.verifyUrl}\nSi no creaste una cuenta, no confirmes nada e ignora este correo.`;
  return { subject, html, text };
}

export function passwordChangedEmail(data: { brandName: string; firstName: string; forgotUrl: string }) {
  const subject = "Tu contraseña fue cambiada";
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>La contraseña de tu cuenta acaba de cambiar y cerramos las demás sesiones abiertas.</p>
<p>Si no fuiste tú, recupera tu cuenta ahora:</p>
<p style="margin:24px 0">${button(data.forgotUrl, "Recuperar mi cuenta")}</p>`,
  });
  const text = `Hola, ${data.firstName}.\nLa contraseña de tu cuenta acaba de cambiar y cerramos las demás sesiones.\nSi no fuiste tú, recupera tu cuenta: ${data.forgotUrl}`;
  return { subject, html, text };
}
