import { z } from "zod";
import { buildTravelMatrix, roadKm, type LatLng, type TravelModel } from "./travel-matrix";
import type { VroomJob, VroomProblem, VroomSolution, VroomVehicle } from "./vroom-format";

/**
 * The small problem/solution format of issue 26 read by `npm run routes:solve` and the benchmark,
 * and its translation to and from the VROOM contract. Euclidean: travel time equals distance, in
 * the file's own units (the Solomon instances). Haversine: times in minutes on one clock (the
 * depot window's open is the day's start), travel from the great-circle distance × detour ÷ speed.
 */

const window = z.tuple([z.number(), z.number()]).refine(([ready, due]) => ready <= due, "a window ends before it opens");
const stopSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  x: z.number().optional(),
  y: z.number().optional(),
  lat: z.number().min(-90).max(90).optional(),
  lng: z.number().min(-180).max(180).optional(),
  demand: z.number().nonnegative().default(0),
  window: window.optional(),
  service: z.number().nonnegative().default(0),
});
const pointSchema = z.union([z.object({ x: z.number(), y: z.number() }), z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })]);

export const simpleProblemSchema = z
  .object({
    metric: z.enum(["euclidean", "haversine"]),
    speedKmh: z.number().positive().optional(),
    detour: z.number().min(1).optional(),
    depot: pointSchema,
    depotWindow: window,
    vehicles: z.object({ count: z.number().int().min(0), capacity: z.number().nonnegative() }),
    stops: z.array(stopSchema),
  })
  .superRefine((problem, context) => {
    const euclidean = problem.metric === "euclidean";
    const planar = (point: { x?: number; y?: number; lat?: number; lng?: number }) =>
      euclidean ? point.x !== undefined && point.y !== undefined : point.lat !== undefined && point.lng !== undefined;
    if (!planar(problem.depot)) context.addIssue({ code: "custom", path: ["depot"], message: euclidean ? "needs x and y" : "needs lat and lng" });
    const ids = new Set<string>();
    problem.stops.forEach((stop, index) => {
      if (!planar(stop)) context.addIssue({ code: "custom", path: ["stops", index], message: euclidean ? "needs x and y" : "needs lat and lng" });
      if (ids.has(stop.id)) context.addIssue({ code: "custom", path: ["stops", index, "id"], message: `repeats id ${stop.id}` });
      ids.add(stop.id);
    });
  });

export type SimpleProblem = z.infer<typeof simpleProblemSchema>;

export interface SimpleSolution {
  routes: { stops: string[]; distance: number }[];
  distance: number;
  vehicles: number;
  unassigned: string[];
}

/** The issue's defaults for a haversine file without speedKmh/detour (assumed, not measured: decision 0077). */
export const SIMPLE_DEFAULT_TRAVEL: TravelModel = { speedKmh: 20, detour: 1.35 };

export function simpleTravel(problem: SimpleProblem): TravelModel {
  return { speedKmh: problem.speedKmh ?? SIMPLE_DEFAULT_TRAVEL.speedKmh, detour: problem.detour ?? SIMPLE_DEFAULT_TRAVEL.detour };
}

type Point = { x?: number; y?: number; lat?: number; lng?: number };

/** Distance between two points of the file: Euclidean units, or estimated road kilometres. */
export function simpleDistance(problem: SimpleProblem, a: Point, b: Point): number {
  if (problem.metric === "euclidean") return Math.hypot(a.x! - b.x!, a.y! - b.y!);
  return roadKm({ lat: a.lat!, lng: a.lng! }, { lat: b.lat!, lng: b.lng! }, simpleTravel(problem));
}

export interface ToVroomOptions {
  /**
   * Whole numbers for a VROOM server: Euclidean times × 1000 and haversine minutes → seconds,
   * travel rounded up and windows rounded inwards, so VROOM's answer is also on time unrounded.
   */
  integral?: boolean;
  /**
   * Haversine files: also send the travel-model matrix (with `location_index`), so a VROOM server
   * answers the same question as the built-in solver instead of asking its road engine.
   */
  withMatrix?: boolean;
}

