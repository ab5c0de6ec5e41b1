import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/**
 * Messages sent from /contact (decisions.md, Routes: a contact form that reaches the staff). Staff
 * read them in /admin/mensajes and mark them attended; the message itself never changes.
 */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Printed in the form when it is shown: sending the same form twice (double click, reload) stores one message. */
    submissionId: uuid("submission_id").notNull().unique(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    attendedAt: timestamp("attended_at", { withTimezone: true }),
    attendedBy: text("attended_by").references(() => users.id),
  },
  (table) => [
    index("contact_messages_created_idx").on(table.createdAt),
    // /admin/clientes finds people who never bought by the beginning of their e-mail (decision 0064).
    index("contact_messages_email_prefix_idx").using("btree", sql`lower(${table.email}) text_pattern_ops`),
  ],
);
