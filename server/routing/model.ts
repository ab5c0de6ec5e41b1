import { assertTravelModel, EARTH_RADIUS_KM, type TravelModel } from "./travel-matrix";
import type { VroomJob, VroomProblem, VroomVehicle } from "./vroom-format";

/**
 * A VROOM problem read once into flat arrays for the built-in solver, the feasibility checker's
 * timing and the unassigned reasons: jobs by position 0…n-1, locations by matrix row, one
 * duration/cost matrix per kind of vehicle. Positions, not VROOM ids, are what the solver moves.
 */

export class RoutingProblemError extends Error {
  override name = "RoutingProblemError";
}

/** A feature of VROOM's format the built-in solver does not handle (decision 0077). */
export class UnsupportedProblemError extends RoutingProblemError {
  override name = "UnsupportedProblemError";
}

export interface VehicleModel {
  index: number;
  id: number;
  description?: string;
  /** Matrix rows of the start and end, -1 for none (an open route). */
  start: number;
  end: number;
  capacity: Float64Array;
  twStart: number;
  twEnd: number;
  maxTasks: number;
  /** Row-major m×m. */
  durations: Float64Array;
  costs: Float64Array;
  distances: Float64Array | null;
  fixedCost: number;
  /** 1 where the vehicle has every skill the job needs. */
  eligible: Uint8Array;
  /** Vehicles with the same class are interchangeable: an empty one stands for all. */
  classKey: string;
}

export interface RoutingModel {
  jobCount: number;
  jobs: readonly VroomJob[];
  loc: Int32Array;
  service: Float64Array;
  setup: Float64Array;
  /** Amounts, row-major n×dims. */
  delivery: Float64Array;
  pickup: Float64Array;
  dims: number;
  hasPickups: boolean;
  /** First window's open and last window's close (±Infinity without windows). */
  windowStart: Float64Array;
  windowEnd: Float64Array;
  /** Flat [open, close, open, close…] when a job has more than one window. */
  windows: (Float64Array | null)[];
  priority: Float64Array;
  vehicles: VehicleModel[];
  locationCount: number;
  /** True when rows are the problem's own `location_index` (matrices given), false when built from coordinates. */
  indexed: boolean;
  /** Coordinates per matrix row, when the problem gave them. */
  coordinates: ([number, number] | undefined)[];
  /** Shipments the built-in solver leaves unassigned (`unsupported`). */
  shipmentSteps: { id: number; type: "pickup" | "delivery"; description?: string; location?: [number, number] }[];
}

export interface ModelOptions {
  /** How durations are estimated from coordinates when the problem has no matrix. */
  travel?: TravelModel;
  /** Reads features the built-in solver refuses (breaks, max_distance…): for the unassigned reasons of a VROOM answer. */
  allowUnsupported?: boolean;
}

const DEFAULT_PROFILE = "car";

function refuseUnsupported(vehicle: VroomVehicle) {
  const refuse = (what: string) => {
    throw new UnsupportedProblemError(`vehicle ${vehicle.id}: ${what} is not supported by the built-in solver; set ROUTING_URL to a VROOM server`);
  };
  if (vehicle.breaks?.length) refuse("breaks");
  if (vehicle.max_travel_time !== undefined) refuse("max_travel_time");
  if (vehicle.max_distance !== undefined) refuse("max_distance");
  if (vehicle.costs?.per_task_hour) refuse("costs.per_task_hour");
}

