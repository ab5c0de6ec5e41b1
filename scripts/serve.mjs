#!/usr/bin/env node
// The production HTTP server: the built React Router app behind Express. Ours rather than
// react-router-serve so we choose what each request costs and how responses are cached; see
// docs/decisions/0011-production-server.md and bench/RESULTS.md.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "react-router";
import { createMicroCache, SHARED_PAGE_HEADER } from "./micro-cache.mjs";

const root = path.resolve(import.meta.dirname, "..");
const clientDir = path.join(root, "build/client");
// Importing the build validates every environment variable (app/entry.server.tsx stops on a bad one);
// this file reads its own settings from there, never from process.env.
const build = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
const { port, host, logRequests, pageCacheSeconds, trustProxy: trustProxySetting, siteIsHttps } = build.entry.module.serverSettings();
const handleRequest = createRequestHandler(build, "production");
// TRUST_PROXY is validated, and the client address decided, by server/config/client-address.ts;
// Express only needs the same setting to believe a trusted proxy's X-Forwarded-Proto.
const trustProxy = expressTrustProxy(trustProxySetting);
// Stored pages are dropped when staff change the storefront in any process (decision 0040).
const microCache = createMicroCache({ seconds: pageCacheSeconds, generation: build.entry.module.storefrontGeneration });

const app = express();
app.disable("x-powered-by");
// Behind a TLS proxy the request URL must say https, or React Router's own origin check refuses
// every form post (the browser's Origin is https://…).
app.set("trust proxy", trustProxy);
// Level 4 keeps most of gzip's saving at about half the CPU of the default level 6. A form's
// answer to a script (POST …/.data: the action's data or a redirect, a few hundred bytes, streamed
// so compression cannot see its size) is sent as it is: a gzip stream per answer cost the checkout
// about a tenth of its CPU for nothing (decision 0063).
const scriptedFormAnswer = (request) => request.method === "POST" && request.path.endsWith(".data");
app.use(compression({ level: 4, filter: (request, response) => !scriptedFormAnswer(request) && compression.filter(request, response) }));
app.use((request, response, next) => {
  setSecurityHeaders(request, response);
  next();
});

if (logRequests) {
  app.use((request, response, next) => {
    const started = process.hrtime.bigint();
    response.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      console.log(`${request.method} ${request.originalUrl} ${response.statusCode} ${ms.toFixed(1)} ms`);
    });
    next();
  });
}

// Fingerprinted bundles never change: cache them for a year.
app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
// Images, logo, favicon: an hour. Paths without a file extension are pages and skip the disk.
const publicFiles = express.static(clientDir, { maxAge: "1h", index: false, redirect: false });
app.use((request, response, next) => (path.extname(request.path) ? publicFiles(request, response, next) : next()));

app.all("*", async (request, response, next) => {
  try {
    const fetchRequest = toFetchRequest(request, response);
    const fetchResponse = await microCache.serve(fetchRequest, (pageRequest) => handleRequest(pageRequest));
    await sendFetchResponse(response, fetchResponse);
  } catch (error) {
    // The visitor went away while the page was being sent (navigated on, closed the tab): nothing
    // failed on our side and there is no one left to answer.
    if (response.destroyed || request.destroyed || error?.code === "ERR_STREAM_DESTROYED" || error?.code === "ERR_STREAM_WRITE_AFTER_END") return;
    next(error);
  }
});

const server = app.listen(port, host, () => console.log(`Shop listening on http://${host ?? "localhost"}:${port}`));

// Stop taking connections at once; the database module closes the database and exits the
// process on the same signal (server/db/index.server.ts).
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => server.close());

/** Express request → Fetch Request, as @react-router/express does. */
function toFetchRequest(request, response) {
  const url = new URL(`${request.protocol}://${request.get("host") ?? "localhost"}${request.originalUrl}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else if (value !== undefined) headers.set(key, value);
  }
  // The socket's address, for per-client rate limits (app/session.server.ts). Set here, never
  // taken from the client.
  headers.set("x-socket-address", request.socket.remoteAddress ?? "");
  const controller = new AbortController();
  response.on("close", () => {
    if (!response.writableFinished) controller.abort();
  });
  const init = { method: request.method, headers, signal: controller.signal };
  if (request.method !== "GET" && request.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(request);
    init.duplex = "half";
  }
  return new Request(url, init);
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
 * strict default policy with their own, which carries a nonce (app/content-security-policy.server.ts).
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
    if (key === "set-cookie") response.append(key, value);
    else response.setHeader(key, value);
  }
  if (!fetchResponse.body) return void response.end();
  await writeReadableStreamToWritable(fetchResponse.body, response);
}
