import { pairTravel, type TravelModel } from "./travel-matrix";
import type { VroomJob, VroomProblem, VroomSolution, VroomVehicle } from "./vroom-format";

/**
 * An independent check of any engine's answer against the problem (issue 26): every job served
 * once or listed unassigned with a reason, each route's times recomputed from the problem's own
 * matrix (or coordinates and the travel model) — windows, shift, capacity at every step, skills,
 * task limit — and the times the route reports agree with that recomputation. Written apart from
 * the solver on purpose: it is the tests' and the benchmark's judge, not the solver's own opinion.
 */

export interface FeasibilityIssue {
  vehicle?: number;
  job?: number;
  message: string;
}

export interface CheckOptions {
  /** Needed when the problem has coordinates and no matrix. */
  travel?: TravelModel;
  /**
   * Take each leg's driving time from the answer (the difference of its steps' cumulative
   * `duration`) instead of recomputing it: for a VROOM server that drives on its own road engine,
   * whose times the shop cannot recompute. Windows, shift, capacity, skills and every job served
   * once are still checked against the problem (decision 0093).
   */
  legsFromAnswer?: boolean;
}

/** Relative slack for comparing times computed in a different order (floating point). */
const slack = (value: number) => 1e-7 * Math.max(1, Math.abs(value));

export function checkSolution(problem: VroomProblem, solution: VroomSolution, options: CheckOptions = {}): FeasibilityIssue[] {
  const issues: FeasibilityIssue[] = [];
  if (solution.code !== 0) return [{ message: `the engine answered code ${solution.code}: ${solution.error ?? ""}` }];
  const jobs = new Map((problem.jobs ?? []).map((job) => [job.id, job]));
  const vehicles = new Map(problem.vehicles.map((vehicle) => [vehicle.id, vehicle]));
  const served = new Map<number, number>();
  const usedVehicles = new Set<number>();

  for (const route of solution.routes) {
    const vehicle = vehicles.get(route.vehicle);
    if (!vehicle) {
      issues.push({ vehicle: route.vehicle, message: "route of an unknown vehicle" });
      continue;
    }
    if (usedVehicles.has(vehicle.id)) issues.push({ vehicle: vehicle.id, message: "the vehicle has two routes" });
    usedVehicles.add(vehicle.id);
    const routeJobs: VroomJob[] = [];
    for (const step of route.steps) {
      if (step.type === "start" || step.type === "end") continue;
      const job = step.type === "job" && step.id !== undefined ? jobs.get(step.id) : undefined;
      if (!job) {
        issues.push({ vehicle: vehicle.id, job: step.id, message: `a ${step.type} step that is no job of the problem` });
        continue;
      }
      served.set(job.id, (served.get(job.id) ?? 0) + 1);
      routeJobs.push(job);
    }
    issues.push(...checkRoute(problem, vehicle, routeJobs, route.steps, options));
  }

  for (const task of solution.unassigned) {
    if (task.type !== "job") continue;
    if (!jobs.has(task.id)) issues.push({ job: task.id, message: "unassigned id that is no job of the problem" });
    else if (served.has(task.id)) issues.push({ job: task.id, message: "both served and unassigned" });
    if (!task.reason) issues.push({ job: task.id, message: "unassigned without a reason" });
    served.set(task.id, (served.get(task.id) ?? 0) + 1);
  }
  for (const job of jobs.values()) {
    const count = served.get(job.id) ?? 0;
    if (count === 0) issues.push({ job: job.id, message: "neither served nor listed unassigned" });
    if (count > 1 && !solution.unassigned.some((task) => task.id === job.id)) issues.push({ job: job.id, message: `served ${count} times` });
  }
  return issues;
}

type Place = { index?: number; coordinates?: [number, number] };

function travelTime(problem: VroomProblem, vehicle: VroomVehicle, from: Place | undefined, to: Place | undefined, options: CheckOptions): number {
  if (!from || !to) return 0;
  const profile = vehicle.profile ?? "car";
  const matrix = problem.matrices?.[profile]?.durations ?? problem.matrix;
  let seconds: number;
  if (matrix) {
    seconds = matrix[from.index!]![to.index!]!;
  } else {
    if (!options.travel) throw new Error("checkSolution: the problem has coordinates and no matrix: pass options.travel");
    seconds = pairTravel(from.coordinates!, to.coordinates!, options.travel).seconds;
  }
  return seconds / (vehicle.speed_factor ?? 1);
}

