import { SPLASH_SEEN_ATTRIBUTE, SPLASH_SEEN_KEY } from "../lib/splash";

/**
 * The loading splash (spec §2) as plain HTML that the server puts first in <body>. It is static
 * and timed by CSS alone (app.css), so it needs no JavaScript: keeping it outside React keeps it
 * out of every page's bundle. React skips unknown nodes at the top of <body> when it hydrates.
 *
 * It greets a visitor once per browser session, not on every page (decision 0054): the inline
 * script in <head> runs before the first paint, and on any later page of the tab's session marks
 * <html> so that CSS never paints the splash nor holds the page back behind its fade. The HTML
 * stays the same for everyone, so stored public pages are still shared.
 */

/** Storage refused (private modes) means every page greets; reduced motion hides the splash (app.css). */
const splashDecision =
  `(function(){try{var d=document.documentElement;` +
  `if(sessionStorage.getItem("${SPLASH_SEEN_KEY}"))d.setAttribute("${SPLASH_SEEN_ATTRIBUTE}","");else sessionStorage.setItem("${SPLASH_SEEN_KEY}","1")}catch(e){}})()`;

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function splashHtml(brandName: string): string {
  return (
    `<div aria-hidden="true" data-testid="splash" class="splash fixed inset-0 z-50 flex flex-col items-center justify-center gap-5 bg-white">` +
    `<svg viewBox="0 0 64 64" class="h-24 w-24 animate-pulse rounded-full" focusable="false"><defs><linearGradient id="splash-drop" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#67e8f9"/></linearGradient></defs>` +
    `<circle cx="32" cy="32" r="30" fill="#0e7490"/><circle cx="32" cy="32" r="26" fill="none" stroke="#06b6d4" stroke-width="2"/>` +
    `<path d="M30 11c-9 12-14 19-14 27a14 14 0 0 0 28 0c0-8-5-15-14-27z" fill="url(#splash-drop)"/><path d="M23 40q1 6 6 8" stroke="#fff" stroke-width="2.5" fill="none" stroke-linecap="round"/>` +
    `<path d="M36 52q1-17 18-19q0 17-18 19z" fill="#65a30d" stroke="#0e7490" stroke-width="1.5"/><path d="M39 49q5-8 12-12" stroke="#d9f99d" stroke-width="1.5" fill="none" stroke-linecap="round"/></svg>` +
    `<p class="text-2xl font-bold text-brand-800">${escapeHtml(brandName)}</p>` +
    `<div class="h-1.5 w-48 overflow-hidden rounded-full bg-brand-100"><div class="splash-progress h-full w-full bg-brand-600"></div></div>` +
    `<p class="text-sm text-slate-600">Cargando experiencia...</p></div>`
  );
}

/**
 * Inserts the splash right after the opening <body> tag, and in <head> (before the stylesheet, so
 * that it never waits for it) the script that decides whether it shows. React Router's scripts stay
 * as it wrote them: the page hydrates under the splash, which CSS alone hides (decision 0058).
 */
export function withSplash(html: string, brandName: string, nonce: string | undefined): string {
  const attribute = nonce ? ` nonce="${nonce}"` : "";
  const decision = `<script${attribute}>${splashDecision}</script>`;
  return html.replace(/<head>(<meta charSet="utf-8"\/>)?/, (head) => head + decision).replace(/<body[^>]*>/, (body) => body + splashHtml(brandName));
}
