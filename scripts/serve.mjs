#!/usr/bin/env node
// The production HTTP server: the built React Router app behind Express. Ours rather than
// react-router-serve so we choose what each request costs and how responses are cached; see
// docs/decisions/0011-production-server-and-caching.md and bench/RESULTS.md.
import { randomUUID, timingSafeEqual } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { writeReadableStreamToWritable } from "@react-router/node";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "react-router";
import { createMicroCache, SHARED_PAGE_HEADER } from "./micro-cache.mjs";

/** app/server/request-log.server.ts's headers: read here for the log line and the metrics, never sent. */
const ROUTE_PATTERN_HEADER = "x-route-pattern";
const REQUEST_ROLE_HEADER = "x-request-role";

const root = path.resolve(import.meta.dirname, "..");
const clientDir = path.join(root, "build/client");
// Importing the build validates every environment variable (app/entry.server.tsx stops on a bad one);
// this file reads its own settings from there, never from process.env.
const build = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
const {
  port,
  host,
  logRequests,
  pageCacheSeconds,
  metricsToken,
  shutdownTimeoutSeconds,
  trustProxy: trustProxySetting,
  siteIsHttps,
  maxRequestBodyBytes,
} = build.entry.module.serverSettings();
// The logger, health answers, metrics and orderly stop (issue 27, decision 0081); this process is theirs.
const operations = build.entry.module.operations;
operations.manageProcess();
const { logger } = operations;
const handleRequest = createRequestHandler(build, "production");
// TRUST_PROXY is validated, and the client address decided, by server/config/client-address.ts;
// Express only needs the same setting to believe a trusted proxy's X-Forwarded-Proto.
const trustProxy = expressTrustProxy(trustProxySetting);
// Stored pages are dropped when staff change the storefront in any process (decision 0040).
const microCache = createMicroCache({ seconds: pageCacheSeconds, generation: build.entry.module.storefrontGeneration });

const app = express();
app.disable("x-powered-by");
// What the request log and metrics need (issue 27): an id sent back as X-Request-Id, the route
// pattern and role the app reports (never the raw path, a query, a name or a body), the time.
app.use(observeRequest);
// Issue 9, docs/security.md: every answer carries the security headers, the probes' and the
// metrics' too (issue 39), so they are set before any route can answer.
app.use((request, response, next) => {
  setSecurityHeaders(request, response);
  next();
});
app.get("/healthz", (request, response) => sendHealth(response, 200, { status: "ok" }));
app.get("/readyz", async (request, response) => {
  if (stopping) return sendHealth(response, 503, { status: "not ready", reason: "shutting down" });
  const readiness = await operations.readiness();
  sendHealth(response, readiness.ready ? 200 : 503, readiness.ready ? { status: "ready" } : { status: "not ready", reason: readiness.reason });
});
app.get("/metrics", async (request, response, next) => {
  // Without a token the endpoint does not exist; with one, only its bearer reads it.
  if (!metricsToken) return next("route");
  if (!bearerMatches(request.get("authorization"), metricsToken)) {
    response.set({ "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" });
    return response.status(401).type("text/plain").send("Unauthorized");
  }
  const { contentType, body } = await operations.metricsText();
  response.set({ "Content-Type": contentType, "Cache-Control": "no-store" }).send(body);
});
app.all("/metrics", (request, response) => response.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not Found"));
// Behind a TLS proxy the request URL must say https, or React Router's own origin check refuses
// every form post (the browser's Origin is https://…).
app.set("trust proxy", trustProxy);
// Level 4 keeps most of gzip's saving at about half the CPU of the default level 6. A form's
// answer to a script (POST …/.data: the action's data or a redirect, a few hundred bytes, streamed
// so compression cannot see its size) is sent as it is: a gzip stream per answer cost the checkout
// about a tenth of its CPU for nothing (decision 0063).
const scriptedFormAnswer = (request) => request.method === "POST" && request.path.endsWith(".data");
app.use(compression({ level: 4, filter: (request, response) => !scriptedFormAnswer(request) && compression.filter(request, response) }));

// Fingerprinted bundles never change: cache them for a year.
app.use("/assets", staticRoute("/assets/*"));
app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
// The driver app's service worker (decision 0079): a worker's own fetches follow its script's policy,
// so it gets one that lets it reach this origin, and it is checked for a new version on every visit.
const serviceWorkerFile = express.static(clientDir, { index: false, redirect: false, cacheControl: false });
app.get("/reparto-sw.js", (request, response, next) => {
  response.setHeader("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  response.setHeader("Cache-Control", "no-cache");
  serviceWorkerFile(request, response, next);
});
// Images, logo, favicon: an hour. Paths without a file extension are pages and skip the disk.
const publicFiles = express.static(clientDir, { maxAge: "1h", index: false, redirect: false });
app.use((request, response, next) => {
  if (!path.extname(request.path)) return next();
  response.locals.route = "/(public file)";
  publicFiles(request, response, next);
});

app.all("*", async (request, response, next) => {
  try {
    const fetchRequest = toFetchRequest(request, response);
    const fetchResponse = await microCache.serve(fetchRequest, (pageRequest) => handleRequest(pageRequest));
    if (!request.complete) discardRestOfBody(request);
    await sendFetchResponse(response, fetchResponse);
  } catch (error) {
    // The visitor went away while the page was being sent (navigated on, closed the tab): nothing
    // failed on our side and there is no one left to answer.
    if (response.destroyed || request.destroyed || error?.code === "ERR_STREAM_DESTROYED" || error?.code === "ERR_STREAM_WRITE_AFTER_END") return;
    next(error);
  }
});

const server = app.listen(port, host, () => logger.info(`Shop listening on http://${host ?? "localhost"}:${port}`));

/** Requests whose answer is not finished yet; SIGTERM waits for them. */
let inFlight = 0;
let stopping = false;
let drained = () => {};

/**
 * SIGTERM (a deploy, a scale-down) or Ctrl-C (issue 27): stop accepting connections, let the
 * requests in flight finish, let the job runner finish its current row and give back its claims,
 * close the database, exit 0, all within SHUTDOWN_TIMEOUT_SECONDS; past it, exit 1 anyway.
 */
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  const deadline = Date.now() + shutdownTimeoutSeconds * 1000;
  const remaining = () => Math.max(0, deadline - Date.now());
  logger.info({ signal, inFlight }, "Stopping: no new connections; finishing the requests in flight");
  server.close();
  // Keep-alive connections between requests would hold the server open: closed now; the busy
  // ones answer with "Connection: close" and end after their response.
  server.closeIdleConnections();
  const requestsDone = inFlight === 0 || (await within(new Promise((resolve) => (drained = resolve)), remaining()));
  const backgroundDone = await within(
    operations.stopBackgroundWork().then(
      () => true,
      (error) => {
        logger.error({ err: error }, "Could not stop the jobs or close the database cleanly");
        return false;
      },
    ),
    remaining(),
  );
  server.closeAllConnections();
  const clean = requestsDone && backgroundDone;
  if (clean) logger.info("Stopped cleanly");
  else logger.error({ inFlight, timeoutSeconds: shutdownTimeoutSeconds }, "Stopped at the shutdown timeout with work unfinished");
  process.exit(signal === "SIGINT" ? 130 : clean ? 0 : 1);
}
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => void shutdown(signal));

