/**
 * Route optimisation (issue 26, decision 0077). The contract is VROOM's JSON problem and solution;
 * the engine is the built-in solver or a VROOM server (ROUTING_URL), interchangeable here.
 */
export { solve, configuredRoutingEngine, type RoutingEngine, type SolveOptions } from "./solve";
export { searchRounds, standardSolveOptions } from "./built-in/search-budget";
export { RoutingEngineError, type VroomServer } from "./vroom-client";
export { checkSolution, type CheckOptions, type FeasibilityIssue } from "./feasibility";
export { planRoute, type PlanOptions } from "./plan-route";
export { describeUnassignedReason } from "./unassigned-reasons";
export { buildTravelMatrix, haversineKm, type LatLng, type TravelMatrix, type TravelModel } from "./travel-matrix";
export { simpleFromVroom, simpleProblemSchema, simpleToVroom, simpleTravel, type SimpleProblem, type SimpleSolution } from "./simple-format";
export {
  type UnassignedReason,
  type VroomJob,
  type VroomProblem,
  type VroomRoute,
  type VroomShipment,
  type VroomSolution,
  type VroomStep,
  type VroomSummary,
  type SearchReport,
  type VroomUnassigned,
  type VroomVehicle,
  type VroomViolation,
} from "./vroom-format";
