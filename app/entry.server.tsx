import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { isRouteErrorResponse, ServerRouter, type EntryContext } from "react-router";
import { env, InvalidEnvironmentError } from "@server/config/index.server";
import {
  closeDatabase,
  closeDatabaseOnShutdownElsewhere,
  currentStorefrontGeneration,
  databasePoolStats,
  databaseReadiness,
  describeErrorSafely,
  getDatabase,
  installSafeErrorLogging,
  type Database,
} from "@server/db/index.server";
import { startJobScheduler, stopJobScheduler } from "@server/jobs/index.server";
import { emailOutboxCounts } from "@server/notifications/index.server";
import { whatsappOutboxCounts } from "@server/whatsapp/index.server";
import {
  collectProcessMetrics,
  metricsText,
  observeHttpRequest,
  routeConsoleToLogger,
  setMetricsSources,
  shopLogger,
} from "@server/observability/index.server";
import { contentSecurityPolicy, createNonce } from "./server/content-security-policy.server";
import { NonceContext } from "./lib/nonce";
import { BODY_LIMITS } from "./server/request-body.server";
import { withSplash } from "./server/splash-html.server";

export const streamTimeout = 5_000;

// A bad or missing setting stops the server at once with a message naming each variable (in
// production SITE_URL, SESSION_SECRET and a payment provider are required; docs/security.md).
try {
  env();
} catch (error) {
  console.error(error instanceof InvalidEnvironmentError ? error.message : error);
  process.exit(1);
}

installSafeErrorLogging();
// Every console line of the server, ours and the libraries', through one structured logger (issue 27).
routeConsoleToLogger();

/**
 * What scripts/serve.mjs needs from the environment, validated with every other variable above
 * (issue 13: the HTTP server reads nothing raw). Reached there as `build.entry.module.serverSettings`.
 */
export function serverSettings() {
  const config = env();
  return {
    port: config.PORT,
    host: config.HOST,
    logRequests: config.LOG_REQUESTS,
    metricsToken: config.METRICS_TOKEN,
    shutdownTimeoutSeconds: config.SHUTDOWN_TIMEOUT_SECONDS,
    pageCacheSeconds: config.PAGE_CACHE_SECONDS,
    trustProxy: process.env.TRUST_PROXY ?? "",
    siteIsHttps: config.SITE_URL?.startsWith("https://") ?? false,
    // The largest body any route reads (decision 0073): serve.mjs refuses more before the app runs.
    maxRequestBodyBytes: Math.max(...Object.values(BODY_LIMITS)),
  };
}

/**
 * What scripts/serve.mjs needs to be operated (issue 27): the logger its request lines go to, the
 * health answers, the metrics, and the orderly stop of everything behind the HTTP server.
 */
export const operations = {
  logger: shopLogger(),
  readiness: databaseReadiness,
  metricsText,
  observeHttpRequest,
  /**
   * Called once by scripts/serve.mjs, which owns the process: it shuts it down in order on
   * SIGTERM (so the database module must not exit on the signal first), and it is what a
   * Prometheus server scrapes (so the process metrics are collected).
   */
  manageProcess(): void {
    closeDatabaseOnShutdownElsewhere();
    collectProcessMetrics();
  },
  /** The HTTP server has stopped and its requests are done: stop the jobs, then close the database. */
  async stopBackgroundWork(): Promise<void> {
    await stopJobScheduler();
    await closeDatabase();
  },
};

/**
 * The generation scripts/serve.mjs stores public pages under: a stored page of an older one is not
 * served, so staff changes reach cached pages of every process within about a second (decision 0040).
 */
export function storefrontGeneration(): number | Promise<number> {
  return shopDatabase ? currentStorefrontGeneration(shopDatabase) : 0;
}

/**
 * React Router's own log of a loader, action or render error (replacing its default, which prints
 * the error as is): a failed query appears as its SQLSTATE and statement, never its values.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // A request refused with a 4xx (a post to a page without a form, an unknown method) is the
  // visitor's mistake, answered in Spanish; nothing on our side failed.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // React Router's own check refused a form posted from another site (its Origin is not ours): a
  // request we turned away, as our sameOriginMiddleware would, not a failure of the shop.
  if (error instanceof Error && /origin does not match `origin` header/.test(error.message)) {
    console.warn(`${request.method} ${new URL(request.url).pathname}: refused a cross-site form post`);
    return;
  }
  console.error(`${request.method} ${new URL(request.url).pathname}: ${describeErrorSafely(error)}`);
}

// Open, migrate and seed the database as the server boots, not on the first visitor's request,
// then start the in-process jobs (email delivery, expiry of unpaid orders).
let shopDatabase: Database | undefined;
getDatabase()
  .then((db) => {
    shopDatabase = db;
    setMetricsSources({
      outboxes: [
        { name: "email", counts: () => emailOutboxCounts(db) },
        { name: "whatsapp", counts: () => whatsappOutboxCounts(db) },
      ],
      pool: databasePoolStats,
    });
    return startJobScheduler(db);
  })
  .catch((error: unknown) => {
    console.error("The database could not be prepared:", error);
    process.exit(1);
  });

// Loaders hand pages promises for data below the fold. When another loader of the same request
// fails (the database went away mid-request), the error page renders instead and nobody awaits
// those promises: their rejection must be logged, not end the process and every request in it.
process.on("unhandledRejection", (reason: unknown) => {
  console.error("A promise failed with nobody waiting for it:", reason instanceof Error ? reason.message : reason);
});

/**
 * Every document waits for all its data and is sent as one body (onAllReady), so crawlers and
 * visitors without JavaScript get complete pages, and compression works on one buffer instead of
 * hundreds of small chunks. Deferred data still streams on client-side navigations, where the
 * spec's loading states show. See docs/decisions/0006.
 */
export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  // Every document gets its own nonce for its few inline scripts (docs/security.md). The dev
  // server's hot reloading injects scripts of its own, so only built servers send the policy.
  const nonce = import.meta.env.DEV ? undefined : createNonce();
  if (nonce) responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));

  return new Promise<Response>((resolve, reject) => {
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const document = (
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(document, {
      nonce,
      // React outlines large finished Suspense boundaries behind a swap script by default, which
      // leaves visitors without JavaScript looking at the fallback; this keeps them inline.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        const chunks: Buffer[] = [];
        const body = new PassThrough();
        body.on("data", (chunk: Buffer) => chunks.push(chunk));
        body.on("end", () => {
          clearTimeout(timeout);
          // Thrown here, outside any promise, an error would end the process: it fails this request instead.
          try {
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            const html = Buffer.concat(chunks).toString("utf8");
            const page = usesPublicLayout(routerContext) ? withSplash(html, brandName(routerContext), nonce) : html;
            resolve(new Response(page, { headers: responseHeaders, status: responseStatusCode }));
          } catch (error) {
            reject(error);
          }
        });
        body.on("error", reject);
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        console.error(error);
      },
    });
  });
}

/** The splash belongs to the public layout's pages (spec §2), not to bare error pages. */
function usesPublicLayout(context: EntryContext): boolean {
  return context.staticHandlerContext.matches.some((match) => match.route.id === "routes/storefront/layout");
}

function brandName(context: EntryContext): string {
  const root = context.staticHandlerContext.loaderData.root as { site?: { brandName?: string } } | undefined;
  return root?.site?.brandName ?? "Vida Alcalina";
}
