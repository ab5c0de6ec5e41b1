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
 *
 * While the splash covers a page, the page's JavaScript waits for the splash's first frame
 * (decision 0058): nothing under the splash can be used for 800 ms anyway, and the first frame
 * then needs only the document and the stylesheet instead of sharing the connection with ~120 KB
 * of modules.
 */

/** Storage refused (private modes) means every page greets; reduced motion hides the splash (app.css). */
function splashDecision(modules: string[]): string {
  return (
    `(function(){var d=document.documentElement,m=${JSON.stringify(modules)},s=1;` +
    `try{if(sessionStorage.getItem("${SPLASH_SEEN_KEY}")){d.setAttribute("${SPLASH_SEEN_ATTRIBUTE}","");s=0}else sessionStorage.setItem("${SPLASH_SEEN_KEY}","1")}catch(e){}` +
    `if(matchMedia("(prefers-reduced-motion: reduce)").matches)s=0;` +
    // No splash: the modules are fetched at once, as the preloads React Router writes would be.
    `if(s)window.__vaDeferredModules=m;else m.forEach(function(h){var l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.appendChild(l)})})()`
  );
}

/**
 * Follows React Router's module script (made inert): starts it, and the preloads, at once when no
 * splash shows; else once the browser reports the splash's first contentful paint (the paint timing
 * entry exists only after the frame is on screen), or when the tab is hidden (nothing to paint).
 * Two animation frames stand in where paint timing is missing, and 3 s bound the wait whatever happens.
 */
const startHydration =
  `(function(c){var b=c.previousElementSibling,n=c.nonce,m=window.__vaDeferredModules,done=0;` +
  `function go(){if(done)return;done=1;(m||[]).forEach(function(h){var l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.appendChild(l)});` +
  `var x=document.createElement("script");x.type="module";x.nonce=n;x.textContent=b.textContent;document.head.appendChild(x)}` +
  `if(!m||document.hidden)return go();document.addEventListener("visibilitychange",go);setTimeout(go,3000);` +
  `if(!window.PerformanceObserver||(PerformanceObserver.supportedEntryTypes||[]).indexOf("paint")<0)return requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go)})});` +
  `new PerformanceObserver(function(l){l.getEntriesByName("first-contentful-paint").length&&setTimeout(go)}).observe({type:"paint",buffered:true})})(document.currentScript)`;

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

// React Router's <Scripts> as React writes it: module preloads (hoisted into <head>) and one
// inline module script that imports the route modules and starts hydration.
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*>/g;
const HYDRATION_SCRIPT = /<script((?: [\w-]+="[^"]*")*) type="module" async=""((?: [\w-]+="[^"]*")*)>/;

/**
 * Inserts the splash right after the opening <body> tag, and in <head> (before the stylesheet, so
 * that it never waits for it) the script that decides whether it shows. The page's modules move
 * from static preloads to those two scripts, so that they can wait for the splash's first frame.
 * Markup that does not look as expected is left as it is (modules load as React Router wrote them).
 */
export function withSplash(html: string, brandName: string, nonce: string | undefined): string {
  const attribute = nonce ? ` nonce="${nonce}"` : "";
  const modules = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
  const deferModules = modules.length > 0 && HYDRATION_SCRIPT.test(html);
  let page = html;
  if (deferModules) {
    page = page
      .replace(MODULE_PRELOAD, "")
      .replace(HYDRATION_SCRIPT, (_, before: string, after: string) => `<script type="text/plain" data-hydration=""${before}${after}>`)
      .replace(
        /(<script type="text\/plain" data-hydration=""[^>]*>[\s\S]*?<\/script>)/,
        (script: string) => `${script}<script${attribute}>${startHydration}</script>`,
      );
  }
  const decision = `<script${attribute}>${splashDecision(deferModules ? modules : [])}</script>`;
  return page.replace(/<head>(<meta charSet="utf-8"\/>)?/, (head) => head + decision).replace(/<body[^>]*>/, (body) => body + splashHtml(brandName));
}
