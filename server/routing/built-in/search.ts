import { costOf, type RoutingModel } from "../model";
import { nearestJobs } from "./neighbours";
import { seededRandom, type Random } from "./random";
import { Solution } from "./solution";

/**
 * The built-in solver's search (decision 0077): a greedy insertion builds a first solution, then
 * ruin-and-recreate in the manner of SISR (Christiaens & Vanden Berghe, "Slack Induction by String
 * Removals for Vehicle Routing Problems", Transportation Science 54(2), 2020): cut a few strings of
 * consecutive stops from routes near a random stop, put every removed stop back at its cheapest
 * feasible place (skipping a place now and then, "blinks"), keep the result by simulated
 * annealing. Every route is feasible at every step (windows, capacity, shift); a stop that fits
 * nowhere stays unassigned, and fewer unassigned stops always beats less driving.
 */

export interface SearchOptions {
  seed: number;
  /** Stops after this many ruin-and-recreate rounds (the cooling follows it when finite). */
  iterations: number;
  /** Stops this many milliseconds after `startedAt` (the cooling follows it when iterations is infinite). */
  timeLimitMs: number;
  /** `performance.now()` when the caller's clock started (reading the problem counts too). */
  startedAt: number;
  /** Hands the event loop back this often, so a server keeps answering during a long solve. */
  yieldEveryMs: number;
  signal?: AbortSignal;
}

export interface SearchResult {
  /** Job positions per vehicle, in visiting order. */
  routes: number[][];
  unassigned: number[];
  iterations: number;
  /** The rounds the search meant to do (its work bound). */
  plannedIterations: number;
  /** Milliseconds from `startedAt` when the time limit cut the rounds short, else null (the work bound was reached). */
  cutAtMs: number | null;
  cost: number;
}

/** SISR's published settings: average removed stops, longest string, blink rate. */
const AVERAGE_REMOVED = 10;
const MAX_STRING = 10;
const BLINK_RATE = 0.01;
const NEIGHBOURS = 60;
/** Past this many jobs, a stop is only tried in routes holding one of its NEAR_JOBS nearest. */
const NEAR_ROUTES_FROM = 200;
const NEAR_JOBS = 30;
/** Rounds per job at most: a handful of stops has few orders worth trying. */
const SMALL_PROBLEM_ROUNDS = 2_000;

/** How much worse one unassigned stop is than any amount of driving (lexicographic objective). */
function unassignedWeights(model: RoutingModel): Float64Array {
  let largest = 0;
  for (const costs of new Set(model.vehicles.map((vehicle) => vehicle.costs))) {
    for (let cell = 0; cell < costs.length; cell++) if (costs[cell]! > largest && Number.isFinite(costs[cell])) largest = costs[cell]!;
  }
  for (const vehicle of model.vehicles) largest = Math.max(largest, vehicle.fixedCost);
  const unit = (largest * 2 + 1) * (model.jobCount + 1) * 10;
  // VROOM serves higher priorities first; a priority point outweighs any number of plain stops.
  return Float64Array.from(model.priority, (priority) => unit * (1 + priority * (model.jobCount + 1)));
}

function objective(solution: Solution, weights: Float64Array): number {
  let total = solution.travelCost();
  for (const job of solution.unassigned) total += weights[job]!;
  return total;
}

type Order = (jobs: number[], random: Random) => void;

function recreateOrders(model: RoutingModel): { orders: { weight: number; sort: Order }[]; farthestFirst: (jobs: number[]) => void } {
  const dims = model.dims;
  const size = (job: number) => {
    let total = 0;
    for (let dim = 0; dim < dims; dim++) total += model.delivery[job * dims + dim]! + model.pickup[job * dims + dim]!;
    return total;
  };
  const vehicle = model.vehicles[0]!;
  const fromDepot = Float64Array.from(model.loc, (here) => costOf(model, vehicle, vehicle.start >= 0 ? vehicle.start : vehicle.end, here));
  const windowLength = (job: number) => model.windowEnd[job]! - model.windowStart[job]!;
  const shuffle: Order = (jobs, random) => {
    for (let index = jobs.length - 1; index > 0; index--) {
      const other = random.below(index + 1);
      [jobs[index], jobs[other]] = [jobs[other]!, jobs[index]!];
    }
  };
  const farthestFirst = (jobs: number[]) => jobs.sort((a, b) => fromDepot[b]! - fromDepot[a]!);
  const orders: { weight: number; sort: Order }[] = [
    { weight: 4, sort: shuffle },
    { weight: 4, sort: (jobs) => jobs.sort((a, b) => size(b) - size(a)) },
    { weight: 2, sort: farthestFirst },
    { weight: 1, sort: (jobs) => jobs.sort((a, b) => fromDepot[a]! - fromDepot[b]!) },
    { weight: 2, sort: (jobs) => jobs.sort((a, b) => windowLength(a) - windowLength(b)) },
    { weight: 1, sort: (jobs) => jobs.sort((a, b) => model.windowEnd[a]! - model.windowEnd[b]!) },
  ];
  return { orders, farthestFirst };
}

