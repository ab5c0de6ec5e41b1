/**
 * Reading what a browser posts, without letting a malformed request become a 500 (issue 9) or a
 * large one fill the server's memory (issue 24, decision 0073). Every body the shop reads comes
 * through these readers (a lint rule says so): each is bounded before it is read, by its declared
 * length and again by counting the bytes as they arrive, so a chunked upload without a
 * Content-Length is cut off too, at the limit of the route's kind. Past it the answer is a 413 with
 * a Spanish message (a page, or JSON for the API routes). A body that is not what it claims to be
 * is a 400, another method a 405, another type a 415 (a form that is not a form, JSON that is not
 * `application/json`).
 */
import { data } from "react-router";
import { FORBIDDEN_CHARACTERS, forbiddenFormCharacter } from "./form-characters.server";

export const METHOD_NOT_ALLOWED = "Método no permitido";
export const UNREADABLE_FORM = "No pudimos leer el formulario. Recarga la página e inténtalo de nuevo.";
export const UNSUPPORTED_FORM = "El formulario se envió en un formato que no aceptamos. Recarga la página e inténtalo de nuevo.";
export const UNREADABLE_JSON = "La solicitud no es válida.";
export const UNSUPPORTED_JSON = "La solicitud debe enviarse como JSON (Content-Type: application/json).";
export const BODY_TOO_LARGE = "Lo que enviaste es demasiado grande. Acorta el texto (o elige un archivo más liviano) e inténtalo de nuevo.";

const KiB = 1024;

/**
 * The limits, by kind of route (decision 0073). A form of the shop is a few fields of typed text:
 * the longest, a contact message or a complaint, is 4 000 characters, under 40 KB even when every
 * character is an encoded accent. Staff pages with long texts and pictures have their own.
 */
export const BODY_LIMITS = {
  /** Every form and JSON request unless the route names another kind. */
  form: 64 * KiB,
  /** A legal text of /admin/contenido (up to 100 000 characters of HTML, URL-encoded). */
  longText: 1024 * KiB,
  /** A form with a picture (5 MB, server/media) and its fields, in multipart. */
  upload: 5 * 1024 * KiB + 256 * KiB,
  /** A payment provider's or Meta's event (Culqi's and WhatsApp's are a few KB). */
  webhook: 256 * KiB,
  /** The driver app's queued taps (decision 0079): at most 100 taps of a few short fields. */
  driverQueue: 256 * KiB,
} as const;

export type BodyLimit = keyof typeof BODY_LIMITS;

/**
 * The error scripts/serve.mjs puts in a body's stream once it passes the largest limit, whatever
 * the route: recognised here by its name (serve.mjs is plain JavaScript outside the bundle).
 */
const EDGE_TOO_LARGE = "RequestBodyTooLargeError";

class BodyTooLarge extends Error {}
class UnreadableBody extends Error {}

/** API routes and webhooks answer JSON; pages a Spanish page through their error boundary. */
function refuse(request: Request, message: string, status: number): never {
  const path = new URL(request.url).pathname;
  if (path.startsWith("/api/") || path.startsWith("/webhooks/")) throw Response.json({ error: message }, { status });
  throw data(message, { status });
}

function tooLarge(request: Request): never {
  return refuse(request, BODY_TOO_LARGE, 413);
}

/** The media type of a Content-Type header, without its parameters, lower-cased. */
function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * Issue 39: a JSON endpoint takes only a body that says it is JSON. A cross-site form can post
 * text/plain (or a form) without a CORS preflight, so "any type, parsed as JSON" let another site
 * post JSON to the shop in a visitor's name; `application/json` cannot be sent that way. What every
 * caller sends: our own pages and the driver app (fetch with `application/json`), Meta's and
 * Culqi's webhooks (JSON, ../shared/reference/whatsapp-cloud-api.md and payments.md A.9). Anything
 * else is a 415 with a Spanish message, before a byte of the body is read.
 */
export function requireJsonContentType(request: Request): void {
  if (mediaType(request) !== "application/json") refuse(request, UNSUPPORTED_JSON, 415);
}

/**
 * The body's bytes, at most `maxBytes`: a declared length above it is refused before a byte is
 * read, and the count stops the read as soon as it passes it. The stream is released, never
 * cancelled, when it stops early: cancelling destroys the socket, and the 413 would never reach the
 * client (scripts/serve.mjs closes the connection after the answer instead).
 */