const samePlace = (a: Place | undefined, b: Place | undefined) =>
  a !== undefined &&
  b !== undefined &&
  (a.index !== undefined ? a.index === b.index : a.coordinates?.[0] === b.coordinates?.[0] && a.coordinates?.[1] === b.coordinates?.[1]);

function checkRoute(
  problem: VroomProblem,
  vehicle: VroomVehicle,
  jobs: VroomJob[],
  steps: VroomSolution["routes"][number]["steps"],
  options: CheckOptions,
): FeasibilityIssue[] {
  const issues: FeasibilityIssue[] = [];
  const fail = (message: string, job?: number) => issues.push({ vehicle: vehicle.id, job, message });
  const [open, close] = vehicle.time_window ?? [0, Infinity];
  const start: Place | undefined = vehicle.start_index !== undefined || vehicle.start ? { index: vehicle.start_index, coordinates: vehicle.start } : undefined;
  const end: Place | undefined = vehicle.end_index !== undefined || vehicle.end ? { index: vehicle.end_index, coordinates: vehicle.end } : undefined;
  const skills = new Set(vehicle.skills ?? []);
  if (vehicle.max_tasks !== undefined && jobs.length > vehicle.max_tasks) fail(`${jobs.length} tasks, more than max_tasks ${vehicle.max_tasks}`);

  const dims = Math.max(vehicle.capacity?.length ?? 0, ...jobs.map((job) => Math.max(job.delivery?.length ?? 0, job.pickup?.length ?? 0)));
  const capacity = Array.from({ length: dims }, (_, dim) => vehicle.capacity?.[dim] ?? Infinity);
  const load = Array.from({ length: dims }, (_, dim) => jobs.reduce((total, job) => total + (job.delivery?.[dim] ?? 0), 0));
  const overCapacity = () => load.some((value, dim) => value > capacity[dim]!);
  if (overCapacity()) fail(`loads ${load.join("/")} at the start, over capacity ${capacity.join("/")}`);

  const reportedStart = steps.find((step) => step.type === "start")?.arrival;
  if (reportedStart !== undefined && reportedStart < open - slack(open)) fail(`leaves at ${reportedStart}, before its shift opens at ${open}`);
  let time = reportedStart !== undefined && reportedStart > open ? reportedStart : open;
  let previous = start;
  const reportedJobSteps = steps.filter((step) => step.type === "job");
  const reportedEnd = steps.find((step) => step.type === "end");
  /** Driving time of the leg into job `position` (jobs.length: back to the end), as options say. */
  const leg = (from: Place | undefined, to: Place | undefined, position: number) => {
    if (!options.legsFromAnswer) return travelTime(problem, vehicle, from, to, options);
    const into = position < jobs.length ? reportedJobSteps[position] : reportedEnd;
    const before = position === 0 ? 0 : (reportedJobSteps[position - 1]?.duration ?? 0);
    return into ? Math.max(0, into.duration - before) : 0;
  };
  jobs.forEach((job, position) => {
    const here: Place = { index: job.location_index, coordinates: job.location };
    const arrival = time + leg(previous, here, position);
    const windows = [...(job.time_windows ?? [[-Infinity, Infinity] as [number, number]])].sort((a, b) => a[0] - b[0]);
    const window = windows.find(([, due]) => arrival <= due + slack(due));
    if (!window) fail(`arrives at ${arrival}, after its last window closes at ${windows[windows.length - 1]![1]}`, job.id);
    const serviceStart = window ? Math.max(arrival, window[0]) : arrival;
    const reported = reportedJobSteps[position];
    if (reported && Math.abs(reported.arrival + reported.waiting_time - serviceStart) > slack(serviceStart) + 1e-6) {
      fail(`reports service at ${reported.arrival + reported.waiting_time}, recomputed ${serviceStart}`, job.id);
    }
    if (!(job.skills ?? []).every((skill) => skills.has(skill))) fail("the vehicle lacks a skill the job needs", job.id);
    for (let dim = 0; dim < dims; dim++) load[dim] = load[dim]! - (job.delivery?.[dim] ?? 0) + (job.pickup?.[dim] ?? 0);
    if (overCapacity()) fail(`load ${load.join("/")} after it, over capacity ${capacity.join("/")}`, job.id);
    time = serviceStart + (samePlace(previous, here) ? 0 : (job.setup ?? 0)) + (job.service ?? 0);
    previous = here;
  });
  const back = time + leg(previous, end, jobs.length);
  if (end && back > close + slack(close)) fail(`back at ${back}, after its shift closes at ${close}`);
  return issues;
}
