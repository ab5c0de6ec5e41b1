import { and, eq } from "drizzle-orm";
import { deliveryWindowMinutes } from "@core/delivery-schedule";
import type { GeoPoint } from "@core/geo";
import { limaDayStart, limaToday } from "@core/lima-dates";
import { capacityInLitres, minutesOfDay } from "@core/route-schemas";
import { planRoute, type TravelModel, type VroomJob, type VroomProblem, type VroomRoute, type VroomVehicle } from "../routing/index.server";
import { deliveries, routePlans } from "../db/schema";
import type { DatabaseOrTransaction, Transaction } from "../db/transaction";
import { loadRouteSettings, type RouteSettings } from "./route-settings";
import { DONE_STATUSES, KEPT_STATUSES, loadRouteStops, type RouteStopRow } from "./route-stops";

/**
 * The contract with the solver (issue 26, decision 0077): Despacho speaks VROOM's problem format.
 * Times are seconds after Lima's midnight of the route's day, coordinates `[lng, lat]`, loads
 * litres. This file turns a day's stops and vans into that format and back.
 */

/** One van for a day: whose it is, what it carries and when it works. */
export interface VanShift {
  driverId: string;
  capacity: number;
  capacityUnit: string;
  shiftStart: string;
  shiftEnd: string;
}

export const travelModelOf = (settings: RouteSettings): TravelModel => ({ speedKmh: settings.averageSpeedKmh, detour: settings.detourFactor });

const lngLat = (point: GeoPoint): [number, number] => [point.lng, point.lat];

/** Seconds after the date's Lima midnight. */
export function secondsOfDay(date: string, instant: Date): number {
  return Math.round((instant.getTime() - limaDayStart(date).getTime()) / 1000);
}

export function instantOfSeconds(date: string, seconds: number): Date {
  return new Date(limaDayStart(date).getTime() + Math.round(seconds) * 1000);
}

/**
 * Where and when a van can take its next stop: the depot at its shift start, not before now on
 * the route's own day, and after the last stop it already started or finished (kept stops: en
 * camino, entregado, no entregado), from that stop.
 */
export function vanStart(input: { date: string; van: VanShift; kept: readonly RouteStopRow[]; settings: RouteSettings; now: Date }): {
  point: GeoPoint;
  second: number;
} {
  const { date, van, kept, settings, now } = input;
  let second = minutesOfDay(van.shiftStart) * 60;
  if (limaToday(now) === date) second = Math.max(second, secondsOfDay(date, now));
  let point: GeoPoint = { lat: settings.depotLat, lng: settings.depotLng };
  const last = kept.at(-1);
  if (last?.point) {
    point = last.point;
    const finished = last.doneAt ?? (last.estimatedArrivalAt ? new Date(last.estimatedArrivalAt.getTime() + settings.serviceMinutes * 60_000) : null);
    if (finished) second = Math.max(second, secondsOfDay(date, finished));
  }
  return { point, second };
}

/** A stop as a VROOM job: its point, its window, the time it takes and its load. */
export function jobOf(stop: RouteStopRow & { point: GeoPoint }, id: number, settings: RouteSettings): VroomJob {
  const [open, close] = deliveryWindowMinutes[stop.deliveryWindow] ?? [0, 24 * 60];
  return {
    id,
    description: stop.id,
    location: lngLat(stop.point),
    service: settings.serviceMinutes * 60,
    delivery: [stop.loadLitres],
    time_windows: [[open * 60, close * 60]],
  };
}

/** A van as a VROOM vehicle: from where it stands (vanStart) back to the depot by its shift's end, with the room it has left. */
export function vehicleOf(input: {
  id: number;
  van: VanShift;
  start: { point: GeoPoint; second: number };
  settings: RouteSettings;
  loadAboard: number;
}): VroomVehicle {
  const { id, van, start, settings } = input;
  const end = Math.max(start.second, minutesOfDay(van.shiftEnd) * 60);
  return {
    id,
    description: van.driverId,
    start: lngLat(start.point),
    end: [settings.depotLng, settings.depotLat],
    capacity: [Math.max(0, capacityInLitres(van) - input.loadAboard)],
    time_window: [start.second, end],
  };
}

