import { fieldErrors } from "@core/checkout-schema";
import type { z } from "@core/zod";
import type { DatabaseOrTransaction } from "../db/transaction";

/** What a catalogue save answers: done (with the row's id), or why nothing was written. */
export type CatalogSaveResult =
  { ok: true; id: number } | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> } | { ok: false; reason: "not_found" };

/** A price staff changed, handed to the subscriptions domain in the same transaction (decision 0055). */
export interface PriceChanged {
  productId: number;
  variantId: number | null;
  title: string;
  oldPriceCents: number;
  newPriceCents: number;
  now: Date;
}

/**
 * What the catalogue calls when a price changes. The subscriptions domain provides it (the route
 * wires `repriceSubscriptionsForCatalogChange`): subscriptions already use the catalogue's door, so
 * the catalogue calling theirs would close an import cycle between the two.
 */
export type OnPriceChange = (tx: DatabaseOrTransaction, change: PriceChanged) => Promise<unknown>;

export function parseCatalog<S extends z.ZodType>(
  schema: S,
  raw: unknown,
): { ok: true; data: z.infer<S> } | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> } {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, reason: "invalid", fieldErrors: fieldErrors(parsed.error) };
}

/** Whether saving `after` would change nothing in `before`: a repeated submit writes, audits and e-mails nothing. */
export function changesNothing(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  return Object.entries(after).every(([key, value]) => before[key] === value);
}
