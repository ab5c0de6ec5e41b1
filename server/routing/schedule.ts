import { distanceOf, durationOf, costOf, earliestStart, type RoutingModel, type VehicleModel } from "./model";
import type { VroomViolation } from "./vroom-format";

/**
 * The times of one vehicle's route in a given order: arrival, wait, service start and load at every
 * step. It never refuses an order: a stop reached after its window is served late and reported as a
 * `delay`, as VROOM's plan mode does, so the route sheet can show a hand-moved stop that misses its
 * window (issue 26) with the same words a VROOM server would use.
 */

export interface TimedStep {
  type: "start" | "job" | "end";
  /** Job position in the model (jobs only). */
  job?: number;
  location: number;
  arrival: number;
  /** When service starts (after any wait); equals `arrival` for the start and end. */
  start: number;
  waiting: number;
  setup: number;
  service: number;
  /** Driving time and distance accumulated on arrival. */
  travel: number;
  distance: number;
  /** Load after the step, one entry per amount dimension. */
  load: number[];
  violations: VroomViolation[];
}

export interface TimedRoute {
  steps: TimedStep[];
  cost: number;
  travel: number;
  distance: number;
  setup: number;
  service: number;
  waiting: number;
  priority: number;
  delivery: number[];
  pickup: number[];
  violations: VroomViolation[];
}

function amountsOf(model: RoutingModel, source: Float64Array, jobs: readonly number[]): number[] {
  const totals = new Array<number>(model.dims).fill(0);
  for (const job of jobs) for (let dim = 0; dim < model.dims; dim++) totals[dim]! += source[job * model.dims + dim]!;
  return totals;
}

export function timeRoute(model: RoutingModel, vehicle: VehicleModel, jobs: readonly number[]): TimedRoute {
  const delivery = amountsOf(model, model.delivery, jobs);
  const pickup = amountsOf(model, model.pickup, jobs);
  const overloaded = (load: number[]) => load.some((value, dim) => value > vehicle.capacity[dim]!);
  const loadViolation = (load: number[]): VroomViolation[] => (overloaded(load) ? [{ cause: "load" }] : []);
  const steps: TimedStep[] = [];
  let load = delivery.slice();
  let time = vehicle.twStart;
  let travel = 0;
  let distance = 0;
  let previous = vehicle.start;
  let cost = jobs.length ? vehicle.fixedCost : 0;
  if (vehicle.start >= 0) {
    steps.push({
      type: "start",
      location: vehicle.start,
      arrival: time,
      start: time,
      waiting: 0,
      setup: 0,
      service: 0,
      travel,
      distance,
      load: load.slice(),
      violations: loadViolation(load),
    });
  }
  let setupTotal = 0;
  let serviceTotal = 0;
  let waitingTotal = 0;
  let priority = 0;
  for (const job of jobs) {
    const here = model.loc[job]!;
    const drive = durationOf(model, vehicle, previous, here);
    travel += drive;
    distance += distanceOf(model, vehicle, previous, here);
    cost += costOf(model, vehicle, previous, here);
    const arrival = time + drive;
    const violations: VroomViolation[] = [];
    let start = earliestStart(model, job, arrival);
    if (Number.isNaN(start)) {
      start = arrival;
      violations.push({ cause: "delay", duration: arrival - model.windowEnd[job]! });
    }
    if (vehicle.eligible[job] !== 1) violations.push({ cause: "skills" });
    const setup = previous !== here ? model.setup[job]! : 0;
    const service = model.service[job]!;
    load = load.map((value, dim) => value - model.delivery[job * model.dims + dim]! + model.pickup[job * model.dims + dim]!);
    violations.push(...loadViolation(load));
    steps.push({
      type: "job",
      job,
      location: here,
      arrival,
      start,
      waiting: start - arrival,
      setup,
      service,
      travel,
      distance,
      load: load.slice(),
      violations,
    });
    setupTotal += setup;
    serviceTotal += service;
    waitingTotal += start - arrival;
    priority += model.priority[job]!;
    time = start + setup + service;
    previous = here;
  }
  if (vehicle.end >= 0) {
    const drive = durationOf(model, vehicle, previous, vehicle.end);
    travel += drive;
    distance += distanceOf(model, vehicle, previous, vehicle.end);
    cost += jobs.length ? costOf(model, vehicle, previous, vehicle.end) : 0;
    time += drive;
    const late = time > vehicle.twEnd ? [{ cause: "delay", duration: time - vehicle.twEnd }] : [];
    steps.push({
      type: "end",
      location: vehicle.end,
      arrival: time,
      start: time,
      waiting: 0,
      setup: 0,
      service: 0,
      travel,
      distance,
      load: load.slice(),
      violations: late,
    });
  }
  leaveLate(steps);
  const violations: VroomViolation[] = steps.flatMap((step) => step.violations);
  if (jobs.length > vehicle.maxTasks) violations.push({ cause: "max_tasks" });
  return {
    steps,
    cost,
    travel,
    distance,
    setup: setupTotal,
    service: serviceTotal,
    waiting: waitingTotal,
    priority,
    delivery,
    pickup,
    violations: distinctCauses(violations),
  };
}

/**
 * The driver leaves the depot as late as the first stop allows: a wait at the first stop becomes
 * a later departure (the shift may start at 8:00 and the first window open at 9:00).
 */
function leaveLate(steps: TimedStep[]): void {
  const [first, second] = steps;
  if (first?.type !== "start" || second?.type !== "job" || second.waiting <= 0) return;
  first.arrival = first.start = first.arrival + second.waiting;
  second.arrival = second.start;
  second.waiting = 0;
}

function distinctCauses(violations: VroomViolation[]): VroomViolation[] {
  const byCause = new Map<string, VroomViolation>();
  for (const violation of violations) {
    const known = byCause.get(violation.cause);
    if (!known) byCause.set(violation.cause, { ...violation });
    else if (violation.duration !== undefined) known.duration = (known.duration ?? 0) + violation.duration;
  }
  return [...byCause.values()];
}