function pickOrder(orders: { weight: number; sort: Order }[], random: Random): Order {
  const total = orders.reduce((sum, order) => sum + order.weight, 0);
  let draw = random.next() * total;
  for (const order of orders) {
    draw -= order.weight;
    if (draw < 0) return order.sort;
  }
  return orders[0]!.sort;
}

/**
 * Puts each job at its cheapest feasible place: over every route for the first solution, then
 * (with `near`) only over the routes that hold one of its nearest jobs, plus one empty route per
 * kind of vehicle — a stop is never best placed in a route on the other side of the city, and a
 * 2 000-stop day would otherwise try every place of every van for each stop.
 */
function recreate(solution: Solution, jobs: number[], random: Random, blink: number, near?: Int32Array[]): void {
  for (const job of jobs) {
    // Nothing near fits (its neighbours unplaced, or their vans full): every route is tried before
    // the stop is left out, so "unassigned" always means no place anywhere.
    const best = cheapestPlace(solution, job, random, blink, near) ?? (near ? cheapestPlace(solution, job, random, 0) : null);
    if (!best) solution.unassigned.push(job);
    else solution.insert(job, best.route, best.position);
  }
}

const emptyClassesSeen = new Set<string>();

function cheapestPlace(solution: Solution, job: number, random: Random, blink: number, near?: Int32Array[]): { route: number; position: number } | null {
  const { model, routes, routeOf } = solution;
  const stamp = solution.routeStamp;
  let bestCost = Infinity;
  let bestRoute = -1;
  let bestPosition = -1;
  emptyClassesSeen.clear();
  const mark = ++solution.stampCounter;
  if (near) for (const other of near[job]!) if (routeOf[other]! >= 0) stamp[routeOf[other]!] = mark;
  const closes = model.windowEnd[job]!;
  for (let index = 0; index < routes.length; index++) {
    const route = routes[index]!;
    if (route.jobs.length === 0) {
      if (emptyClassesSeen.has(route.vehicle.classKey)) continue;
      emptyClassesSeen.add(route.vehicle.classKey);
    } else if (near && stamp[index] !== mark) {
      continue;
    }
    if (!route.accepts(job)) continue;
    const count = route.jobs.length;
    for (let position = 0; position <= count; position++) {
      if (route.departureAt(position) > closes) break;
      if (blink > 0 && random.next() < blink) continue;
      const cost = route.insertionCost(job, position, bestCost);
      if (cost < bestCost) {
        bestCost = cost;
        bestRoute = index;
        bestPosition = position;
      }
    }
  }
  return bestRoute < 0 ? null : { route: bestRoute, position: bestPosition };
}

/** SISR's ruin: strings of consecutive stops cut from a few routes near a random seed stop. */
function ruin(solution: Solution, neighbours: Int32Array[], random: Random): number[] {
  const { model, routes, routeOf } = solution;
  const removed: number[] = [];
  let used = 0;
  let assigned = 0;
  for (const route of routes) {
    if (route.jobs.length) {
      used++;
      assigned += route.jobs.length;
    }
  }
  if (assigned === 0) return removed;
  const longest = Math.min(MAX_STRING, assigned / used);
  const maxStrings = (4 * AVERAGE_REMOVED) / (1 + longest) - 1;
  const strings = Math.floor(random.next() * maxStrings) + 1;
  const seed = random.below(model.jobCount);
  const cut = new Set<number>();
  const candidates = [seed, ...neighbours[seed]!];
  for (const job of candidates) {
    if (cut.size >= strings) break;
    const index = routeOf[job]!;
    if (index < 0 || cut.has(index)) continue;
    cut.add(index);
    const jobs = routes[index]!.jobs;
    const length = Math.floor(random.next() * Math.min(jobs.length, longest)) + 1;
    const at = jobs.indexOf(job);
    const taken = random.next() < 0.5 || length === jobs.length ? stringAround(jobs, at, length, 0, random) : splitString(jobs, at, length, random);
    for (const victim of taken) {
      solution.remove(victim);
      removed.push(victim);
    }
  }
  solution.settle();
  return removed;
}

/** `length` consecutive jobs of a route containing position `at`, minus `kept` in their middle. */
function stringAround(jobs: number[], at: number, length: number, kept: number, random: Random): number[] {
  const span = length + kept;
  const lowest = Math.max(0, at - span + 1);
  const highest = Math.min(at, jobs.length - span);
  const first = lowest + random.below(highest - lowest + 1);
  const string = jobs.slice(first, first + span);
  if (kept === 0) return string;
  const keepFrom = 1 + random.below(Math.max(1, length - 1));
  return [...string.slice(0, keepFrom), ...string.slice(keepFrom + kept)];
}

function splitString(jobs: number[], at: number, length: number, random: Random): number[] {
  let kept = 1;
  while (length + kept < jobs.length && random.next() < 0.5) kept++;
  if (length + kept > jobs.length) return stringAround(jobs, at, length, 0, random);
  return stringAround(jobs, at, length, kept, random);
}

