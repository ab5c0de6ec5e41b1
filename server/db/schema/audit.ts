import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * decisions.md, Back office: every staff action, append-only. A trigger in the migration refuses
 * UPDATE and DELETE, so not even a bug in our code can rewrite what staff did.
 */
export const staffActions = pgTable(
  "staff_actions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    actorRole: text("actor_role").notNull(),
    /** What was done, in the shop's words: `order.refund`, `delivery.assign`, `staff.create`… */
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    clientAddress: text("client_address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("staff_actions_actor_idx").on(table.actorId, table.createdAt),
    index("staff_actions_entity_idx").on(table.entityType, table.entityId),
    index("staff_actions_created_idx").on(table.createdAt),
  ],
);
