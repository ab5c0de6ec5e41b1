/**
 * Form handling shared by the /admin/contenido pages (issue 11): reads what staff typed, hands it
 * to the content domain (which validates with the zod schemas of core/content-schemas.ts), and
 * answers with a redirect, or a 400 with the Spanish messages and the typed values kept.
 */
import { data, redirect } from "react-router";
import type { ContentSaveResult } from "@server/content/index.server";
import { coercedInt32Id } from "@core/input-schemas";
import { readFormData, type BodyLimit } from "~/server/request-body.server";

export interface ContentFormData {
  intent: string;
  values: Record<string, string>;
  fieldErrors: Record<string, string>;
  error: string | null;
}

export function contentNotFound(message: string): never {
  throw data(message, { status: 404 });
}

/** A numeric id from the URL, checked before any query (a malformed one is the Spanish 404). */
export function contentIdParam(value: string | undefined, message: string): number {
  const parsed = coercedInt32Id().safeParse(value ?? "");
  if (!parsed.success || !/^\d+$/.test(value ?? "")) contentNotFound(message);
  return parsed.data;
}

/** The posted form as trimmed strings, only the fields named (anything else a client adds is ignored). */
export async function readContentForm(
  request: Request,
  fields: readonly string[],
  limit: BodyLimit = "form",
): Promise<{ intent: string; values: Record<string, string> }> {
  const form = await readFormData(request, limit);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  return { intent: text("intent"), values: Object.fromEntries(fields.map((name) => [name, text(name)])) };
}

export function refuseContent(intent: string, values: Record<string, string>, error: string, fieldErrors: Record<string, string> = {}) {
  return data<ContentFormData>({ intent, values, fieldErrors, error }, { status: 400 });
}

/** Redirects to `to` after a save; otherwise the form again with its messages, or the 404 of a vanished row. */
export function answerContentSave(result: ContentSaveResult, intent: string, values: Record<string, string>, to: string, notFoundMessage: string) {
  if (result.ok) throw redirect(to);
  if (result.reason === "not_found") contentNotFound(notFoundMessage);
  return refuseContent(intent, values, "Revisa los campos marcados.", result.fieldErrors);
}
