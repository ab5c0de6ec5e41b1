import type { RoutingModel } from "./model";
import { timeRoute, type TimedStep } from "./schedule";
import { unassignedReason } from "./unassigned-reasons";
import type { SearchReport, VroomRoute, VroomSolution, VroomStep, VroomUnassigned } from "./vroom-format";

/** A solution in VROOM's output format from job positions per vehicle (built-in solver and plan checks). */
export function solutionOf(
  model: RoutingModel,
  routes: readonly (readonly number[])[],
  unassigned: readonly number[],
  computing: { loading: number; solving: number; search?: SearchReport },
): VroomSolution {
  const vroomRoutes = routes.flatMap((jobs, index) => (jobs.length ? [routeOf(model, index, jobs)] : []));
  const left: VroomUnassigned[] = [
    ...unassigned.map((job) => unassignedOf(model, job)),
    ...model.shipmentSteps.map((step) => ({ ...withoutUndefined(step), reason: "unsupported" as const })),
  ];
  const sum = (pick: (route: VroomRoute) => number) => vroomRoutes.reduce((total, route) => total + pick(route), 0);
  const sumAmounts = (pick: (route: VroomRoute) => number[] | undefined) =>
    Array.from({ length: model.dims }, (_, dim) => vroomRoutes.reduce((total, route) => total + (pick(route)?.[dim] ?? 0), 0));
  const hasDistances = model.vehicles.some((vehicle) => vehicle.distances);
  return {
    code: 0,
    summary: {
      cost: sum((route) => route.cost),
      routes: vroomRoutes.length,
      unassigned: left.length,
      setup: sum((route) => route.setup ?? 0),
      service: sum((route) => route.service),
      duration: sum((route) => route.duration),
      waiting_time: sum((route) => route.waiting_time),
      priority: sum((route) => route.priority ?? 0),
      violations: [],
      ...(model.dims ? { delivery: sumAmounts((route) => route.delivery), pickup: sumAmounts((route) => route.pickup) } : {}),
      ...(hasDistances ? { distance: sum((route) => route.distance ?? 0) } : {}),
      computing_times: { loading: Math.round(computing.loading), solving: Math.round(computing.solving), routing: 0 },
      ...(computing.search ? { search: computing.search } : {}),
    },
    unassigned: left,
    routes: vroomRoutes,
  };
}

export function routeOf(model: RoutingModel, vehicleIndex: number, jobs: readonly number[]): VroomRoute {
  const vehicle = model.vehicles[vehicleIndex]!;
  const timed = timeRoute(model, vehicle, jobs);
  return withoutUndefined({
    vehicle: vehicle.id,
    steps: timed.steps.map((step) => stepOf(model, step, vehicle.distances !== null)),
    cost: timed.cost,
    setup: timed.setup,
    service: timed.service,
    duration: timed.travel,
    waiting_time: timed.waiting,
    priority: timed.priority,
    violations: timed.violations,
    delivery: model.dims ? timed.delivery : undefined,
    pickup: model.dims ? timed.pickup : undefined,
    description: vehicle.description,
    distance: vehicle.distances ? timed.distance : undefined,
  });
}

function stepOf(model: RoutingModel, step: TimedStep, withDistance: boolean): VroomStep {
  const job = step.job === undefined ? undefined : model.jobs[step.job]!;
  return withoutUndefined({
    type: step.type,
    arrival: step.arrival,
    duration: step.travel,
    setup: step.setup,
    service: step.service,
    waiting_time: step.waiting,
    violations: step.violations,
    description: job?.description,
    location: model.coordinates[step.location],
    location_index: job ? job.location_index : model.indexed ? step.location : undefined,
    id: job?.id,
    load: model.dims ? step.load : undefined,
    distance: withDistance ? step.distance : undefined,
  });
}

function unassignedOf(model: RoutingModel, position: number): VroomUnassigned {
  const job = model.jobs[position]!;
  return withoutUndefined({
    id: job.id,
    type: "job" as const,
    description: job.description,
    location: job.location,
    location_index: job.location_index,
    reason: unassignedReason(model, position),
  });
}

/** JSON leaves undefined out anyway; this keeps `toEqual` comparisons and logs clean too. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
