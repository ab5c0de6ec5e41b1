import { date, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/** One line of a "lo de siempre" summary, priced as it was shown. */
export interface RepeatQuoteLine {
  productId: number;
  variantId: number | null;
  title: string;
  variantTitle: string | null;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
}

/**
 * "Lo de siempre" on WhatsApp (issue 38, decision 0090): the summary the shop answered a proven
 * customer's message with — exactly the lines, address, pin, date, window and amounts it showed —
 * so that "Confirmar" places that and nothing else. One per message that asked (`requestWamid`).
 * `open` until confirmed (`confirmed`, with its order), changed (`changed`), replaced by a newer
 * summary for the number (`replaced`) or answered with a fresh one once it expired (`expired`).
 * Only server/whatsapp-orders/ reads and writes it.
 */
export const whatsappRepeatQuotes = pgTable(
  "whatsapp_repeat_quotes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The Meta id of the message this summary answered: one summary per message, however often Meta delivers it. */
    requestWamid: text("request_wamid").notNull().unique(),
    /** E.164 without "+": the number that asked, proven the account's (server/contacts). */
    phone: text("phone").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** The order it repeats (the account's latest one-time or subscription order). */
    sourceOrderId: uuid("source_order_id").notNull(),
    lines: jsonb("lines").$type<RepeatQuoteLine[]>().notNull(),
    /** Lines of the source order left out (withdrawn since), as the summary said. */
    leftOut: jsonb("left_out").$type<string[]>().notNull(),
    subtotalCents: integer("subtotal_cents").notNull(),
    garantiaCents: integer("garantia_cents").notNull(),
    /** Garantía credit the order would spend (decision 0075). */
    creditCents: integer("credit_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    /** What the summary said is paid at the door: the total less the credit. */
    payCents: integer("pay_cents").notNull(),
    districtId: integer("district_id").notNull(),
    districtName: text("district_name").notNull(),
    address: text("address").notNull(),
    lat: doublePrecision("lat"),
    lng: doublePrecision("lng"),
    deliveryNotes: text("delivery_notes"),
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    deliveryWindow: text("delivery_window").notNull(),
    status: text("status").$type<"open" | "confirmed" | "changed" | "replaced" | "expired">().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The order "Confirmar" placed, and when. */
    orderId: uuid("order_id"),
    orderNumber: text("order_number"),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (table) => [index("whatsapp_repeat_quotes_phone_idx").on(table.phone, table.createdAt), index("whatsapp_repeat_quotes_user_idx").on(table.userId)],
);