/**
 * The VROOM problem of a simple file: job ids 1…n in file order (the stop's own id is its
 * `description`), vehicles 1…count, all alike at the depot. Euclidean files carry their matrix;
 * haversine files carry coordinates, and the caller passes `simpleTravel(problem)` to the solver.
 */
export function simpleToVroom(problem: SimpleProblem, options: ToVroomOptions = {}): VroomProblem {
  const euclidean = problem.metric === "euclidean";
  const scale = euclidean ? (options.integral ? 1000 : 1) : 60;
  const time = (value: number, round: (value: number) => number) => (options.integral || !euclidean ? round(value * scale) : value);
  const timeWindow = ([open, close]: [number, number]): [number, number] => [time(open, Math.ceil), time(close, Math.floor)];
  const depot = euclidean ? { start_index: 0, end_index: 0 } : { start: lngLat(problem.depot), end: lngLat(problem.depot) };
  const vehicles: VroomVehicle[] = Array.from({ length: problem.vehicles.count }, (_, index) => ({
    id: index + 1,
    ...depot,
    capacity: [problem.vehicles.capacity],
    time_window: timeWindow(problem.depotWindow),
  }));
  const jobs: VroomJob[] = problem.stops.map((stop, index) => ({
    id: index + 1,
    description: stop.id,
    ...(euclidean ? { location_index: index + 1 } : { location: lngLat(stop) }),
    service: time(stop.service, Math.ceil),
    delivery: [stop.demand],
    ...(stop.window ? { time_windows: [timeWindow(stop.window)] } : {}),
  }));
  if (!euclidean && !options.withMatrix) return { vehicles, jobs };
  if (!euclidean) {
    const { durations, distances } = buildTravelMatrix([problem.depot, ...problem.stops] as LatLng[], simpleTravel(problem));
    vehicles.forEach((vehicle) => Object.assign(vehicle, { start_index: 0, end_index: 0 }));
    jobs.forEach((job, index) => (job.location_index = index + 1));
    return { vehicles, jobs, matrices: { car: { durations, distances } } };
  }
  const points: Point[] = [problem.depot, ...problem.stops];
  const durations = points.map((from) =>
    points.map((to) => (options.integral ? Math.ceil(simpleDistance(problem, from, to) * scale) : simpleDistance(problem, from, to))),
  );
  return { vehicles, jobs, matrices: { car: { durations } } };
}

function lngLat(point: Point): [number, number] {
  return [point.lng!, point.lat!];
}

const rounded = (value: number) => Math.round(value * 1e4) / 1e4;

/** The issue's solution format from a VROOM solution of `simpleToVroom(problem)`; distances from the file's own points. */
export function simpleFromVroom(problem: SimpleProblem, solution: VroomSolution): SimpleSolution {
  const byJobId = new Map(problem.stops.map((stop, index) => [index + 1, stop]));
  const routes = solution.routes
    .map((route) => ({
      vehicle: route.vehicle,
      stops: route.steps.flatMap((step) => (step.type === "job" && step.id !== undefined ? [byJobId.get(step.id)!] : [])),
    }))
    .filter((route) => route.stops.length > 0)
    .sort((a, b) => a.vehicle - b.vehicle)
    .map((route) => {
      const path: Point[] = [problem.depot, ...route.stops, problem.depot];
      let distance = 0;
      for (let leg = 1; leg < path.length; leg++) distance += simpleDistance(problem, path[leg - 1]!, path[leg]!);
      return { stops: route.stops.map((stop) => stop.id), distance };
    });
  const distance = routes.reduce((total, route) => total + route.distance, 0);
  return {
    routes: routes.map((route) => ({ stops: route.stops, distance: rounded(route.distance) })),
    distance: rounded(distance),
    vehicles: routes.length,
    unassigned: solution.unassigned.flatMap((task) => (byJobId.has(task.id) ? [byJobId.get(task.id)!.id] : [])),
  };
}
