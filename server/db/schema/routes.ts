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

export interface RouteOptimisationResult {
  /** Stops placed per driver, with the driving minutes of each route. */
  routes: { driverId: string; driverName: string; stops: number; drivingMinutes: number }[];
  /** Every delivery that could not be placed, with the Spanish reason staff see. */
  unassigned: { deliveryId: string; deliveryNumber: string; reason: string }[];
  /** Stops on en camino / delivered / failed that the run left where they were. */
  kept: number;
  /** Deliveries whose driver, position or arrival time changed. */
  changed: number;
  drivingMinutes: number;
}

/**
 * Every "Optimizar rutas" press (issue 26): the form's key makes a double click one run, and the
 * day's latest run is what Despacho shows (what could not be placed, and why).
 */
export const routeOptimisations = pgTable(
  "route_optimisations",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    requestKey: text("request_key").notNull().unique(),
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    createdBy: text("created_by").notNull(),
    result: jsonb("result").$type<RouteOptimisationResult>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("route_optimisations_date_idx").on(table.deliveryDate, table.id)],
);
