import { useEffect } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
import type { Route } from "./+types/root";
import appStylesHref from "./app.css?url";
import { privateWhenSignedInMiddleware } from "./server/cache-control.server";
import { sameOriginMiddleware } from "./server/csrf.server";
import { databaseMiddleware, dbContext } from "./server/db-context.server";
import { methodGuardMiddleware } from "./server/request-guards.server";
import { requestLogMiddleware } from "./server/request-log.server";
import { sendQueuedWorkMiddleware } from "./server/send-queued-work.server";
import { siteInfo } from "./server/site-info.server";
import { LeavingPageGuard } from "~/components/layout/leaving-page-guard";
import { useNonce } from "~/lib/nonce";
import { pageMeta } from "~/lib/seo";

export const middleware: Route.MiddlewareFunction[] = [
  // First, so it sees the final answer (a refusal or the 503 page included) for the request's log line.
  requestLogMiddleware,
  sendQueuedWorkMiddleware,
  methodGuardMiddleware,
  privateWhenSignedInMiddleware,
  sameOriginMiddleware,
  databaseMiddleware,
];

export async function loader({ request, context }: Route.LoaderArgs) {
  return { site: await siteInfo(context.get(dbContext), request) };
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="es-PE">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0e7490" />
        <Meta />
        {/* With a precedence React treats the stylesheet as a resource and puts it first in <head>,
            ahead of the module preloads, so the first paint does not queue behind JavaScript. */}
        <link rel="stylesheet" href={appStylesHref} precedence="high" />
        <Links />
      </head>
      <body className="min-h-screen bg-white font-sans text-slate-800 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // Marks the moment React owns the page; browser tests wait for it instead of guessing.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <LeavingPageGuard>
      <Outlet />
    </LeavingPageGuard>
  );
}

export function meta({ loaderData, error }: Route.MetaArgs) {
  if (!error) return [];
  const site = loaderData?.site;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return pageMeta(site, {
    title: notFound ? "Página no encontrada" : "Algo salió mal",
    description: "La página que buscas no está disponible.",
    robots: "noindex,follow",
    path: "/",
  });
}

/**
 * Last-resort boundary: never shows a stack trace to a customer. Unknown pages are answered by
 * the public layout's own 404 route; this one only sees what happens outside it.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A request the shop refused (405, 415, 400…) says why, in the Spanish the route gave it.
  const refusal = isRouteErrorResponse(error) && error.status >= 400 && error.status < 500 && !notFound && typeof error.data === "string" ? error.data : null;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-6 text-center">
      <h1 className="text-3xl font-bold text-brand-800">
        {notFound ? "Página no encontrada" : refusal ? "No pudimos procesar tu solicitud" : "Algo salió mal"}
      </h1>
      <p>
        {notFound
          ? "La página que buscas no existe o fue movida."
          : (refusal ?? "Tuvimos un problema al mostrar esta página. Por favor, inténtalo de nuevo en unos minutos.")}
      </p>
      <a className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800" href="/">
        Volver al inicio
      </a>
    </main>
  );
}
