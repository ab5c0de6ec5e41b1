import { z } from "zod";

/**
 * The contract between Despacho and the route solver: VROOM's JSON problem and solution
 * (VROOM-Project/vroom docs/API.md), so the built-in solver and a VROOM server answer the same
 * question in the same words (issue 26, decision 0077). Coordinates are `[lon, lat]`; times are
 * seconds on one clock of the caller's choosing (the shop: seconds since Lima's midnight); distances
 * are metres. VROOM wants whole numbers; the built-in solver also takes fractions (the Solomon
 * benchmark's Euclidean times), and the VROOM adapter rounds them up before sending.
 *
 * One extension: each unassigned task carries `reason` (why it could not be served), which VROOM
 * does not give; both engines fill it in the same way (unassigned-reasons.ts).
 */

const amount = z.array(z.number().int().nonnegative());
const timeWindow = z.tuple([z.number(), z.number()]).refine(([start, end]) => start <= end, "a time window ends before it starts");
/** `[lon, lat]`, as in VROOM and GeoJSON. */
const coordinates = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
const duration = z.number().nonnegative();

export const vroomJobSchema = z.object({
  id: z.number().int(),
  description: z.string().optional(),
  location: coordinates.optional(),
  location_index: z.number().int().nonnegative().optional(),
  setup: duration.optional(),
  service: duration.optional(),
  delivery: amount.optional(),
  pickup: amount.optional(),
  skills: z.array(z.number().int()).optional(),
  priority: z.number().int().min(0).max(100).optional(),
  time_windows: z.array(timeWindow).optional(),
});

const shipmentStepSchema = vroomJobSchema.pick({
  id: true,
  description: true,
  location: true,
  location_index: true,
  setup: true,
  service: true,
  time_windows: true,
});

export const vroomShipmentSchema = z.object({
  pickup: shipmentStepSchema,
  delivery: shipmentStepSchema,
  amount: amount.optional(),
  skills: z.array(z.number().int()).optional(),
  priority: z.number().int().min(0).max(100).optional(),
});

const vehicleStepSchema = z.object({
  type: z.enum(["start", "job", "pickup", "delivery", "break", "end"]),
  id: z.number().int().optional(),
  service_at: z.number().optional(),
  service_after: z.number().optional(),
  service_before: z.number().optional(),
});

export const vroomVehicleSchema = z.object({
  id: z.number().int(),
  profile: z.string().optional(),
  description: z.string().optional(),
  start: coordinates.optional(),
  start_index: z.number().int().nonnegative().optional(),
  end: coordinates.optional(),
  end_index: z.number().int().nonnegative().optional(),
  capacity: amount.optional(),
  costs: z
    .object({
      fixed: z.number().nonnegative().optional(),
      per_hour: z.number().nonnegative().optional(),
      per_task_hour: z.number().nonnegative().optional(),
      per_km: z.number().nonnegative().optional(),
    })
    .optional(),
  skills: z.array(z.number().int()).optional(),
  type: z.string().optional(),
  time_window: timeWindow.optional(),
  breaks: z.array(z.object({ id: z.number().int(), time_windows: z.array(timeWindow).optional(), service: duration.optional() })).optional(),
  speed_factor: z.number().gt(0).max(5).optional(),
  max_tasks: z.number().int().nonnegative().optional(),
  max_travel_time: z.number().nonnegative().optional(),
  max_distance: z.number().nonnegative().optional(),
  steps: z.array(vehicleStepSchema).optional(),
});

const squareMatrix = z.array(z.array(z.number().nonnegative()));

export const vroomProblemSchema = z.object({
  jobs: z.array(vroomJobSchema).optional(),
  shipments: z.array(vroomShipmentSchema).optional(),
  vehicles: z.array(vroomVehicleSchema).min(1),
  matrices: z
    .record(z.string(), z.object({ durations: squareMatrix.optional(), distances: squareMatrix.optional(), costs: squareMatrix.optional() }))
    .optional(),
  /** Deprecated by VROOM in favour of `matrices`, still read: the durations of every profile. */
  matrix: squareMatrix.optional(),
  /** vroom-express's per-request options (`g` geometry, `c` plan mode, `t` threads, `x` exploration, `l` time limit in seconds). */
  options: z
    .object({ g: z.boolean().optional(), c: z.boolean().optional(), t: z.number().optional(), x: z.number().optional(), l: z.number().optional() })
    .optional(),
});

