import appStylesHref from "../app.css?url";

/** How long a visitor (or a crawler) is asked to wait before trying again while the database is away. */
export const RETRY_AFTER_SECONDS = 30;

/**
 * The page shown while the database cannot be reached: plain HTML that needs no data (the brand
 * name, menus and prices all live in the database), no JavaScript, and only the app's stylesheet.
 * 503 with Retry-After tells browsers, crawlers and monitors that this passes.
 */
export function serviceUnavailableResponse(): Response {
  const html =
    `<!DOCTYPE html><html lang="es-PE"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>Servicio no disponible</title><link rel="stylesheet" href="${appStylesHref}"></head>` +
    `<body class="min-h-screen bg-white font-sans text-slate-800 antialiased">` +
    `<main class="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-6 text-center">` +
    `<h1 class="text-3xl font-bold text-brand-800">Servicio no disponible</h1>` +
    `<p>Servicio no disponible, intenta en unos minutos.</p>` +
    `<p>Tu carrito sigue guardado en este navegador.</p>` +
    `<a class="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800" href="">Reintentar</a>` +
    `</main></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
  });
}