async function boundedBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length")?.trim();
  if (declared && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw new BodyTooLarge();
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = request.body.getReader();
  } catch {
    throw new UnreadableBody(); // read already
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      total += chunk.value.byteLength;
      if (total > maxBytes) throw new BodyTooLarge();
      chunks.push(chunk.value);
    }
  } catch (error) {
    if (error instanceof BodyTooLarge || (error instanceof Error && error.name === EDGE_TOO_LARGE)) throw new BodyTooLarge();
    // The client went away mid-body.
    throw new UnreadableBody();
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(new ArrayBuffer(total));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The body's bytes under the route's limit, or the 413; `unreadable` says what a body that broke off becomes. */
async function readBody<T>(request: Request, limit: BodyLimit, unreadable: () => T): Promise<Uint8Array<ArrayBuffer> | T> {
  try {
    return await boundedBytes(request, BODY_LIMITS[limit]);
  } catch (error) {
    if (error instanceof BodyTooLarge) tooLarge(request);
    if (error instanceof UnreadableBody) return unreadable();
    throw error;
  }
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The posted form of an action. Forms post; any other method is a 405, a body of another type
 * a 415, one past the route's limit a 413, and a body that does not parse, or that holds characters
 * no form takes (a NUL byte; in the staff area any control character: `form-characters.server.ts`),
 * a 400 — thrown, so the
 * route's error boundary shows it.
 */
export async function readFormData(request: Request, limit: BodyLimit = "form"): Promise<FormData> {
  if (request.method !== "POST") throw data(METHOD_NOT_ALLOWED, { status: 405, headers: { Allow: "GET, POST" } });
  const contentType = request.headers.get("content-type") ?? "";
  if (!FORM_TYPES.includes(mediaType(request))) throw data(UNSUPPORTED_FORM, { status: 415 });
  const unreadable = (): never => {
    throw data(UNREADABLE_FORM, { status: 400 });
  };
  const bytes = await readBody(request, limit, unreadable);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return unreadable();
  }
  if (forbiddenFormCharacter(request, form) !== null) throw data(FORBIDDEN_CHARACTERS, { status: 400 });
  return form;
}

/**
 * A JSON body, or null when it is missing or not JSON: the parse error says nothing worth keeping,
 * and the caller's schema refuses null with a Spanish 400 (tests/e2e/malformed-input.test.ts posts
 * broken JSON to every route). A body of another Content-Type is a 415 (`requireJsonContentType`),
 * past the limit a 413 (JSON on API routes).
 */
export async function readJson(request: Request, limit: BodyLimit = "form"): Promise<unknown> {
  requireJsonContentType(request);
  const bytes = await readBody(request, limit, () => null);
  if (bytes === null) return null;
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return null;
  }
}

/** The body's exact bytes (a webhook whose signature is an HMAC of them), or the 413. */
export async function readBytes(request: Request, limit: BodyLimit): Promise<Uint8Array> {
  return readBody(request, limit, (): never => {
    throw data(UNREADABLE_FORM, { status: 400 });
  });
}

/** The body as text (a webhook's raw body, whose signature is checked on the exact bytes). */
export async function readText(request: Request, limit: BodyLimit = "form"): Promise<string> {
  const bytes = await readBody(request, limit, (): never => {
    throw data(UNREADABLE_FORM, { status: 400 });
  });
  return new TextDecoder().decode(bytes);
}

/** What a JSON endpoint answers a method other than POST. */
export function methodNotAllowedJson(): Response {
  return Response.json({ error: METHOD_NOT_ALLOWED }, { status: 405, headers: { Allow: "POST" } });
}

/** Whether a thrown answer is this module's 413 (a route that swallows unreadable bodies must still pass it on). */
export function isBodyTooLarge(error: unknown): boolean {
  if (error instanceof Response) return error.status === 413;
  return typeof error === "object" && error !== null && "init" in error && (error as { init?: { status?: number } }).init?.status === 413;
}

/** What a refused post may still leave unread before its connection is given up instead. */
const DISCARD_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * A post refused before its body was read (no action on the route, a role's 404) leaves the rest of
 * its bytes on the keep-alive connection, and the client's next request on it hangs until the socket
 * is reset (seen in tests/e2e/malformed-input.test.ts). Reading it — up to a limit, past which the
 * stream is left and scripts/serve.mjs closes the connection after the answer — keeps it usable.
 */
export async function discardBody(request: Request): Promise<void> {
  if (request.bodyUsed || !request.body) return;
  const reader = request.body.getReader();
  let read = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      read += chunk.value.byteLength;
      if (read > DISCARD_LIMIT_BYTES) return;
    }
  } catch {
    // The client went away mid-body, or the body passed the server's ceiling: nothing to keep.
  } finally {
    reader.releaseLock();
  }
}
