import { routeDelayMinutes } from "@core/arrival-estimate";
import { deliveryWindowMinutes } from "@core/delivery-schedule";
import { limaDayStart } from "@core/lima-dates";
import { DONE_STATUSES, type RouteStopRow } from "./route-stops";

export interface RouteProgress {
  done: number;
  total: number;
  /** Minutes behind the plan (negative: ahead); null before anything can be said. */
  delayMinutes: number | null;
}

/**
 * How a route is going against its plan (issue 26), pure: done / total, and the route's delay as
 * the one arrival estimate measures it (`@core/arrival-estimate`, issue 40), so Despacho's
 * "N min atrasado" and the customer's window move together.
 */
export function routeProgress(stops: readonly RouteStopRow[], now: Date, serviceMinutes: number): RouteProgress {
  return {
    done: stops.filter((stop) => DONE_STATUSES.includes(stop.status)).length,
    total: stops.length,
    delayMinutes: routeDelayMinutes(
      stops.map((stop) => ({ ...stop, plannedArrival: stop.estimatedArrivalAt })),
      now,
      serviceMinutes,
    ),
  };
}

/** Minutes an arrival falls after its window's close (0 or less: on time): what the route sheet flags. */
export function lateMinutes(date: string, deliveryWindow: string, arrival: Date): number {
  const close = deliveryWindowMinutes[deliveryWindow]?.[1];
  if (close === undefined) return 0;
  return Math.round((arrival.getTime() - limaDayStart(date).getTime()) / 60_000 - close);
}
