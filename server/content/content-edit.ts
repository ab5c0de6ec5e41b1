import { fieldErrors } from "@core/checkout-schema";
import type { z } from "@core/zod";

export type ContentRefusal = { ok: false; reason: "invalid"; fieldErrors: Record<string, string> } | { ok: false; reason: "not_found" };

/** What a content save answers: done (with the row's id when one was created), or why nothing was written. */
export type ContentSaveResult = { ok: true; id?: number } | ContentRefusal;

/** Parses what staff typed, or the refusal the form shows (a Spanish message per field). */
export function parseContent<S extends z.ZodType>(schema: S, raw: unknown): { ok: true; data: z.infer<S> } | Extract<ContentRefusal, { reason: "invalid" }> {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, reason: "invalid", fieldErrors: fieldErrors(parsed.error) };
}
