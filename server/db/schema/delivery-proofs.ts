import { boolean, check, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { users } from "./accounts";
import { deliveries, orders } from "./orders";

/**
 * What the driver recorded at the door (issue 10): who received it and the bidones, or why it could
 * not be delivered. One row per attempt; a delivery that failed and was rescheduled gets a second.
 */
export const deliveryProofs = pgTable(
  "delivery_proofs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    /** delivered | failed */
    outcome: text("outcome").notNull(),
    receiverName: text("receiver_name"),
    fullBidonesLeft: integer("full_bidones_left"),
    emptyBidonesCollected: integer("empty_bidones_collected"),
    /** ausente | direccion_errada | rechazado | no_pago | otro (failed only) */
    failureReason: text("failure_reason"),
    note: text("note"),
    driverId: text("driver_id").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("delivery_proofs_delivery_idx").on(table.deliveryId)],
);

/**
 * The returnable bidones ledger (issue 10): full bidones lent to a customer and empties returned,
 * written by a confirmed delivery (one row per delivery and kind, so a repeated confirmation writes
 * nothing twice) or by staff recording bidones returned outside a delivery (decision 0075: no
 * delivery or order, keyed by the staff form's request). The customer is the order's account, or
 * the order's e-mail for a guest (decision 0032).
 */
export const bidonMovements = pgTable(
  "bidon_movements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deliveryId: uuid("delivery_id").references(() => deliveries.id, { onDelete: "cascade" }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Lower-cased; identifies a guest, and lets a guest's movements follow them into a later account. */
    customerEmail: text("customer_email").notNull(),
    /** lent (full bidones left) | returned (empties collected) */
    kind: text("kind").notNull(),
    quantity: integer("quantity").notNull(),
    /** A staff-recorded return: `staff:<request key>` (a double click records it once) and who recorded it. */
    sourceKey: text("source_key").unique(),
    recordedBy: text("recorded_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("bidon_movements_delivery_kind_unique").on(table.deliveryId, table.kind),
    index("bidon_movements_user_idx").on(table.userId, table.createdAt),
    index("bidon_movements_email_idx").on(table.customerEmail, table.createdAt),
    check("bidon_movements_quantity_positive", sql`${table.quantity} > 0`),
    check("bidon_movements_delivery_or_staff", sql`${table.deliveryId} is not null or ${table.sourceKey} is not null`),
  ],
);

/**
 * The driver app's queued confirmations already applied (issue 26, decision 0079): the phone gives
 * each tap a key of its own; the row is written in the same transaction as the confirmation, so a
 * queue sent twice (a lost answer, two tabs, a retry) changes nothing the second time. Keeps the
 * time the phone claimed and the time the history got after the clock rules.
 */
export const driverConfirmationReceipts = pgTable(
  "driver_confirmation_receipts",
  {
    key: uuid("key").primaryKey(),
    driverId: text("driver_id")
      .notNull()
      .references(() => users.id),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    /** en_camino | entregado | no_entregado */
    intent: text("intent").notNull(),
    /** What the phone's clock said when the driver tapped. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull(),
    /** The time the history, proof and e-mails carry (decision 0079's clock rules). */
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    /**
     * The phone's time fell outside the window the server believes (issue 39): `recordedAt` is then
     * the server's receipt time and `claimedAt` keeps what the phone said.
     */
    phoneTimeAdjusted: boolean("phone_time_adjusted").notNull().default(false),
    /** What the tap was (stop, intent, fields), hashed: a key sent again with another tap is refused (issue 39). Null for rows before it. */
    tapDigest: text("tap_digest"),
  },
  (table) => [index("driver_confirmation_receipts_delivery_idx").on(table.deliveryId)],
);

/**
 * Photos of the bidones left at the door (issue 40): taken on the driver's phone, compressed
 * there, kept in its queue while offline and uploaded before the «Entregado» tap that names it.
 * `key` is the phone's own key for the photo, so an upload sent twice stores one row. The bytes
 * live in the shared media store (server/media) under `storedName`, never served publicly: staff
 * see them on the order, the customer on their own delivery.
 */
export const deliveryPhotos = pgTable(
  "delivery_photos",
  {
    key: uuid("key").primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    driverId: text("driver_id")
      .notNull()
      .references(() => users.id),
    storedName: text("stored_name").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("delivery_photos_delivery_idx").on(table.deliveryId)],
);
