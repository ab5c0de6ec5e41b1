import { routeArrivalEstimates, lateReasonLabels, type ArrivalEstimate, type ArrivalStop, type LateReason } from "@core/arrival-estimate";
import { formatLimaInstant } from "@core/lima-dates";
import type { DatabaseOrTransaction } from "../db/transaction";
import { loadRouteSettings } from "./route-settings";
import { loadRouteStops, stopsByDriver, type RouteStopRow } from "./route-stops";

/**
 * The server's door to the one arrival estimate (issue 40, decision 0094): the driver's card
 * (`listDriverStops`), the customer's tracking (`deliveryTracking`), the "pedido retrasado"
 * WhatsApp and staff's alarms all come through here, from the route as the database has it now.
 * Nothing is stored: every read recomputes from the plan, the proofs of the stops done and `now`,
 * so a stop done or a route changed shows at the next read.
 */

/** An estimate as the pages show it: Lima's clock, 'HH:MM'. */
export interface ArrivalView {
  stopsBefore: number;
  isNext: boolean;
  /** The single expected time (the driver's card may show it); null before the route is timed. */
  expected: string | null;
  window: { from: string; to: string } | null;
  late: { reason: LateReason; label: string; minutes: number } | null;
}

const hhmm = (instant: Date) => formatLimaInstant(instant, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

export function arrivalView(estimate: ArrivalEstimate): ArrivalView {
  return {
    stopsBefore: estimate.stopsBefore,
    isNext: estimate.isNext,
    expected: estimate.expected ? hhmm(estimate.expected) : null,
    window: estimate.window ? { from: hhmm(estimate.window.from), to: hhmm(estimate.window.to) } : null,
    late: estimate.late ? { ...estimate.late, label: lateReasonLabels[estimate.late.reason] } : null,
  };
}

const asArrivalStop = (stop: RouteStopRow): ArrivalStop => ({
  id: stop.id,
  status: stop.status,
  deliveryWindow: stop.deliveryWindow,
  plannedArrival: stop.estimatedArrivalAt,
  doneAt: stop.doneAt,
});

/** Estimates of the open stops of the given routes (`stopsByDriver`), plus the day's stops on nobody's route. */
function estimatesOf(stops: readonly RouteStopRow[], date: string, now: Date, serviceMinutes: number): Map<string, ArrivalEstimate> {
  const all = new Map<string, ArrivalEstimate>();
  for (const route of stopsByDriver(stops).values()) {
    for (const [id, estimate] of routeArrivalEstimates(route.map(asArrivalStop), { date, now, serviceMinutes })) all.set(id, estimate);
  }
  // A stop on nobody's route has no time; each is its own "route" so only a passed slot makes it late.
  for (const stop of stops.filter((row) => !row.driverId)) all.set(stop.id, offRouteArrival(stop, date, now));
  return all;
}

/** One driver's day: its stops in route order and each open stop's estimate, by delivery id. */
export async function driverDayArrivals(
  db: DatabaseOrTransaction,
  input: { date: string; driverId: string; now: Date },
): Promise<{ stops: RouteStopRow[]; estimates: Map<string, ArrivalEstimate> }> {
  const [settings, stops] = await Promise.all([loadRouteSettings(db), loadRouteStops(db, { date: input.date, drivers: [input.driverId] })]);
  return { stops, estimates: estimatesOf(stops, input.date, input.now, settings.serviceMinutes) };
}

/** A delivery on no route: no time to give, late only once its slot has closed. */
export function offRouteArrival(stop: { id: string; status: string; deliveryWindow: string }, date: string, now: Date): ArrivalEstimate {
  const estimate = routeArrivalEstimates([{ ...stop, plannedArrival: null, doneAt: null }], { date, now, serviceMinutes: 0 }).get(stop.id);
  return estimate ?? { stopsBefore: 0, isNext: false, expected: null, window: null, late: null };
}

/** A whole day (every driver, and the stops on nobody's route): the stops and each open one's estimate. */
export async function dayArrivals(
  db: DatabaseOrTransaction,
  input: { date: string; now: Date },
): Promise<{ stops: RouteStopRow[]; estimates: Map<string, ArrivalEstimate> }> {
  const [settings, stops] = await Promise.all([loadRouteSettings(db), loadRouteStops(db, { date: input.date, drivers: "all" })]);
  return { stops, estimates: estimatesOf(stops, input.date, input.now, settings.serviceMinutes) };
}
