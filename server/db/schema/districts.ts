import { boolean, doublePrecision, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/** Lima and Callao districts (shared/reference/lima-districts.csv); only `served` ones are offered. */
export const districts = pgTable("districts", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  ubigeo: text("ubigeo").notNull().unique(),
  name: text("name").notNull(),
  province: text("province").notNull(),
  served: boolean("served").notNull().default(false),
  /** 'HH:MM' Lima: this district's own cut-off the day before (/admin/distritos); null: the shop's. */
  cutoffTime: text("cutoff_time"),
  /** Staff's notes for drivers and the team (access, parking, gate hours); never shown to customers. */
  staffNotes: text("staff_notes"),
  /**
   * The district's centre (issue 26): where a stop without its own point is placed for the route,
   * marked "ubicación aproximada". Seeded for every district, edited at /admin/distritos.
   */
  centerLat: doublePrecision("center_lat"),
  centerLng: doublePrecision("center_lng"),
  /** Issue 38: whether "Pago contra entrega" is offered here (the shop-wide switch is in site_settings). */
  doorPayment: boolean("door_payment").notNull().default(true),
});

/** Spec's district_days: the weekdays a district receives deliveries. Day number 1 = lunes … 7 = domingo. */
export const districtDeliveryDays = pgTable(
  "district_delivery_days",
  {
    districtId: integer("district_id")
      .notNull()
      .references(() => districts.id, { onDelete: "cascade" }),
    dayNumber: integer("day_number").notNull(),
  },
  (table) => [primaryKey({ columns: [table.districtId, table.dayNumber] })],
);
