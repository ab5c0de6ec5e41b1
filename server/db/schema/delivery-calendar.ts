import { date, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { districts } from "./districts";

/**
 * What staff set for single dates at /admin/calendario (issue 10): the shop's own closed days, holidays
 * added by hand, and national holidays the shop delivers on after all. Peru's national holidays
 * themselves are worked out for every year (core/peru-holidays.ts, decision 0070).
 */
export const deliveryClosedDays = pgTable("delivery_closed_days", {
  closedOn: date("closed_on", { mode: "string" }).primaryKey(),
  /** `feriado` (a holiday added by hand), `cierre` (the shop's own closed day) or `abierto` (a national holiday that is a delivery day). */
  kind: text("kind").notNull(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Shop-wide capacity: how many deliveries fit in one window of a weekday, across every district without an override. */
export const deliveryCapacityDefaults = pgTable(
  "delivery_capacity_defaults",
  {
    dayNumber: integer("day_number").notNull(),
    deliveryWindow: text("delivery_window").notNull(),
    capacity: integer("capacity").notNull(),
  },
  (table) => [primaryKey({ columns: [table.dayNumber, table.deliveryWindow] })],
);

/** A district with its own capacity for a weekday and window: counted on its own, outside the shop-wide pool. */
export const deliveryCapacityOverrides = pgTable(
  "delivery_capacity_overrides",
  {
    districtId: integer("district_id")
      .notNull()
      .references(() => districts.id, { onDelete: "cascade" }),
    dayNumber: integer("day_number").notNull(),
    deliveryWindow: text("delivery_window").notNull(),
    capacity: integer("capacity").notNull(),
  },
  (table) => [primaryKey({ columns: [table.districtId, table.dayNumber, table.deliveryWindow] })],
);

/** One row (id = 1): the cut-off the day before, as Lima's clock shows it ('18:00'). */
export const deliveryCalendarSettings = pgTable("delivery_calendar_settings", {
  id: integer("id").primaryKey().default(1),
  cutoffTime: text("cutoff_time").notNull().default("18:00"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per (date, window, capacity scope) that anyone ever claimed a place in or that ever held
 * an open delivery: the row a claim locks (decision 0025) so two checkouts for the last place take
 * turns, and its open deliveries' count, kept exact by the database's triggers on `deliveries` and
 * `delivery_capacity_overrides` (migration 0049, decision 0102), so no code path can forget it.
 * Scope is `shop` (the shop-wide pool) or `district:<id>` (a district with an override).
 */
export const deliverySlots = pgTable(
  "delivery_slots",
  {
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    deliveryWindow: text("delivery_window").notNull(),
    scope: text("scope").notNull(),
    /** Open deliveries (OPEN_DELIVERY_STATUSES) in this slot: written only by the triggers. */
    openCount: integer("open_count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.deliveryDate, table.deliveryWindow, table.scope] })],
);