/** When the driver rings at each job of a VROOM route: its arrival plus any wait for the window. */
export function serviceStarts(route: VroomRoute): Map<number, number> {
  const starts = new Map<number, number>();
  for (const step of route.steps) if (step.type === "job" && step.id !== undefined) starts.set(step.id, step.arrival + step.waiting_time);
  return starts;
}

/** The van a driver has on a day: the one "Optimizar rutas" stored, else the settings' default. */
export async function vanOfDay(db: DatabaseOrTransaction, date: string, driverId: string, settings: RouteSettings): Promise<VanShift> {
  const [plan] = await db
    .select()
    .from(routePlans)
    .where(and(eq(routePlans.deliveryDate, date), eq(routePlans.driverId, driverId)));
  return plan
    ? { driverId, capacity: plan.capacity, capacityUnit: plan.capacityUnit, shiftStart: plan.shiftStart, shiftEnd: plan.shiftEnd }
    : { driverId, capacity: settings.vanCapacity, capacityUnit: settings.vanCapacityUnit, shiftStart: settings.shiftStart, shiftEnd: settings.shiftEnd };
}

/** The kept stops (never moved) and the ones still to plan, each in route order. */
export function splitKept(stops: readonly RouteStopRow[]): { kept: RouteStopRow[]; open: RouteStopRow[] } {
  return { kept: stops.filter((stop) => KEPT_STATUSES.includes(stop.status)), open: stops.filter((stop) => !KEPT_STATUSES.includes(stop.status)) };
}

/** Load still aboard a van: its stops on the road, not yet handed over. */
export function loadAboard(kept: readonly RouteStopRow[]): number {
  return kept.filter((stop) => !DONE_STATUSES.includes(stop.status)).reduce((sum, stop) => sum + stop.loadLitres, 0);
}

/**
 * Recomputes the estimated arrival of each open stop of a driver's day in the route's current
 * order (after a stop is moved by hand, added or taken off): the solver's plan mode times the
 * order as it is, waits for windows and lets a late stop be late (the sheet flags it). Stops
 * already on the road or done keep their times. Writes only the arrivals that changed; the
 * caller's transaction holds the day's deliveries locked.
 */
export async function retimeDriverDay(tx: Transaction, input: { date: string; driverId: string; now: Date }): Promise<void> {
  const settings = await loadRouteSettings(tx);
  const [van, stops] = await Promise.all([
    vanOfDay(tx, input.date, input.driverId, settings),
    loadRouteStops(tx, { date: input.date, drivers: [input.driverId] }),
  ]);
  const { kept, open } = splitKept(stops);
  const placed = open.filter((stop): stop is RouteStopRow & { point: GeoPoint } => stop.point !== null);
  const arrivals = new Map<string, Date | null>(open.map((stop) => [stop.id, null]));
  if (placed.length) {
    const start = vanStart({ date: input.date, van, kept, settings, now: input.now });
    const problem: VroomProblem = {
      vehicles: [vehicleOf({ id: 1, van, start, settings, loadAboard: loadAboard(kept) })],
      jobs: placed.map((stop, index) => jobOf(stop, index + 1, settings)),
    };
    const route = planRoute(
      problem,
      1,
      placed.map((_, index) => index + 1),
      { travel: travelModelOf(settings) },
    );
    for (const [jobId, second] of serviceStarts(route)) arrivals.set(placed[jobId - 1]!.id, instantOfSeconds(input.date, second));
  }
  // Written in id order (decision 0025: rows of one table locked together, in key order).
  for (const stop of [...open].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const arrival = arrivals.get(stop.id) ?? null;
    if ((arrival?.getTime() ?? null) === (stop.estimatedArrivalAt?.getTime() ?? null)) continue;
    await tx.update(deliveries).set({ estimatedArrivalAt: arrival }).where(eq(deliveries.id, stop.id));
  }
}

/** Retimes each driver's day named (the route sheets they changed), one driver at a time. */
export async function retimeDriverDays(tx: Transaction, days: readonly { date: string; driverId: string | null }[], now: Date): Promise<void> {
  const unique = new Map<string, { date: string; driverId: string }>();
  for (const day of days) if (day.driverId) unique.set(`${day.date}|${day.driverId}`, { date: day.date, driverId: day.driverId });
  for (const day of [...unique.values()].sort((a, b) => a.date.localeCompare(b.date) || a.driverId.localeCompare(b.driverId))) {
    await retimeDriverDay(tx, { ...day, now });
  }
}
