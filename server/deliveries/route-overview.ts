import type { Database } from "../db/client";
import { listActiveDrivers } from "./dispatch-day";
import { vanOfDay, type VanShift } from "./route-plan";
import { latestRouteOptimisation, type RouteOptimisationResult } from "./route-optimisation";
import { lateMinutes, routeProgress, type RouteProgress } from "./route-progress";
import { loadRouteSettings, type RouteSettings } from "./route-settings";
import { loadRouteStops, stopsByDriver } from "./route-stops";

export interface RouteOverviewDriver {
  id: string;
  name: string;
  /** The van as last planned for the day, else the settings' default: what the optimise form starts from. */
  van: VanShift;
  progress: RouteProgress;
  /** Stops without their own point on this route ("ubicación aproximada"). */
  approximate: number;
  /** Stops whose estimated arrival falls after their window. */
  late: number;
}

export interface RouteOverview {
  settings: RouteSettings;
  drivers: RouteOverviewDriver[];
  /** Deliveries of the day on nobody's route. */
  unassigned: number;
  /** The day's latest applied "Optimizar rutas": what it could not place (those still off every route), and when. */
  lastRun: { at: string; by: string; unassigned: { deliveryId: string; deliveryNumber: string; reason: string }[] } | null;
  /** The day's latest plan when it waits for "Aplicar plan" (issue 40). */
  pendingPlan: { id: number; at: string; by: string; result: RouteOptimisationResult } | null;
  /** Each driver's open stops in route order with their points, for the map. */
  currentRoutes: { driverId: string; stops: { deliveryNumber: string; point: [number, number] | null }[] }[];
}

/**
 * Despacho's routes panel (issue 26): each active driver's van and progress for the day (done /
 * total, minutes ahead or behind the plan), and what the last optimisation left out.
 */
export async function loadRouteOverview(db: Database, date: string, now: Date): Promise<RouteOverview> {
  const [settings, drivers, stops, lastRun] = await Promise.all([
    loadRouteSettings(db),
    listActiveDrivers(db),
    loadRouteStops(db, { date, drivers: "all" }),
    latestRouteOptimisation(db, date),
  ]);
  const grouped = stopsByDriver(stops);
  const rows: RouteOverviewDriver[] = [];
  for (const driver of drivers) {
    const route = grouped.get(driver.id) ?? [];
    rows.push({
      ...driver,
      van: await vanOfDay(db, date, driver.id, settings),
      progress: routeProgress(route, now, settings.serviceMinutes),
      approximate: route.filter((stop) => stop.approximate).length,
      late: route.filter((stop) => stop.estimatedArrivalAt && lateMinutes(date, stop.deliveryWindow, stop.estimatedArrivalAt) > 0).length,
    });
  }
  const offRoute = new Set(stops.filter((stop) => !stop.driverId).map((stop) => stop.id));
  const pending = lastRun?.status === "planned" && lastRun.result.plan ? lastRun : null;
  return {
    settings,
    drivers: rows,
    unassigned: offRoute.size,
    pendingPlan: pending ? { id: pending.id, at: pending.createdAt.toISOString(), by: pending.createdBy, result: pending.result } : null,
    currentRoutes: rows.map((driver) => ({
      driverId: driver.id,
      stops: (grouped.get(driver.id) ?? []).map((stop) => ({
        deliveryNumber: stop.deliveryNumber,
        point: stop.point ? ([stop.point.lat, stop.point.lng] as [number, number]) : null,
      })),
    })),
    lastRun:
      lastRun && !pending
        ? {
            at: lastRun.createdAt.toISOString(),
            by: lastRun.createdBy,
            unassigned: lastRun.result.unassigned.filter((left) => offRoute.has(left.deliveryId)),
          }
        : null,
  };
}
