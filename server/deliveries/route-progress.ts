import { deliveryWindowMinutes } from "@core/delivery-schedule";
import { limaDayStart } from "@core/lima-dates";
import { DONE_STATUSES, type RouteStopRow } from "./route-stops";

/**
 * How a route is going against its plan (issue 26), pure. The plan is each stop's estimated
 * arrival; the truth is when the driver finished each stop (the proof's time). The route's delay
 * is the larger of: how late the last finished stop was finished (its arrival plus the service
 * time), and how far past its arrival the next stop already is (a van that has not reported for a
 * while is at least that late). Negative: ahead of plan.
 */
export function routeDelayMinutes(stops: readonly RouteStopRow[], now: Date, serviceMinutes: number): number | null {
  const candidates: number[] = [];
  const finished = stops
    .filter((stop) => stop.doneAt && stop.estimatedArrivalAt)
    .sort((a, b) => a.doneAt!.getTime() - b.doneAt!.getTime())
    .at(-1);
  if (finished) candidates.push((finished.doneAt!.getTime() - finished.estimatedArrivalAt!.getTime()) / 60_000 - serviceMinutes);
  const next = stops.find((stop) => !DONE_STATUSES.includes(stop.status));
  if (next?.estimatedArrivalAt && now > next.estimatedArrivalAt) candidates.push((now.getTime() - next.estimatedArrivalAt.getTime()) / 60_000);
  if (candidates.length === 0) return null;
  return Math.round(Math.max(...candidates));
}

export interface RouteProgress {
  done: number;
  total: number;
  /** Minutes behind the plan (negative: ahead); null before anything can be said. */
  delayMinutes: number | null;
}

export function routeProgress(stops: readonly RouteStopRow[], now: Date, serviceMinutes: number): RouteProgress {
  return {
    done: stops.filter((stop) => DONE_STATUSES.includes(stop.status)).length,
    total: stops.length,
    delayMinutes: routeDelayMinutes(stops, now, serviceMinutes),
  };
}

export interface StopOutlook {
  /** Stops before this one on the route that are not finished yet. */
  stopsBefore: number;
  /** The driver's next stop is this one. */
  isNext: boolean;
  /** When the driver is expected, as a window that narrows as the stops before it are done. */
  window: { from: Date; to: Date } | null;
}

const FIVE_MINUTES = 5 * 60_000;
const floorToFive = (instant: number) => Math.floor(instant / FIVE_MINUTES) * FIVE_MINUTES;
const ceilToFive = (instant: number) => Math.ceil(instant / FIVE_MINUTES) * FIVE_MINUTES;

/**
 * What a customer may know of the route before their stop (issue 26): how many stops are left
 * before theirs and when the van should ring, never who or where those stops are. The window is the
 * plan's arrival moved by the route's delay (never earlier than the stop's own plan when the van is
 * ahead, since it waits for the window), ± 10 minutes plus 5 per unfinished stop before it (at most
 * ± 60), never starting in the past, rounded out to five minutes.
 */
export function stopOutlook(stops: readonly RouteStopRow[], stopId: string, now: Date, serviceMinutes: number): StopOutlook | null {
  const index = stops.findIndex((stop) => stop.id === stopId);
  if (index < 0) return null;
  const target = stops[index]!;
  const stopsBefore = stops.slice(0, index).filter((stop) => !DONE_STATUSES.includes(stop.status)).length;
  if (!target.estimatedArrivalAt) return { stopsBefore, isNext: stopsBefore === 0, window: null };
  const delay = routeDelayMinutes(stops, now, serviceMinutes) ?? 0;
  const expected = target.estimatedArrivalAt.getTime() + Math.max(0, delay) * 60_000;
  const margin = Math.min(60, 10 + 5 * stopsBefore) * 60_000;
  const from = Math.max(floorToFive(expected - margin), floorToFive(now.getTime()));
  const to = Math.max(ceilToFive(expected + margin), from + 2 * FIVE_MINUTES);
  return { stopsBefore, isNext: stopsBefore === 0, window: { from: new Date(from), to: new Date(to) } };
}

/** Minutes an arrival falls after its window's close (0 or less: on time): what the route sheet flags. */
export function lateMinutes(date: string, deliveryWindow: string, arrival: Date): number {
  const close = deliveryWindowMinutes[deliveryWindow]?.[1];
  if (close === undefined) return 0;
  return Math.round((arrival.getTime() - limaDayStart(date).getTime()) / 60_000 - close);
}
