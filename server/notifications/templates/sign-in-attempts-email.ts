import { button, emailLayout, escapeHtml } from "./layout";

/**
 * Tells the owner that someone keeps failing to sign in to their account (docs/decisions/0029).
 * It names no client or address: the owner needs to know and to act, not the attacker's network.
 */
export function signInAttemptsEmail(data: { brandName: string; firstName: string; failures: number; forgotUrl: string }) {
  const subject = "Intentos de acceso a tu cuenta";
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>Alguien intentó entrar a tu cuenta con una contraseña incorrecta ${data.failures} veces en poco tiempo. Por seguridad, estamos frenando esos intentos.</p>
<p>Si fuiste tú, no necesitas hacer nada. Si no, te recomendamos cambiar tu contraseña:</p>
<p style="margin:24px 0">${button(data.forgotUrl, "Cambiar mi contraseña")}</p>
<p style="font-size:12px;color:#64748b">Tu cuenta sigue disponible para ti: estos intentos no te impiden iniciar sesión desde tu equipo.</p>`,
  });
  const text = `Hola, ${data.firstName}.\nAlguien intentó entrar a tu cuenta con una contraseña incorrecta ${data.failures} veces en poco tiempo. Estamos frenando esos intentos.\nSi no fuiste tú, cambia tu contraseña: ${data.forgotUrl}`;
  return { subject, html, text };
}
