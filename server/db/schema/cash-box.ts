import { check, date, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { users } from "./accounts";

/**
 * A driver's rendición (decision 0060): the cash operaciones counted from a driver for one Lima
 * day. Revision 1 is the rendición; a correction is a new row with the next revision, so the
 * earlier count stays readable and nothing is overwritten. The unique key is what makes the
 * rendición one per driver and day, and what turns a double submit into one row: both posts claim
 * the same revision and only one insert lands.
 */
export const driverCashHandovers = pgTable(
  "driver_cash_handovers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    driverId: text("driver_id")
      .notNull()
      .references(() => users.id),
    /** The Lima day whose door collections this counts. */
    workDate: date("work_date", { mode: "string" }).notNull(),
    revision: integer("revision").notNull(),
    countedCents: integer("counted_cents").notNull(),
    /** The cash the driver had collected when this was recorded, kept so the history reads as it was. */
    expectedCents: integer("expected_cents").notNull(),
    note: text("note"),
    recordedById: text("recorded_by_id").notNull(),
    recordedByEmail: text("recorded_by_email").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    unique("driver_cash_handovers_revision_unique").on(table.driverId, table.workDate, table.revision),
    check("driver_cash_handovers_counted_not_negative", sql`${table.countedCents} >= 0`),
    check("driver_cash_handovers_revision_positive", sql`${table.revision} >= 1`),
  ],
);
