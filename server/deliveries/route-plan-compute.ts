import { deliveryWindowMinutes } from "@core/delivery-schedule";
import type { GeoPoint } from "@core/geo";
import { limaToday } from "@core/lima-dates";
import { capacityInLitres, clockTime } from "@core/route-schemas";
import type { Database } from "../db/client";
import type { PlannedRoute, PlannedStop, RouteOptimisationResult, RoutePlanSnapshot } from "../db/schema";
import {
  checkSolution,
  configuredRoutingEngine,
  describeUnassignedReason,
  planRoute,
  solve,
  standardSolveOptions,
  type RoutingEngine,
  type VroomJob,
  type VroomProblem,
  type VroomSolution,
} from "../routing/index.server";
import { instantOfSeconds, jobOf, loadAboard, secondsOfDay, serviceStarts, splitKept, travelModelOf, vanStart, vehicleOf, type VanShift } from "./route-plan";
import type { RouteSettings } from "./route-settings";
import { KEPT_STATUSES, loadRouteStops, type RouteStopRow } from "./route-stops";

const NO_POINT = "Sin ubicación: ni la dirección ni su distrito tienen un punto en el mapa. Márcala en el pedido o en Distritos.";

/** A VROOM answer that breaks the problem's own rules (decision 0093): shown as an error, never applied. */
export class InfeasibleAnswerError extends Error {
  override name = "InfeasibleAnswerError";
}

type Placed = RouteStopRow & { point: GeoPoint };

/** The window's close, in seconds after the day's Lima midnight (a day's end for an unknown window). */
const windowClose = (stop: RouteStopRow) => (deliveryWindowMinutes[stop.deliveryWindow]?.[1] ?? 24 * 60) * 60;

/**
 * Computes a day's plan without writing anything (issue 40). Every open delivery of the day that is
 * unassigned or on one of the chosen drivers' routes is offered to the solver with Despacho's
 * standard options (the same plan on any machine and load). A stop whose window has already closed
 * is offered without its window, so it is planned as early as its van's route allows and marked
 * "Con retraso" instead of dropped. A stop the solver cannot place but that a chosen driver already
 * has stays at the end of that driver's route, with the reason; only staff's tick at "Aplicar plan"
 * takes it off. Every answer, the built-in solver's or a VROOM server's, must pass `checkSolution`.
 */