/** Whether `work` settled within `ms`. */
function within(work, ms) {
  let timer;
  return Promise.race([work.then(() => true), new Promise((resolve) => (timer = setTimeout(() => resolve(false), ms)))]).finally(() => clearTimeout(timer));
}

/** The session cookie (app/server/cache-control.server.ts): a page the app served from its cache says no role, this tells signed-in visitors apart. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?va\.session_token=/;
/** An id a trusted proxy (nginx's $request_id) or the client sent, kept when it is a plain token. */
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
/** Probes and scrapes: logged at debug level only, not to drown the requests of visitors. */
const QUIET_ROUTES = new Set(["/healthz", "/readyz", "/metrics"]);

function observeRequest(request, response, next) {
  const started = process.hrtime.bigint();
  const incoming = request.get("x-request-id");
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader("X-Request-Id", requestId);
  if (stopping) response.setHeader("Connection", "close");
  inFlight += 1;
  response.once("close", () => {
    inFlight -= 1;
    if (stopping && inFlight === 0) drained();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = response.locals.route ?? (QUIET_ROUTES.has(request.path) ? request.path : "(unmatched)");
    const status = response.writableFinished ? response.statusCode : 499;
    operations.observeHttpRequest(request.method, route, status, seconds);
    if (!logRequests) return;
    const role = response.locals.role ?? (SESSION_COOKIE.test(request.get("cookie") ?? "") ? "signed-in" : "anonymous");
    const line = { requestId, method: request.method, route, status, durationMs: Math.round(seconds * 10_000) / 10, role };
    if (QUIET_ROUTES.has(route)) logger.debug(line, "request");
    else if (status >= 500) logger.warn(line, "request");
    else logger.info(line, "request");
  });
  next();
}

function staticRoute(route) {
  return (request, response, next) => {
    response.locals.route = route;
    next();
  };
}

function sendHealth(response, status, body) {
  response.status(status).set("Cache-Control", "no-store").json(body);
}

