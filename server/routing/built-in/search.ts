import { costOf, type RoutingModel } from "../model";
import { nearestJobs } from "./neighbours";
import { seededRandom, type Random } from "./random";
import { Route } from "./route";

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
/** Rounds per job at most: enough for any problem the time limit lets finish (a 100-stop day does ~10 000 in 2 s). */
const SMALL_PROBLEM_ROUNDS = 2_000;

class Solution {
  readonly routes: Route[];
  readonly routeOf: Int32Array;
  unassigned: number[] = [];
  /** The job lists of routes changed in this round, as they were before it. */
  private saved = new Map<number, number[]>();
  private savedUnassigned: number[] = [];
  private changed = new Set<number>();
  /** Scratch marks of the routes near the job being placed (recreate). */
  readonly routeStamp: Int32Array;
  stampCounter = 0;

  constructor(readonly model: RoutingModel) {
    this.routes = model.vehicles.map((vehicle) => new Route(model, vehicle));
    this.routeOf = new Int32Array(model.jobCount).fill(-1);
    this.routeStamp = new Int32Array(this.routes.length);
  }

  travelCost(): number {
    let total = 0;
    for (const route of this.routes) total += route.cost;
    return total;
  }

  begin(): void {
    this.saved.clear();
    this.changed.clear();
    this.savedUnassigned = this.unassigned.slice();
  }

  private touch(route: number): void {
    if (!this.saved.has(route)) this.saved.set(route, this.routes[route]!.jobs.slice());
    this.changed.add(route);
  }

  remove(job: number): void {
    const route = this.routeOf[job]!;
    this.touch(route);
    const jobs = this.routes[route]!.jobs;
    jobs.splice(jobs.indexOf(job), 1);
    this.routeOf[job] = -1;
  }

  /** Recomputes the caches of the routes the ruin cut. */
  settle(): void {
    for (const route of this.changed) this.routes[route]!.update();
    this.changed.clear();
  }

  insert(job: number, route: number, position: number): void {
    this.touch(route);
    this.routes[route]!.insert(job, position);
    this.changed.delete(route);
    this.routeOf[job] = route;
  }

  /** Puts back the routes and unassigned list as they were at `begin()`. */
  undo(): void {
    // Two passes: a job that moved between two changed routes must end up in its old one.
    for (const index of this.saved.keys()) for (const job of this.routes[index]!.jobs) this.routeOf[job] = -1;
    for (const [index, jobs] of this.saved) {
      const route = this.routes[index]!;
      route.jobs = jobs;
      route.update();
      for (const job of jobs) this.routeOf[job] = index;
    }
    this.unassigned = this.savedUnassigned;
    for (const job of this.unassigned) this.routeOf[job] = -1;
    this.saved.clear();
  }

  snapshot(): number[][] {
    return this.routes.map((route) => route.jobs.slice());
  }
}

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

function recreateOrders(model: RoutingModel): { weight: number; sort: Order }[] {
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
  return [
    { weight: 4, sort: shuffle },
    { weight: 4, sort: (jobs) => jobs.sort((a, b) => size(b) - size(a)) },
    { weight: 2, sort: (jobs) => jobs.sort((a, b) => fromDepot[b]! - fromDepot[a]!) },
    { weight: 1, sort: (jobs) => jobs.sort((a, b) => fromDepot[a]! - fromDepot[b]!) },
    { weight: 2, sort: (jobs) => jobs.sort((a, b) => windowLength(a) - windowLength(b)) },
    { weight: 1, sort: (jobs) => jobs.sort((a, b) => model.windowEnd[a]! - model.windowEnd[b]!) },
  ];
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
  const { model, routes, routeOf } = solution;
  const emptyClassesSeen = new Set<string>();
  const stamp = solution.routeStamp;
  for (const job of jobs) {
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
    if (bestRoute < 0) solution.unassigned.push(job);
    else solution.insert(job, bestRoute, bestPosition);
  }
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

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function search(model: RoutingModel, options: SearchOptions): Promise<SearchResult> {
  const random = seededRandom(options.seed);
  const solution = new Solution(model);
  const weights = unassignedWeights(model);
  const orders = recreateOrders(model);
  const all = Array.from({ length: model.jobCount }, (_, job) => job);
  pickOrder(orders, random)(all, random);
  solution.begin();
  recreate(solution, all, random, 0);

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
  // A handful of stops has few orders worth trying: no point spinning until the time limit.
  const rounds = Math.min(options.iterations, SMALL_PROBLEM_ROUNDS * model.jobCount);
  while (iteration < rounds && model.jobCount > 1) {
    const now = performance.now();
    if (now - started >= options.timeLimitMs || options.signal?.aborted) break;
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
  return { routes: bestRoutes, unassigned: bestUnassigned, iterations: iteration, cost: best };
}