/**
 * Stops in the order a sweep meets them turning around the depot (Gillett & Miller, 1974), when
 * the problem has coordinates and one depot; null otherwise (a matrix-only problem).
 */
function sweepOrder(model: RoutingModel): number[] | null {
  const depots = new Set(model.vehicles.map((vehicle) => (vehicle.start >= 0 ? vehicle.start : vehicle.end)));
  const depot = depots.size === 1 ? model.coordinates[[...depots][0]!] : undefined;
  if (!depot || model.loc.some((row) => !model.coordinates[row])) return null;
  const angle = Float64Array.from(model.loc, (row) => {
    const [lng, lat] = model.coordinates[row]!;
    return Math.atan2(lat - depot[1], lng - depot[0]);
  });
  return Array.from({ length: model.jobCount }, (_, job) => job).sort((a, b) => angle[a]! - angle[b]!);
}

/** Past this many stops with coordinates, the sweep alone builds the first solution. */
const SWEEP_ALONE_FROM = 500;

/**
 * The first solution, by cheapest feasible insertion in two orders, the better kept: the stops
 * farthest from the depot first (as Solomon's I1 seeds its routes), and the sweep around the
 * depot. On the bench's 2 000-stop day (vans full by capacity) the sweep gave 90 h of driving in
 * 0.3 s and farthest-first 207 h in 1.2 s; on the matrix-only Solomon files only the first applies.
 */
function firstSolution(model: RoutingModel, weights: Float64Array, farthestFirst: (jobs: number[]) => void, random: Random): Solution {
  const sweep = sweepOrder(model);
  const orders: number[][] = sweep ? [sweep] : [];
  if (!sweep || model.jobCount < SWEEP_ALONE_FROM) {
    const far = Array.from({ length: model.jobCount }, (_, job) => job);
    farthestFirst(far);
    orders.push(far);
  }
  let best: Solution | undefined;
  for (const order of orders) {
    const solution = new Solution(model);
    solution.begin();
    recreate(solution, order, random, 0);
    if (!best || objective(solution, weights) < objective(best, weights)) best = solution;
  }
  return best!;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function search(model: RoutingModel, options: SearchOptions): Promise<SearchResult> {
  const random = seededRandom(options.seed);
  const weights = unassignedWeights(model);
  const { orders, farthestFirst } = recreateOrders(model);
  const solution = firstSolution(model, weights, farthestFirst, random);

  let current = objective(solution, weights);
  let best = current;
  let bestRoutes = solution.snapshot();
  let bestUnassigned = solution.unassigned.slice();
  const assigned = model.jobCount - solution.unassigned.length;
  const usedRoutes = solution.routes.filter((route) => route.jobs.length).length;
  const averageEdge = solution.travelCost() / Math.max(1, assigned + usedRoutes);
  const hot = averageEdge * 1;
  const cold = averageEdge * 0.01;

  const neighbours = model.jobCount > 1 ? nearestJobs(model, NEIGHBOURS) : [];
  const near = model.jobCount > NEAR_ROUTES_FROM ? neighbours.map((list) => list.subarray(0, NEAR_JOBS)) : undefined;
  const searchStarted = performance.now();
  const started = options.startedAt;
  let lastYield = performance.now();
  let iteration = 0;
  let cutAtMs: number | null = null;
  const rounds = model.jobCount > 1 ? Math.min(options.iterations, SMALL_PROBLEM_ROUNDS * model.jobCount) : 0;
  while (iteration < rounds) {
    const now = performance.now();
    // The time limit is a safety cap: past it the answer depends on the machine's load, so say so.
    if (now - started >= options.timeLimitMs) {
      cutAtMs = now - started;
      break;
    }
    if (options.signal?.aborted) break;
    if (now - lastYield >= options.yieldEveryMs) {
      await yieldToEventLoop();
      lastYield = performance.now();
    }
    // Cooling follows the rounds when the caller counts them (repeatable), else the clock too.
    const byRounds = iteration / rounds;
    const progress = Number.isFinite(options.iterations)
      ? byRounds
      : Math.max(byRounds, (now - searchStarted) / (started + options.timeLimitMs - searchStarted));
    const temperature = hot * Math.pow(cold / hot, progress);
    iteration++;

    solution.begin();
    const removed = ruin(solution, neighbours, random);
    const again = removed.concat(solution.unassigned);
    solution.unassigned = [];
    pickOrder(orders, random)(again, random);
    recreate(solution, again, random, BLINK_RATE, near);
    const candidate = objective(solution, weights);
    if (candidate < current - temperature * Math.log(random.next())) {
      current = candidate;
      if (candidate < best - 1e-9) {
        best = candidate;
        bestRoutes = solution.snapshot();
        bestUnassigned = solution.unassigned.slice();
      }
    } else {
      solution.undo();
    }
  }
  return { routes: bestRoutes, unassigned: bestUnassigned, iterations: iteration, plannedIterations: rounds, cutAtMs, cost: best };
}
