import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type EntryContext } from "react-router";
import { getDatabase } from "@server/db/index.server";

export const streamTimeout = 5_000;

// Open, migrate and seed the database as the server boots, not on the first visitor's request.
getDatabase().catch((error: unknown) => {
  console.error("The database could not be prepared:", error);
  process.exit(1);
});

/**
 * Every document waits for all its data before the first byte (onAllReady), so crawlers and
 * visitors without JavaScript get complete pages; deferred data still streams on client-side
 * navigations, where the spec's loading states show. See docs/decisions/0006.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      // React outlines large finished Suspense boundaries behind a swap script by default, which
      // leaves visitors without JavaScript looking at the fallback; this keeps them inline.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        pipe(body);
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        console.error(error);
      },
    });
  });
}