function bearerMatches(header, token) {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Express request → Fetch Request, as @react-router/express does. */
function toFetchRequest(request, response) {
  const url = new URL(`${request.protocol}://${request.get("host") ?? "localhost"}${request.originalUrl}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else if (value !== undefined) headers.set(key, value);
  }
  // The socket's address, for per-client rate limits (app/server/session.server.ts). Set here, never
  // taken from the client.
  headers.set("x-socket-address", request.socket.remoteAddress ?? "");
  const controller = new AbortController();
  response.on("close", () => {
    if (!response.writableFinished) controller.abort();
  });
  const init = { method: request.method, headers, signal: controller.signal };
  if (request.method !== "GET" && request.method !== "HEAD") {
    init.body = boundedRequestBody(request, maxRequestBodyBytes);
    init.duplex = "half";
  }
  return new Request(url, init);
}

/** How much of a body the app did not read is still taken off the wire after the answer, and for how long (decision 0073). */
const DISCARD_MAX_BYTES = 16 * 1024 * 1024;
const DISCARD_MAX_MS = 10_000;

/**
 * A body the app did not read to its end (refused, or past its limit, decision 0073): the answer
 * goes out at once and the rest is read and thrown away, never kept. Closing the connection
 * instead, with the client's bytes still unread, makes the kernel reset it, and a client still
 * sending then loses the answer it had not read yet (a browser shows a connection error instead
 * of the 413 page). Past 16 MiB or 10 s of it the connection is cut all the same.
 */
function discardRestOfBody(request) {
  const cut = () => request.socket.destroy();
  const timer = setTimeout(cut, DISCARD_MAX_MS);
  timer.unref();
  let discarded = 0;
  request.removeAllListeners("data");
  request.on("data", (chunk) => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) cut();
  });
  request.once("close", () => clearTimeout(timer));
  request.resume();
}

/**
 * Decision 0073: no body reaches the app larger than the largest limit of any route, whatever it
 * declares. A declared Content-Length above it fails the stream before a byte is read; otherwise
 * the bytes are counted as they arrive (a chunked body has no length to check) and the stream
 * fails as soon as they pass it. The app's readers (app/server/request-body.server.ts) apply each
 * route's own, smaller, limit the same way and answer the 413. Read only as fast as the app
 * reads (backpressure), and never destroyed here: the answer must still reach the client
 * (discardRestOfBody takes the rest off the wire).
 */
function boundedRequestBody(request, maxBytes) {
  let received = 0;
  let finished = false;
  const tooLarge = () => Object.assign(new Error("The request body is larger than the server accepts"), { name: "RequestBodyTooLargeError" });
  return new ReadableStream(
    {
      start(controller) {
        const fail = (error) => {
          if (finished) return;
          finished = true;
          request.pause();
          request.removeAllListeners("data");
          controller.error(error);
        };
        if (Number(request.headers["content-length"] ?? 0) > maxBytes) return fail(tooLarge());
        request.on("data", (chunk) => {
          if (finished) return;
          received += chunk.length;
          if (received > maxBytes) return fail(tooLarge());
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
          if ((controller.desiredSize ?? 0) <= 0) request.pause();
        });
        request.once("end", () => {
          if (finished) return;
          finished = true;
          controller.close();
        });
        request.once("error", fail);
        request.once("close", () => {
          if (!request.complete) fail(new Error("The client went away before sending the whole body"));
        });
      },
      pull() {
        if (!finished) request.resume();
      },
      cancel() {
        finished = true;
        request.pause();
        request.removeAllListeners("data");
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** TRUST_PROXY in Express's terms; `true` names loopback and private networks, not everyone. */
function expressTrustProxy(value = "") {
  const raw = value.trim().toLowerCase();
  if (raw === "" || raw === "false") return false;
  if (raw === "true") return ["loopback", "linklocal", "uniquelocal"];
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * Issue 9, docs/security.md: on every response, files and errors included. Documents replace the
 * strict default policy with their own, which carries a nonce (app/server/content-security-policy.server.ts).
 */
function setSecurityHeaders(request, response) {
  response.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("X-Frame-Options", "DENY");
  response.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  // geolocation=(self): "Usar mi ubicación" places an address's pin (issue 26); no other origin may ask.
  response.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(self), usb=(), magnetometer=(), gyroscope=(), accelerometer=()");
  // request.secure believes X-Forwarded-Proto only behind a trusted proxy (TRUST_PROXY).
  if (siteIsHttps || request.secure) response.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}

async function sendFetchResponse(response, fetchResponse) {
  response.status(fetchResponse.status);
  // The app's own value wins over the defaults above; only Set-Cookie may repeat.
  for (const [key, value] of fetchResponse.headers.entries()) {
    if (key === SHARED_PAGE_HEADER) continue;
    // The app's word for the log line (app/server/request-log.server.ts), never sent on.
    if (key === ROUTE_PATTERN_HEADER) response.locals.route = value;
    if (key === REQUEST_ROLE_HEADER) response.locals.role = value;
    if (key === ROUTE_PATTERN_HEADER || key === REQUEST_ROLE_HEADER) continue;
    if (key === "set-cookie") response.append(key, value);
    else response.setHeader(key, value);
  }
  if (!fetchResponse.body) return void response.end();
  await writeReadableStreamToWritable(fetchResponse.body, response);
}