const violationSchema = z.object({ cause: z.string(), duration: z.number().optional() });
const stepTypes = ["start", "job", "pickup", "delivery", "break", "end"] as const;

export const vroomStepSchema = z.object({
  type: z.enum(stepTypes),
  arrival: z.number(),
  duration: z.number(),
  setup: z.number().optional(),
  service: z.number(),
  waiting_time: z.number(),
  violations: z.array(violationSchema).optional(),
  description: z.string().optional(),
  location: coordinates.optional(),
  location_index: z.number().int().optional(),
  id: z.number().int().optional(),
  load: z.array(z.number()).optional(),
  distance: z.number().optional(),
});

export const vroomRouteSchema = z.object({
  vehicle: z.number().int(),
  steps: z.array(vroomStepSchema),
  cost: z.number(),
  setup: z.number().optional(),
  service: z.number(),
  duration: z.number(),
  waiting_time: z.number(),
  priority: z.number().optional(),
  violations: z.array(violationSchema).optional(),
  delivery: z.array(z.number()).optional(),
  pickup: z.array(z.number()).optional(),
  description: z.string().optional(),
  geometry: z.string().optional(),
  distance: z.number().optional(),
});

/**
 * Why a task is left out (our extension of VROOM's `unassigned`):
 * - `skills`: no vehicle has what it needs;
 * - `capacity`: its load alone is more than any suitable vehicle carries;
 * - `time_window`: no suitable vehicle can reach it inside its window and be back by the end of its shift, even with nothing else to do;
 * - `fleet_full`: it would fit alone, but the fleet has no room or time left for it with the others;
 * - `unsupported`: the built-in solver does not handle this kind of task (shipments).
 */
export const UNASSIGNED_REASONS = ["skills", "capacity", "time_window", "fleet_full", "unsupported"] as const;
export type UnassignedReason = (typeof UNASSIGNED_REASONS)[number];

export const vroomUnassignedSchema = z.object({
  id: z.number().int(),
  type: z.enum(["job", "pickup", "delivery"]),
  description: z.string().optional(),
  location: coordinates.optional(),
  location_index: z.number().int().optional(),
  reason: z.enum(UNASSIGNED_REASONS).optional(),
});

export const vroomSummarySchema = z.object({
  cost: z.number(),
  routes: z.number().int(),
  unassigned: z.number().int(),
  setup: z.number().optional(),
  service: z.number(),
  duration: z.number(),
  waiting_time: z.number(),
  priority: z.number().optional(),
  violations: z.array(violationSchema).optional(),
  delivery: z.array(z.number()).optional(),
  pickup: z.array(z.number()).optional(),
  distance: z.number().optional(),
  computing_times: z.object({ loading: z.number().optional(), solving: z.number().optional(), routing: z.number().optional() }).optional(),
  /**
   * Not VROOM's: the built-in solver's account of its search (decision 0093): rounds done and
   * meant, and when the safety cap on wall time cut it short (null: the work bound was reached).
   */
  search: z.object({ rounds: z.number().int(), plannedRounds: z.number().int(), cutAtMs: z.number().nullable() }).optional(),
});

export const vroomSolutionSchema = z.object({
  code: z.number().int(),
  error: z.string().optional(),
  summary: vroomSummarySchema,
  unassigned: z.array(vroomUnassignedSchema),
  routes: z.array(vroomRouteSchema),
});

export type VroomJob = z.infer<typeof vroomJobSchema>;
export type VroomVehicle = z.infer<typeof vroomVehicleSchema>;
export type VroomProblem = z.infer<typeof vroomProblemSchema>;
export type VroomStep = z.infer<typeof vroomStepSchema>;
export type VroomRoute = z.infer<typeof vroomRouteSchema>;
export type VroomUnassigned = z.infer<typeof vroomUnassignedSchema>;
export type VroomSummary = z.infer<typeof vroomSummarySchema>;
export type SearchReport = NonNullable<VroomSummary["search"]>;
export type VroomSolution = z.infer<typeof vroomSolutionSchema>;
export type VroomViolation = z.infer<typeof violationSchema>;
