import { deliveryWindowMinutes } from "./delivery-schedule";
import { limaDayStart } from "./lima-dates";

/**
 * The one arrival estimate of a day's route (issue 40, decision 0094): the driver's stop card, the
 * customer's tracking, the "pedido retrasado" WhatsApp and staff's late alarms all read this, so
 * they can never disagree. Pure: the caller passes the route as the database has it and `now`.
 */

/** One stop of a driver's day, in route order, as the estimate needs it. */
export interface ArrivalStop {
  id: string;
  status: string;
  /** The slot promised at checkout: manana, tarde, noche. */
  deliveryWindow: string;
  /** The plan's arrival (`deliveries.estimated_arrival_at`, set by Optimizar rutas and every retime). */
  plannedArrival: Date | null;
  /** When the driver finished it (the latest proof), for a done stop. */
  doneAt: Date | null;
}

/** Why a stop will miss its slot, for the customer and staff in plain Spanish. */
export type LateReason = "route_delayed" | "planned_after_slot" | "slot_passed";

export const lateReasonLabels: Record<LateReason, string> = {
  route_delayed: "el repartidor va retrasado en su ruta",
  planned_after_slot: "la ruta del día llega a tu zona después de tu horario",
  slot_passed: "el pedido aún no tiene hora de llegada en la ruta",
};

export interface ArrivalEstimate {
  /** Stops before this one on the route that are not finished yet. */
  stopsBefore: number;
  isNext: boolean;
  /** The expected arrival: the later of the plan and what the route's delay makes of it; null without a plan. */
  expected: Date | null;
  /** The window shown to the customer and on the driver's card, rounded out to five minutes. */
  window: { from: Date; to: Date } | null;
  /** Set when the stop will miss (or has missed) the slot promised at checkout. */
  late: { reason: LateReason; minutes: number } | null;
}

const DONE = ["delivered", "failed"];
const FIVE_MINUTES = 5 * 60_000;
const floorToFive = (instant: number) => Math.floor(instant / FIVE_MINUTES) * FIVE_MINUTES;
const ceilToFive = (instant: number) => Math.ceil(instant / FIVE_MINUTES) * FIVE_MINUTES;

export const isDoneStop = (stop: { status: string }) => DONE.includes(stop.status);

/**
 * How late the route runs against its plan, in minutes (negative: ahead): the larger of how late
 * the last finished stop was finished (its plan plus the service time) and how far past its plan
 * the next open stop already is (a van that has not reported for a while is at least that late).
 * Null when nothing can be said yet.
 */
export function routeDelayMinutes(stops: readonly ArrivalStop[], now: Date, serviceMinutes: number): number | null {
  const candidates: number[] = [];
  const finished = stops
    .filter((stop) => stop.doneAt && stop.plannedArrival)
    .sort((a, b) => a.doneAt!.getTime() - b.doneAt!.getTime())
    .at(-1);
  if (finished) candidates.push((finished.doneAt!.getTime() - finished.plannedArrival!.getTime()) / 60_000 - serviceMinutes);
  const next = stops.find((stop) => !isDoneStop(stop));
  if (next?.plannedArrival && now > next.plannedArrival) candidates.push((now.getTime() - next.plannedArrival.getTime()) / 60_000);
  if (candidates.length === 0) return null;
  return Math.round(Math.max(...candidates));
}

/** The instant a slot closes on a date (Lima); null for an unknown slot. */
export function slotCloses(date: string, deliveryWindow: string): Date | null {
  const close = deliveryWindowMinutes[deliveryWindow]?.[1];
  return close === undefined ? null : new Date(limaDayStart(date).getTime() + close * 60_000);
}

/**
 * Every open stop's estimate on one driver's route of `date` (stops in route order). The expected
 * arrival is the stop's plan moved by the route's delay when it runs late (never earlier than the
 * plan when it runs ahead: the van waits for the slot), and never before now. The window is that
 * time ± 10 minutes plus 5 per unfinished stop before it (at most ± 60), never starting in the
 * past. A stop is late when its expected arrival falls after its slot's close, or when the slot has
 * closed and the route has no time for it.
 */
export function routeArrivalEstimates(stops: readonly ArrivalStop[], input: { date: string; now: Date; serviceMinutes: number }): Map<string, ArrivalEstimate> {
  const { date, now, serviceMinutes } = input;
  const delay = Math.max(0, routeDelayMinutes(stops, now, serviceMinutes) ?? 0);
  const estimates = new Map<string, ArrivalEstimate>();
  let stopsBefore = 0;
  for (const stop of stops) {
    if (isDoneStop(stop)) continue;
    const close = slotCloses(date, stop.deliveryWindow);
    let expected: Date | null = null;
    let window: ArrivalEstimate["window"] = null;
    let late: ArrivalEstimate["late"] = null;
    if (stop.plannedArrival) {
      const at = Math.max(stop.plannedArrival.getTime() + delay * 60_000, now.getTime());
      expected = new Date(at);
      const margin = Math.min(60, 10 + 5 * stopsBefore) * 60_000;
      const from = Math.max(floorToFive(at - margin), floorToFive(now.getTime()));
      const to = Math.max(ceilToFive(at + margin), from + 2 * FIVE_MINUTES);
      window = { from: new Date(from), to: new Date(to) };
      if (close && at > close.getTime()) {
        const minutes = Math.round((at - close.getTime()) / 60_000);
        late = { reason: stop.plannedArrival.getTime() > close.getTime() ? "planned_after_slot" : "route_delayed", minutes };
      }
    } else if (close && now > close) {
      late = { reason: "slot_passed", minutes: Math.round((now.getTime() - close.getTime()) / 60_000) };
    }
    estimates.set(stop.id, { stopsBefore, isNext: stopsBefore === 0, expected, window, late });
    stopsBefore += 1;
  }
  return estimates;
}