export async function computeDayPlan(
  db: Database,
  input: { date: string; vans: VanShift[]; now: Date; engine?: RoutingEngine; driverNames: Map<string, string> },
  settings: RouteSettings,
): Promise<{ result: RouteOptimisationResult; snapshot: RoutePlanSnapshot }> {
  const { date, vans, now, driverNames } = input;
  const read = await loadRouteStops(db, { date, drivers: vans.map((van) => van.driverId), includeUnassigned: true });
  const candidates = read.filter((stop) => !KEPT_STATUSES.includes(stop.status));
  const placeable = candidates.filter((stop): stop is Placed => stop.point !== null);
  const today = limaToday(now);
  // Past this second every window that closed is missed: on the day itself, now; a past day, all of it.
  const passedBefore = date < today ? Infinity : date === today ? secondsOfDay(date, now) : -Infinity;
  const isPassed = (stop: RouteStopRow) => windowClose(stop) <= passedBefore;

  const starts = vans.map((van) => {
    const { kept } = splitKept(read.filter((stop) => stop.driverId === van.driverId));
    return { van, kept, start: vanStart({ date, van, kept, settings, now }), aboard: loadAboard(kept) };
  });
  const vehicles = starts.map(({ van, start, aboard }, index) => vehicleOf({ id: index + 1, van, start, settings, loadAboard: aboard }));
  const jobs: VroomJob[] = placeable.map((stop, index) => {
    const job = jobOf(stop, index + 1, settings);
    return isPassed(stop) ? { ...job, time_windows: undefined } : job;
  });
  const problem: VroomProblem = { vehicles, jobs };
  const travel = travelModelOf(settings);

  const solved = new Map<string, Placed[]>(vans.map((van) => [van.driverId, []]));
  const reasons = new Map<string, string>(candidates.filter((stop) => stop.point === null).map((stop) => [stop.id, NO_POINT]));
  let searchCutAtSeconds: number | null = null;
  if (placeable.length) {
    const engine = input.engine ?? configuredRoutingEngine();
    const solution: VroomSolution = await solve(problem, { engine, travel, ...standardSolveOptions(problem) });
    const issues = checkSolution(problem, solution, { travel, legsFromAnswer: engine.kind === "vroom" });
    if (issues.length) {
      console.warn(`Optimizar rutas: the ${engine.kind} answer is infeasible: ${JSON.stringify(issues.slice(0, 5))}`);
      throw new InfeasibleAnswerError(`${issues.length} feasibility issues`);
    }
    const cut = solution.summary.search?.cutAtMs;
    if (cut != null) searchCutAtSeconds = Math.round(cut / 1000);
    for (const route of solution.routes) {
      const van = vans[route.vehicle - 1];
      if (!van) continue;
      solved.set(
        van.driverId,
        route.steps.filter((step) => step.type === "job" && step.id !== undefined).map((step) => placeable[step.id! - 1]!),
      );
    }
    for (const left of solution.unassigned) {
      const stop = placeable[left.id - 1];
      if (stop) reasons.set(stop.id, describeUnassignedReason(left.reason ?? "fleet_full"));
    }
  }

  const nameOf = (driverId: string | null) => (driverId ? (driverNames.get(driverId) ?? "otro repartidor") : null);
  const planned: PlannedRoute[] = starts.map(({ van, kept, start, aboard }) => {
    const byTheSolver = solved.get(van.driverId) ?? [];
    // What the solver could not place but this driver already has: kept at the end, in route order.
    const tail = candidates.filter((stop) => stop.driverId === van.driverId && reasons.has(stop.id));
    const order = [...byTheSolver, ...tail];
    const timed = timeOrder({ date, van, start, aboard, settings, order });
    const stops = order.map((stop): PlannedStop => {
      const arrival = timed.arrivals.get(stop.id) ?? null;
      const arrivalSecond = arrival === null ? null : secondsOfDay(date, arrival);
      return {
        deliveryId: stop.id,
        deliveryNumber: stop.deliveryNumber,
        districtName: stop.districtName,
        deliveryWindow: stop.deliveryWindow,
        arrival: arrivalSecond === null ? null : clockTime(arrivalSecond / 60),
        lateMinutes: arrivalSecond === null ? (isPassed(stop) ? 1 : 0) : Math.max(0, Math.ceil((arrivalSecond - windowClose(stop)) / 60)),
        loadLitres: stop.loadLitres,
        approximate: stop.approximate,
        fromDriverId: stop.driverId,
        fromDriverName: nameOf(stop.driverId),
        fromPosition: stop.routePosition,
        ...(reasons.has(stop.id) ? { keptReason: reasons.get(stop.id)! } : {}),
        point: stop.point ? [stop.point.lat, stop.point.lng] : null,
      };
    });
    return {
      driverId: van.driverId,
      driverName: driverNames.get(van.driverId) ?? van.driverId,
      capacity: van.capacity,
      capacityUnit: van.capacityUnit,
      shiftStart: van.shiftStart,
      shiftEnd: van.shiftEnd,
      stops,
      keptOnRoad: kept.length,
      drivingMinutes: Math.round(timed.drivingSeconds / 60),
      distanceKm: Math.round(timed.distanceMetres / 100) / 10,
      loadLitres: aboard + order.reduce((sum, stop) => sum + stop.loadLitres, 0),
      capacityLitres: capacityInLitres(van),
      currentStops: candidates.filter((stop) => stop.driverId === van.driverId).length,
    };
  });

  const onAVan = new Set(planned.flatMap((route) => route.stops.map((stop) => stop.deliveryId)));
  const unassigned = candidates
    .filter((stop) => !onAVan.has(stop.id))
    .map((stop) => ({ deliveryId: stop.id, deliveryNumber: stop.deliveryNumber, reason: reasons.get(stop.id) ?? describeUnassignedReason("fleet_full") }))
    .sort((a, b) => a.deliveryNumber.localeCompare(b.deliveryNumber));
  const rows = read.map((stop) => ({ driverId: stop.driverId, status: stop.status, position: stop.routePosition }));
  const allStops = planned.flatMap((route) => route.stops.map((stop, index) => ({ route, stop, position: index + 1 + positionOffset(rows, route.driverId) })));
  const changed = allStops.filter(({ route, stop, position }) => stop.fromDriverId !== route.driverId || stop.fromPosition !== position).length;
  const result: RouteOptimisationResult = {
    routes: planned.map((route) => ({
      driverId: route.driverId,
      driverName: route.driverName,
      stops: route.stops.length,
      drivingMinutes: route.drivingMinutes,
    })),
    unassigned,
    kept: read.length - candidates.length,
    changed,
    drivingMinutes: planned.reduce((sum, route) => sum + route.drivingMinutes, 0),
    plan: {
      vans: planned,
      placed: allStops.filter(({ stop }) => !stop.keptReason).length,
      late: allStops.filter(({ stop }) => stop.lateMinutes > 0).length,
      newlyAssigned: allStops.filter(({ stop }) => stop.fromDriverId === null).length,
      movedBetweenVans: allStops.filter(({ route, stop }) => stop.fromDriverId !== null && stop.fromDriverId !== route.driverId).length,
      searchCutAtSeconds,
      depot: { label: settings.depotLabel, point: [settings.depotLat, settings.depotLng] },
      unassignedPoints: Object.fromEntries(
        candidates.filter((stop) => !onAVan.has(stop.id) && stop.point).map((stop) => [stop.id, [stop.point!.lat, stop.point!.lng] as [number, number]]),
      ),
    },
  };
  const snapshot: RoutePlanSnapshot = {
    vans: vans.map((van) => ({ ...van })),
    read: read.map((stop) => ({
      id: stop.id,
      status: stop.status,
      window: stop.deliveryWindow,
      driverId: stop.driverId,
      position: stop.routePosition,
      lat: stop.approximate ? null : (stop.point?.lat ?? null),
      lng: stop.approximate ? null : (stop.point?.lng ?? null),
    })),
  };
  return { result, snapshot };
}