/** Matrix rows: the problem's own indices, or one row per distinct coordinate pair. */
function locate(problem: VroomProblem, options: ModelOptions) {
  const profiles = new Set(problem.vehicles.map((vehicle) => vehicle.profile ?? DEFAULT_PROFILE));
  const given = new Map<string, { durations: number[][]; distances?: number[][]; costs?: number[][] }>();
  for (const profile of profiles) {
    const own = problem.matrices?.[profile];
    const durations = own?.durations ?? problem.matrix;
    if (durations) given.set(profile, { durations, distances: own?.distances, costs: own?.costs });
  }
  if (given.size > 0 && given.size < profiles.size) {
    const missing = [...profiles].filter((profile) => !given.has(profile));
    throw new RoutingProblemError(`no durations matrix for profile ${missing.join(", ")}`);
  }
  if (given.size > 0) {
    const size = [...given.values()][0]!.durations.length;
    for (const [profile, matrices] of given) {
      for (const [name, rows] of Object.entries(matrices)) {
        if (rows && (rows.length !== size || rows.some((row) => row.length !== size))) {
          throw new RoutingProblemError(`matrices.${profile}.${name} must be ${size}×${size} like the others`);
        }
      }
    }
    const row = (index: number | undefined, what: string) => {
      if (index === undefined || index >= size) throw new RoutingProblemError(`${what}: location_index missing or outside the ${size}×${size} matrix`);
      return index;
    };
    const coordinates: ([number, number] | undefined)[] = new Array(size).fill(undefined);
    return { size, given, coordinates, row, point: undefined };
  }
  if (!options.travel) throw new RoutingProblemError("the problem has coordinates and no matrix: pass options.travel (speedKmh, detour)");
  assertTravelModel(options.travel);
  const rows = new Map<string, number>();
  const coordinates: [number, number][] = [];
  const point = (location: [number, number] | undefined, what: string) => {
    if (!location) throw new RoutingProblemError(`${what}: location missing (the problem has no matrix)`);
    const key = `${location[0]},${location[1]}`;
    let index = rows.get(key);
    if (index === undefined) {
      index = coordinates.length;
      rows.set(key, index);
      coordinates.push(location);
    }
    return index;
  };
  return { size: 0, given, coordinates, row: undefined, point };
}

function flat(rows: number[][], size: number): Float64Array {
  const matrix = new Float64Array(size * size);
  rows.forEach((row, index) => matrix.set(row, index * size));
  return matrix;
}

/**
 * Both matrices at once for a coordinate problem, the haversine of pairTravel written out with each
 * point's trigonometry computed once (a 2 000-stop day is two million pairs); same rounding.
 */
function coordinateMatrices(coordinates: [number, number][], travel: TravelModel) {
  const size = coordinates.length;
  const durations = new Float64Array(size * size);
  const distances = new Float64Array(size * size);
  const latitude = Float64Array.from(coordinates, ([, lat]) => (lat * Math.PI) / 180);
  const longitude = Float64Array.from(coordinates, ([lng]) => (lng * Math.PI) / 180);
  const cosine = latitude.map(Math.cos);
  const kmFactor = 2 * EARTH_RADIUS_KM * travel.detour;
  for (let from = 0; from < size; from++) {
    for (let to = from + 1; to < size; to++) {
      const h = Math.sin((latitude[to]! - latitude[from]!) / 2) ** 2 + cosine[from]! * cosine[to]! * Math.sin((longitude[to]! - longitude[from]!) / 2) ** 2;
      const km = kmFactor * Math.asin(Math.min(1, Math.sqrt(h)));
      durations[from * size + to] = durations[to * size + from] = Math.round((km / travel.speedKmh) * 3600);
      distances[from * size + to] = distances[to * size + from] = Math.round(km * 1000);
    }
  }
  return { durations, distances };
}

function sortedWindows(job: VroomJob): [number, number][] {
  return [...(job.time_windows ?? [])].sort((a, b) => a[0] - b[0]);
}

