import { bigserial, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/*
 * Who owns a phone number (issue 39, decision 0088): a number typed at a checkout, a sign-up or a
 * profile is delivery data and proves nothing. A number belongs to a person only once proven, and
 * each proof is one row here: the number answered a WhatsApp question the person asked for
 * (`whatsapp_reply`), a staff member called it and recorded "confirmado por teléfono"
 * (`staff_phone`, audited), or the demo data says so (`demo`). The rows are appended; an
 * anonymisation rewrites the number of its subject's rows. Only server/contacts/ reads them.
 */
export const phoneProofs = pgTable(
  "phone_proofs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** E.164 without "+" (core/whatsapp.ts `whatsappNumber`). */
    phone: text("phone").notNull(),
    /** The account the number was proven for, when the person had one. */
    userId: text("user_id"),
    /** The order the proof was asked with (a checkout's box), when there was one. */
    orderId: uuid("order_id"),
    /** whatsapp_reply | staff_phone | demo */
    method: text("method").notNull(),
    /** The staff member who recorded a call (`staff_phone`). */
    staffUserId: text("staff_user_id"),
    /** Meta's id of the reply that proved it (`whatsapp_reply`). */
    evidence: text("evidence"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("phone_proofs_phone_idx").on(table.phone),
    index("phone_proofs_user_idx").on(table.userId),
    index("phone_proofs_order_idx").on(table.orderId),
  ],
);