/** Where a driver's open stops start counting: after the stops on the road or done, which keep their places. */
export function positionOffset(read: readonly { driverId: string | null; status: string; position: number | null }[], driverId: string): number {
  return Math.max(0, ...read.filter((stop) => stop.driverId === driverId && KEPT_STATUSES.includes(stop.status)).map((stop) => stop.position ?? 0));
}

/**
 * The times of a van's stops in the plan's order, in the solver's plan mode with each stop's own
 * window: a stop planned after its window is reached when the route gets there (late, no waiting),
 * exactly as the route sheet retimes it after "Aplicar plan".
 */
function timeOrder(input: {
  date: string;
  van: VanShift;
  start: { point: GeoPoint; second: number };
  aboard: number;
  settings: RouteSettings;
  order: RouteStopRow[];
}): { arrivals: Map<string, Date>; drivingSeconds: number; distanceMetres: number } {
  const placed = input.order.filter((stop): stop is Placed => stop.point !== null);
  const arrivals = new Map<string, Date>();
  if (placed.length === 0) return { arrivals, drivingSeconds: 0, distanceMetres: 0 };
  const problem: VroomProblem = {
    vehicles: [vehicleOf({ id: 1, van: input.van, start: input.start, settings: input.settings, loadAboard: input.aboard })],
    jobs: placed.map((stop, index) => jobOf(stop, index + 1, input.settings)),
  };
  const route = planRoute(
    problem,
    1,
    placed.map((_, index) => index + 1),
    { travel: travelModelOf(input.settings) },
  );
  for (const [jobId, second] of serviceStarts(route)) arrivals.set(placed[jobId - 1]!.id, instantOfSeconds(input.date, second));
  return { arrivals, drivingSeconds: route.duration, distanceMetres: route.distance ?? 0 };
}
