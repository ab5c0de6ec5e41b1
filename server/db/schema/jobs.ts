import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * A row a job could not handle (a subscription whose renewal threw, an order that would not
 * expire): the pass records it here and goes on with the others (decision 0025), and the next pass
 * tries the row again. Kept per job and row, so a row failing every pass is one line whose count
 * grows, for staff to see; a later success removes it.
 */
export const jobRowFailures = pgTable(
  "job_row_failures",
  {
    job: text("job").notNull(),
    rowId: text("row_id").notNull(),
    message: text("message").notNull(),
    failures: integer("failures").notNull().default(1),
    firstFailedAt: timestamp("first_failed_at", { withTimezone: true }).notNull(),
    lastFailedAt: timestamp("last_failed_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.job, table.rowId] })],
);
