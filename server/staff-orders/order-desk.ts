import { listSellableLines, type SellableLine } from "../catalog/index.server";
import { previewOneTimeOrder, type OneTimeOrderPreview } from "../checkout/index.server";
import { listServedDistricts, type ServedDistrict } from "../content/index.server";
import { findCallers, loadCallerPicture, parseCallerReference, type CallerMatch, type CallerPicture } from "../customers/index.server";
import type { Database } from "../db/client";
import { offeredDeliverySlots, type OfferedDate } from "../deliveries/index.server";
import { typedLines, type StaffOrderValues } from "@core/staff-order-form";

/** The picked caller's reference for "start a new customer" (nobody found, or somebody else calling). */
export const NEW_CALLER = "nuevo";

export interface OrderDesk {
  /** Callers matching the search, best first. */
  matches: CallerMatch[];
  /** The caller the order is typed for; null for a new customer or before one is picked. */
  caller: CallerPicture | null;
  /** Whether the form is open: a caller picked, or a new customer started. */
  open: boolean;
  sellable: SellableLine[];
  districts: ServedDistrict[];
  /** Per served district: its bookable dates, full days kept (staff may pass a full window with a reason). */
  slots: Record<number, OfferedDate[]>;
}

/**
 * Everything "Nuevo pedido" shows (issue 38): the callers matching the search; the caller picked
 * (`reference`), or else the first match — so Enter in the search box picks the first — unless
 * the office started a new customer (`nuevo`); the catalogue at today's one-time prices; the
 * served districts and, for each, the dates and windows the checkout's capacity rules offer.
 */
export async function loadOrderDesk(db: Database, input: { query: string; reference: string | null; now: Date }): Promise<OrderDesk> {
  const [matches, sellable, districts] = await Promise.all([findCallers(db, input.query), listSellableLines(db), listServedDistricts(db)]);
  const newCaller = input.reference === NEW_CALLER;
  const reference = newCaller ? null : (input.reference ?? matches[0]?.reference ?? null);
  const [caller, slots] = await Promise.all([
    reference ? loadCallerPicture(db, reference) : null,
    offeredDeliverySlots(db, { now: input.now, districts, keepFullDays: true }),
  ]);
  return { matches, caller, open: newCaller || caller !== null, sellable, districts, slots };
}

/** The live total of the form as typed (prices from the catalogue; nothing of the form's but lines and who). */
export async function previewStaffOrder(
  db: Database,
  values: Pick<StaffOrderValues, "cantidades" | "cliente" | "correo" | "telefono">,
): Promise<OneTimeOrderPreview | null> {
  const typed = typedLines(values.cantidades);
  if ("error" in typed) return null;
  const caller = parseCallerReference(values.cliente);
  return previewOneTimeOrder(db, {
    lines: typed.lines,
    userId: caller?.kind === "account" ? caller.userId : null,
    email: values.correo.trim().toLowerCase(),
    phone: values.telefono.trim(),
  });
}
