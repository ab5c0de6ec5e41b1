/**
 * Building blocks for every schema that reads what a visitor sends (issue 9). PostgreSQL refuses a
 * NUL byte in text and anything past 2³¹−1 in an `integer` column with an error, so both are
 * refused here, as a Spanish validation message, before any query runs.
 */
import { z } from "./zod";

export const INT32_MAX = 2_147_483_647;

/** C0 controls (NUL included) and DEL; tab and line breaks are fine in free text only. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- as above
const LINE_CONTROL = /[\u0000-\u001f\u007f]/;

export const CONTROL_CHARACTERS = "Contiene caracteres no permitidos";

/** Whether a one-line value (name, e-mail, id, address) is free of control characters. */
export function isPlainLine(value: string): boolean {
  return !LINE_CONTROL.test(value);
}

/** Whether free text (a note, a reason) is free of control characters other than tab and line breaks. */
export function isPlainText(value: string): boolean {
  return !CONTROL.test(value);
}

/**
 * Text from outside that is stored rather than refused (a webhook's fields: refusing them would
 * lose what was said): without the control characters, NUL first of all, which PostgreSQL's
 * `text` does not take. Free text keeps its tabs and line breaks; a line loses them too.
 */
export function withoutControlCharacters(value: string, kind: "line" | "text"): string {
  return value.replace(new RegExp((kind === "line" ? LINE_CONTROL : CONTROL).source, "g"), "");
}

/** A one-line text field: no control characters, at most `max` characters. */
export const lineText = (max: number) => z.string().max(max).refine(isPlainLine, CONTROL_CHARACTERS);

/** A multi-line text field (tab and line breaks allowed). */
export const freeText = (max: number) => z.string().max(max).refine(isPlainText, CONTROL_CHARACTERS);

/** A database id: a positive integer that fits PostgreSQL's `integer`. */
export const int32Id = (message = "El valor ingresado no es válido") => z.number({ message }).int(message).positive(message).max(INT32_MAX, message);

/** The same, from a form field or JSON text ("12"). */
export const coercedInt32Id = (message?: string) => z.coerce.number().pipe(int32Id(message));

/** Whether a URL parameter can be a PostgreSQL uuid (checked before any query with it). */
export function isUuid(value: string | null | undefined): value is string {
  return typeof value === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
