/**
 * Self-service rules of a subscription (issue 5, decision 0020) shared by the account pages and the
 * server: which actions each state allows, the date windows, the cancellation reasons.
 */
import { INT32_MAX } from "./input-schemas";
import { addDays, isoWeekday, limaToday } from "./lima-dates";
import { addMonthsClamped } from "./subscription-dates";

/** A pause lasts at most this many months. */
export const PAUSE_MAX_MONTHS = 6;
/** The next delivery can be moved within this many days of the first date it can take. */
export const DELIVERY_CHANGE_WINDOW_DAYS = 60;

export type SelfServiceAction =
  "pause" | "resume" | "skip" | "date" | "products" | "frequency" | "cadence" | "organization" | "card" | "billing" | "cancel" | "undo-cancel";

export interface SubscriptionState {
  status: string;
  /** Set while a cancellation waits for the end of the paid period. */
  endsOn: string | null;
}

/**
 * What the customer can do in each state. A cancellation waiting for its date leaves only undoing
 * it, the organisation and the card; a past-due subscription needs a new card first.
 */
export function availableActions(state: SubscriptionState): SelfServiceAction[] {
  if (state.endsOn && (state.status === "active" || state.status === "paused")) return ["undo-cancel", "organization", "card"];
  switch (state.status) {
    case "active":
      return ["skip", "date", "pause", "products", "frequency", "cadence", "organization", "card", "billing", "cancel"];
    case "paused":
      return ["resume", "pause", "products", "frequency", "cadence", "organization", "card", "billing", "cancel"];
    case "past_due":
      return ["card", "organization", "cancel"];
    default:
      return [];
  }
}

export function canDo(state: SubscriptionState, action: SelfServiceAction): boolean {
  return availableActions(state).includes(action);
}

/** A pause ends (the subscription resumes) on a date from tomorrow to six months ahead, in Lima. */
export function pauseDateRange(now: Date): { min: string; max: string } {
  const today = limaToday(now);
  return { min: addDays(today, 1), max: addMonthsClamped(today, PAUSE_MAX_MONTHS) };
}

export const CANCEL_REASONS = [
  { value: "precio", label: "Es muy caro para mí" },
  { value: "cantidad", label: "Me sobra agua, no la consumo a tiempo" },
  { value: "entregas", label: "Tuve problemas con las entregas" },
  { value: "mudanza", label: "Me mudo fuera de la zona de reparto" },
  { value: "pausa", label: "Prefiero comprar solo cuando lo necesito" },
  { value: "otro", label: "Otro motivo" },
] as const;

export function cancelReasonLabel(value: string): string | null {
  return CANCEL_REASONS.find((reason) => reason.value === value)?.label ?? null;
}

/** The form field of a product line in the products form: `qty:<productId>:<variantId or empty>`. */
export function quantityFieldName(productId: number, variantId: number | null): string {
  return `qty:${productId}:${variantId ?? ""}`;
}

/** The lines a products form asks for (quantity above 0), read back from its fields. */
export function linesFromQuantityFields(fields: Iterable<[string, unknown]>): {
  lines: { productId: number; variantId: number | null; quantity: number }[];
  invalid: boolean;
} {
  const lines: { productId: number; variantId: number | null; quantity: number }[] = [];
  let invalid = false;
  for (const [name, raw] of fields) {
    const match = /^qty:(\d+):(\d*)$/.exec(name);
    if (!match) continue;
    const text = String(raw).trim();
    if (text === "" || text === "0") continue;
    const quantity = Number(text);
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > 99) {
      invalid = true;
      continue;
    }
    const productId = Number(match[1]);
    const variantId = match[2] ? Number(match[2]) : null;
    // Ids come from the field's name, which a crafted form can make anything (issue 9).
    if (productId > INT32_MAX || (variantId !== null && variantId > INT32_MAX)) {
      invalid = true;
      continue;
    }
    lines.push({ productId, variantId, quantity });
  }
  return { lines, invalid };
}

/**
 * The dates a subscription takes up again when it resumes on `resumeDay` (issue 5): billing on
 * that day if its date passed meanwhile, and the next delivery on the first served weekday after
 * it if that passed too. The resume itself and the pages telling a paused subscription's next
 * charge and delivery use this one rule, so the page shows what will happen.
 */
export function datesOnResume(
  subscription: { nextBillingDate: string | null; nextDeliveryDate: string | null },
  resumeDay: string,
  servedWeekdays: number[],
): { nextBillingDate: string; nextDeliveryDate: string } {
  const nextBillingDate = subscription.nextBillingDate && subscription.nextBillingDate > resumeDay ? subscription.nextBillingDate : resumeDay;
  let nextDeliveryDate = subscription.nextDeliveryDate && subscription.nextDeliveryDate > resumeDay ? subscription.nextDeliveryDate : addDays(resumeDay, 1);
  for (let step = 0; step < 7 && servedWeekdays.length > 0 && !servedWeekdays.includes(isoWeekday(nextDeliveryDate)); step += 1)
    nextDeliveryDate = addDays(nextDeliveryDate, 1);
  return { nextBillingDate, nextDeliveryDate };
}