export function buildModel(problem: VroomProblem, options: ModelOptions = {}): RoutingModel {
  if (!options.allowUnsupported) problem.vehicles.forEach(refuseUnsupported);
  const jobs = problem.jobs ?? [];
  const seen = new Set<number>();
  for (const job of jobs) {
    if (seen.has(job.id)) throw new RoutingProblemError(`two jobs have id ${job.id}`);
    seen.add(job.id);
  }
  const vehicleIds = new Set(problem.vehicles.map((vehicle) => vehicle.id));
  if (vehicleIds.size !== problem.vehicles.length) throw new RoutingProblemError("two vehicles have the same id");

  const space = locate(problem, options);
  const where = (index: number | undefined, location: [number, number] | undefined, what: string) =>
    space.row ? space.row(index, what) : space.point!(location, what);
  const n = jobs.length;
  const loc = new Int32Array(n);
  jobs.forEach((job, position) => {
    loc[position] = where(job.location_index, job.location, `job ${job.id}`);
    if (job.location && space.row) space.coordinates[loc[position]!] = job.location;
  });
  const vehicleRows = problem.vehicles.map((vehicle) => {
    if (vehicle.start === undefined && vehicle.start_index === undefined && vehicle.end === undefined && vehicle.end_index === undefined) {
      throw new RoutingProblemError(`vehicle ${vehicle.id} has neither a start nor an end`);
    }
    const hasStart = vehicle.start !== undefined || vehicle.start_index !== undefined;
    const hasEnd = vehicle.end !== undefined || vehicle.end_index !== undefined;
    return {
      start: hasStart ? where(vehicle.start_index, vehicle.start, `vehicle ${vehicle.id} start`) : -1,
      end: hasEnd ? where(vehicle.end_index, vehicle.end, `vehicle ${vehicle.id} end`) : -1,
    };
  });
  const size = space.row ? space.size : space.coordinates.length;
  const built = space.row ? undefined : coordinateMatrices(space.coordinates as [number, number][], options.travel!);

  const dims = Math.max(
    0,
    ...jobs.map((job) => Math.max(job.delivery?.length ?? 0, job.pickup?.length ?? 0)),
    ...problem.vehicles.map((vehicle) => vehicle.capacity?.length ?? 0),
  );
  const delivery = new Float64Array(n * dims);
  const pickup = new Float64Array(n * dims);
  const service = new Float64Array(n);
  const setup = new Float64Array(n);
  const windowStart = new Float64Array(n);
  const windowEnd = new Float64Array(n);
  const priority = new Float64Array(n);
  const windows: (Float64Array | null)[] = [];
  jobs.forEach((job, position) => {
    job.delivery?.forEach((value, dim) => (delivery[position * dims + dim] = value));
    job.pickup?.forEach((value, dim) => (pickup[position * dims + dim] = value));
    service[position] = job.service ?? 0;
    setup[position] = job.setup ?? 0;
    priority[position] = job.priority ?? 0;
    const sorted = sortedWindows(job);
    windowStart[position] = sorted.length ? sorted[0]![0] : -Infinity;
    windowEnd[position] = sorted.length ? sorted[sorted.length - 1]![1] : Infinity;
    windows.push(sorted.length > 1 ? Float64Array.from(sorted.flat()) : null);
  });

  const matrixCache = new Map<string, Float64Array>();
  const cached = (key: string, make: () => Float64Array) => {
    let matrix = matrixCache.get(key);
    if (!matrix) matrixCache.set(key, (matrix = make()));
    return matrix;
  };
  const vehicles = problem.vehicles.map((vehicle, index): VehicleModel => {
    const profile = vehicle.profile ?? DEFAULT_PROFILE;
    const given = space.given.get(profile);
    const baseDurations = given ? cached(`d:${profile}`, () => flat(given.durations, size)) : built!.durations;
    const distances = given ? (given.distances ? cached(`m:${profile}`, () => flat(given.distances!, size)) : null) : built!.distances;
    const factor = vehicle.speed_factor ?? 1;
    const durations = factor === 1 ? baseDurations : cached(`d:${profile}:${factor}`, () => baseDurations.map((value) => value / factor));
    const perHour = vehicle.costs?.per_hour ?? 3600;
    const perKm = vehicle.costs?.per_km ?? 0;
    let costs = durations;
    if (given?.costs) {
      if (perHour !== 3600 || perKm) throw new RoutingProblemError(`vehicle ${vehicle.id}: a costs matrix and costs.per_hour/per_km together`);
      costs = cached(`c:${profile}`, () => flat(given.costs!, size));
    } else if (perHour !== 3600 || perKm) {
      if (perKm && !distances) throw new RoutingProblemError(`vehicle ${vehicle.id}: costs.per_km needs a distances matrix`);
      costs = cached(`c:${profile}:${factor}:${perHour}:${perKm}`, () =>
        durations.map((value, cell) => (value * perHour) / 3600 + (perKm ? (distances![cell]! * perKm) / 1000 : 0)),
      );
    }
    const capacity = new Float64Array(dims).fill(Infinity);
    vehicle.capacity?.forEach((value, dim) => (capacity[dim] = value));
    const skills = new Set(vehicle.skills ?? []);
    const eligible = Uint8Array.from(jobs, (job) => ((job.skills ?? []).every((skill) => skills.has(skill)) ? 1 : 0));
    const { start, end } = vehicleRows[index]!;
    const twStart = vehicle.time_window?.[0] ?? 0;
    const twEnd = vehicle.time_window?.[1] ?? Infinity;
    const maxTasks = vehicle.max_tasks ?? Infinity;
    const fixedCost = vehicle.costs?.fixed ?? 0;
    const classKey = [
      start,
      end,
      [...capacity].join("/"),
      twStart,
      twEnd,
      maxTasks,
      fixedCost,
      profile,
      factor,
      perHour,
      perKm,
      [...skills].sort().join("/"),
    ].join("|");
    return {
      index,
      id: vehicle.id,
      description: vehicle.description,
      start,
      end,
      capacity,
      twStart,
      twEnd,
      maxTasks,
      durations,
      costs,
      distances,
      fixedCost,
      eligible,
      classKey,
    };
  });

  const coordinates = space.row ? space.coordinates : (space.coordinates as [number, number][]);
  const shipmentSteps = (problem.shipments ?? []).flatMap((shipment) => [
    { id: shipment.pickup.id, type: "pickup" as const, description: shipment.pickup.description, location: shipment.pickup.location },
    { id: shipment.delivery.id, type: "delivery" as const, description: shipment.delivery.description, location: shipment.delivery.location },
  ]);
  return {
    jobCount: n,
    jobs,
    loc,
    service,
    setup,
    delivery,
    pickup,
    dims,
    hasPickups: pickup.some((value) => value > 0),
    windowStart,
    windowEnd,
    windows,
    priority,
    vehicles,
    locationCount: size,
    indexed: Boolean(space.row),
    coordinates,
    shipmentSteps,
  };
}

