import { buildModel, RoutingProblemError, type ModelOptions } from "./model";
import { routeOf } from "./solution-output";
import type { VroomProblem, VroomRoute } from "./vroom-format";

export type PlanOptions = ModelOptions;

/**
 * The times of a route in an order staff chose (a stop moved by hand, issue 26): the same steps as
 * an optimised route, with VROOM plan-mode `violations` where a window is missed (`delay`, with the
 * minutes late), the van is overloaded (`load`) or the shift overruns (`delay` on the end step).
 */
export function planRoute(problem: VroomProblem, vehicleId: number, jobIds: readonly number[], options: PlanOptions = {}): VroomRoute {
  const model = buildModel(problem, options);
  const vehicle = model.vehicles.find((candidate) => candidate.id === vehicleId);
  if (!vehicle) throw new RoutingProblemError(`no vehicle ${vehicleId} in the problem`);
  const positions = new Map(model.jobs.map((job, position) => [job.id, position]));
  const jobs = jobIds.map((id) => {
    const position = positions.get(id);
    if (position === undefined) throw new RoutingProblemError(`no job ${id} in the problem`);
    return position;
  });
  return routeOf(model, vehicle.index, jobs);
}
