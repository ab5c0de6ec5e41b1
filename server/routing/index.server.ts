/**
 * Route optimisation (issue 26, decision 0077). The contract is VROOM's JSON problem and solution;
 * the engine is the built-in solver or a VROOM server (ROUTING_URL), interchangeable here.
 */
export { solve, configuredRoutingEngine, type RoutingEngine } from "./solve";
export { searchRounds, standardSolveOptions } from "./built-in/search-budget";
export { RoutingEngineError } from "./vroom-client";
export { checkSolution } from "./feasibility";
export { planRoute } from "./plan-route";
export { describeUnassignedReason } from "./unassigned-reasons";
export { buildTravelMatrix, haversineKm, type TravelModel } from "./travel-matrix";
export { simpleFromVroom, simpleProblemSchema, simpleToVroom, simpleTravel } from "./simple-format";
export { type VroomJob, type VroomProblem, type VroomRoute, type VroomSolution, type VroomVehicle } from "./vroom-format";
