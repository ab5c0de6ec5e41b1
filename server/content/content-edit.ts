import { fieldErrors } from "@core/checkout-schema";
import { sql } from "drizzle-orm";
import type { z } from "@core/zod";
import type { Transaction } from "../db/transaction";

export type ContentRefusal = { ok: false; reason: "invalid"; fieldErrors: Record<string, string> } | { ok: false; reason: "not_found" };

/** What a content save answers: done (with the row's id when one was created), or why nothing was written. */
export type ContentSaveResult = { ok: true; id?: number } | ContentRefusal;

/**
 * Whether saving `after` would change nothing in `before`: a repeated submit (double click, retry)
 * then writes, audits and invalidates nothing a second time.
 */
export function changesNothing(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  return Object.entries(after).every(([key, value]) => before[key] === value);
}

/**
 * Creates of one kind wait for each other (a transaction-scoped advisory lock), so a form posted
 * twice at once finds the row the first post made instead of making a second one.
 */
export async function oneCreateAtATime(tx: Transaction, kind: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`content.create:${kind}`}))`);
}

/** Parses what staff typed, or the refusal the form shows (a Spanish message per field). */
export function parseContent<S extends z.ZodType>(schema: S, raw: unknown): { ok: true; data: z.infer<S> } | Extract<ContentRefusal, { reason: "invalid" }> {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, reason: "invalid", fieldErrors: fieldErrors(parsed.error) };
}