/** Travel between two rows for a vehicle (0 to or from "no location": an open route's end). */
export function durationOf(model: RoutingModel, vehicle: VehicleModel, from: number, to: number): number {
  return from < 0 || to < 0 ? 0 : vehicle.durations[from * model.locationCount + to]!;
}

export function costOf(model: RoutingModel, vehicle: VehicleModel, from: number, to: number): number {
  return from < 0 || to < 0 ? 0 : vehicle.costs[from * model.locationCount + to]!;
}

export function distanceOf(model: RoutingModel, vehicle: VehicleModel, from: number, to: number): number {
  return from < 0 || to < 0 || !vehicle.distances ? 0 : vehicle.distances[from * model.locationCount + to]!;
}

/** The earliest service start at or after `arrival` inside one of the job's windows; NaN after the last. */
export function earliestStart(model: RoutingModel, job: number, arrival: number): number {
  const multiple = model.windows[job];
  if (!multiple) {
    if (arrival > model.windowEnd[job]!) return NaN;
    return arrival < model.windowStart[job]! ? model.windowStart[job]! : arrival;
  }
  for (let index = 0; index < multiple.length; index += 2) {
    if (arrival <= multiple[index + 1]!) return arrival < multiple[index]! ? multiple[index]! : arrival;
  }
  return NaN;
}

/**
 * The latest arrival from which service can start inside a window no later than `latestStart`
 * (waiting for a window to open is allowed); -Infinity when none can.
 */
export function latestArrival(model: RoutingModel, job: number, latestStart: number): number {
  const multiple = model.windows[job];
  if (!multiple) {
    if (latestStart < model.windowStart[job]!) return -Infinity;
    return latestStart < model.windowEnd[job]! ? latestStart : model.windowEnd[job]!;
  }
  let best = -Infinity;
  for (let index = 0; index < multiple.length; index += 2) {
    if (multiple[index]! > latestStart) break;
    best = Math.min(multiple[index + 1]!, latestStart);
  }
  return best;
}
