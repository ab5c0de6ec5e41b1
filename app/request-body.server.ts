/**
 * Reading what a browser posts, without letting a malformed request become a 500 (issue 9):
 * `request.formData()` throws on a body that is not a form, and `request.json()` on one that is
 * not JSON. Each reader answers such a request itself, with a 4xx and a Spanish message.
 */
import { data } from "react-router";
import { FORBIDDEN_CHARACTERS, forbiddenFormCharacter } from "./form-characters.server";

export const METHOD_NOT_ALLOWED = "Método no permitido";
export const UNREADABLE_FORM = "No pudimos leer el formulario. Recarga la página e inténtalo de nuevo.";
export const UNSUPPORTED_FORM = "El formulario se envió en un formato que no aceptamos. Recarga la página e inténtalo de nuevo.";
export const UNREADABLE_JSON = "La solicitud no es válida.";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The posted form of an action. Forms post; any other method is a 405, a body of another type
 * a 415, and a body that does not parse, or that holds characters no form takes (a NUL byte; in
 * the staff area any control character: `form-characters.server.ts`), a 400 — thrown, so the
 * route's error boundary shows it.
 */
export async function readFormData(request: Request): Promise<FormData> {
  if (request.method !== "POST") throw data(METHOD_NOT_ALLOWED, { status: 405, headers: { Allow: "GET, POST" } });
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.includes(type)) throw data(UNSUPPORTED_FORM, { status: 415 });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data(UNREADABLE_FORM, { status: 400 });
  }
  if (forbiddenFormCharacter(request, form) !== null) throw data(FORBIDDEN_CHARACTERS, { status: 400 });
  return form;
}

/**
 * A JSON body, or null when it is missing or not JSON: the parse error says nothing worth keeping,
 * and the caller's schema refuses null with a Spanish 400 (tests/e2e/malformed-input.test.ts posts
 * broken JSON to every route).
 */
export async function readJson(request: Request): Promise<unknown> {
  return request.json().catch(() => null);
}

/** What a JSON endpoint answers a method other than POST. */
export function methodNotAllowedJson(): Response {
  return Response.json({ error: METHOD_NOT_ALLOWED }, { status: 405, headers: { Allow: "POST" } });
}
