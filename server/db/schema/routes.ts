import { date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { ROUTE_SETTING_DEFAULTS as DEFAULTS } from "../../../core/route-schemas";
import { users } from "./accounts";

/**
 * The route settings (issue 26, one row, id = 1): the depot where the vans load, the time a stop
 * takes, the travel-time model (straight-line distance × detour factor ÷ average speed) and what
 * Despacho's "Optimizar rutas" form starts from for each van. Edited at /admin/ajustes; a missing
 * row reads as these defaults (core/route-schemas.ts says where they come from).
 */
export const routeSettings = pgTable("route_settings", {
  id: integer("id").primaryKey().default(1),
  depotLabel: text("depot_label").notNull().default(DEFAULTS.depotLabel),
  depotLat: doublePrecision("depot_lat").notNull().default(DEFAULTS.depotLat),
  depotLng: doublePrecision("depot_lng").notNull().default(DEFAULTS.depotLng),
  serviceMinutes: integer("service_minutes").notNull().default(DEFAULTS.serviceMinutes),
  detourFactor: doublePrecision("detour_factor").notNull().default(DEFAULTS.detourFactor),
  averageSpeedKmh: doublePrecision("average_speed_kmh").notNull().default(DEFAULTS.averageSpeedKmh),
  vanCapacity: integer("van_capacity").notNull().default(DEFAULTS.vanCapacity),
  /** bidones (20 L each) | litros */
  vanCapacityUnit: text("van_capacity_unit").notNull().default(DEFAULTS.vanCapacityUnit),
  /** 'HH:MM' Lima */
  shiftStart: text("shift_start").notNull().default(DEFAULTS.shiftStart),
  shiftEnd: text("shift_end").notNull().default(DEFAULTS.shiftEnd),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One driver's van on one day, as the last "Optimizar rutas" set it: its capacity and shift. The
 * arrival times of the driver's stops are computed from its shift start (or the settings' when the
 * day was never optimised), so a stop moved by hand is timed with the same van.
 */
export const routePlans = pgTable(
  "route_plans",
  {
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    driverId: text("driver_id")
      .notNull()
      .references(() => users.id),
    capacity: integer("capacity").notNull(),
    capacityUnit: text("capacity_unit").notNull(),
    shiftStart: text("shift_start").notNull(),
    shiftEnd: text("shift_end").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.deliveryDate, table.driverId] })],
);

/** One stop of a computed plan, in its van's visiting order (issue 40). */
export interface PlannedStop {
  deliveryId: string;
  deliveryNumber: string;
  districtName: string;
  deliveryWindow: string;
  /** Lima clock time the driver rings ("HH:MM"), null without a point on the map. */
  arrival: string | null;
  /** Minutes after the window closes (0 on time): "Con retraso". */
  lateMinutes: number;
  loadLitres: number;
  approximate: boolean;
  /** Who has it now (null: nobody) and at which place. */
  fromDriverId: string | null;
  fromDriverName: string | null;
  fromPosition: number | null;
  /**
   * Set when the solver could not place this stop but it is already this driver's: it stays at the
   * end of the route (never unassigned without staff's tick), with the reason it does not fit.
   */
  keptReason?: string;
  /** [lat, lng] for the map. */
  point: [number, number] | null;
}

/** One van of a computed plan. */
export interface PlannedRoute {
  driverId: string;
  driverName: string;
  capacity: number;
  capacityUnit: string;
  shiftStart: string;
  shiftEnd: string;
  stops: PlannedStop[];
  /** Stops on the road or done that stay where they are (not in `stops`). */
  keptOnRoad: number;
  drivingMinutes: number;
  distanceKm: number;
  /** Litres the van leaves with (open stops and those already aboard) against its capacity in litres. */
  loadLitres: number;
  capacityLitres: number;
  /** The driver's open stops now, for "beside the current assignment". */
  currentStops: number;
}

/**
 * What "Optimizar rutas" computed (status planned) and, once applied, what it wrote. Rows from
 * before issue 40 have no `plan`.
 */
export interface RouteOptimisationResult {
  /** Stops per driver, with the driving minutes of each route. */
  routes: { driverId: string; driverName: string; stops: number; drivingMinutes: number }[];
  /** Every delivery the plan leaves off every route, with the Spanish reason staff see. */
  unassigned: { deliveryId: string; deliveryNumber: string; reason: string }[];
  /** Stops on en camino / delivered / failed that the run left where they were. */
  kept: number;
  /** Deliveries whose driver or position changes (planned) or changed (applied). */
  changed: number;
  drivingMinutes: number;
  plan?: RoutePlanDetail;
}

/** The plan as staff review it (issue 40): each van's stops in order, beside where they are now. */
export interface RoutePlanDetail {
  vans: PlannedRoute[];
  /** Stops the solver placed on a van (0: the plan assigns nothing). */
  placed: number;
  /** Stops planned after their window closed ("Con retraso", as early as the route allows). */
  late: number;
  /** Moves: from nobody to a van, from one van to another. */
  newlyAssigned: number;
  movedBetweenVans: number;
  /** Seconds after which the time cap cut the search short (another run may differ), else null. */
  searchCutAtSeconds: number | null;
  depot: { label: string; point: [number, number] };
  /** Points of the stops left off every route, for the map. */
  unassignedPoints: Record<string, [number, number]>;
}

/** The deliveries a plan read, as they were: applying refuses when any of them changed since (issue 40). */
export interface RoutePlanSnapshot {
  vans: { driverId: string; capacity: number; capacityUnit: string; shiftStart: string; shiftEnd: string }[];
  read: { id: string; status: string; window: string; driverId: string | null; position: number | null; lat: number | null; lng: number | null }[];
}

/**
 * Every "Optimizar rutas" press (issue 26): the form's key makes a double click one run. Since
 * issue 40 (decision 0093) a run is a plan staff accept: computed and kept here as `planned` with
 * what it read (`snapshot`), written to the deliveries only by "Aplicar plan" (its own key,
 * `apply_key`), which marks it `applied`. The day's latest row is what Despacho shows.
 */
export const routeOptimisations = pgTable(
  "route_optimisations",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    requestKey: text("request_key").notNull().unique(),
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    createdBy: text("created_by").notNull(),
    result: jsonb("result").$type<RouteOptimisationResult>().notNull(),
    /** planned | applied (rows from before issue 40 were written at once: applied). */
    status: text("status").notNull().default("applied"),
    snapshot: jsonb("snapshot").$type<RoutePlanSnapshot>(),
    applyKey: text("apply_key").unique(),
    appliedBy: text("applied_by"),
    appliedAt: timestamp("applied_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("route_optimisations_date_idx").on(table.deliveryDate, table.id)],
);
