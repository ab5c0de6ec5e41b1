import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { invoices } from "./invoices";
import { orders } from "./orders";

/**
 * One attempt to collect an order's money through a provider: a card charge, a cash/Yape code
 * (Culqi order) or a sandbox payment. The provider's own id is unique, so a replayed
 * confirmation finds the row it already settled.
 */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** card | yape | cash (PagoEfectivo / banca móvil / agentes / billeteras); provider `contra_entrega`: cash | yape at the door */
    method: text("method"),
    status: text("status").notNull().default("created"),
    amountCents: integer("amount_cents").notNull(),
    providerReference: text("provider_reference"),
    /** CIP or cash code the customer pays with, when there is one. */
    paymentCode: text("payment_code"),
    failureMessage: text("failure_message"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /**
     * Who took the money at the door (the repartidor's e-mail), when the customer paid the driver
     * instead of the code: a later payment of that code is then a second payment (refunded).
     */
    collectedAtDoorBy: text("collected_at_door_by"),
    /**
     * The driver's phone time for a collection at the door when it fell outside the window the
     * server believes (issue 39): `settledAt` is then the server's receipt time, and the caja shows both.
     */
    doorPhoneTime: timestamp("door_phone_time", { withTimezone: true }),
    /**
     * Pago contra entrega in cash (issue 38): the note the customer will pay with ("¿Con cuánto
     * pagas?"), so the driver brings change; null: the exact amount or not said.
     */
    paysWithCents: integer("pays_with_cents"),
    /**
     * Until when one request holds the right to charge this attempt's Culqi token (decision 0071):
     * a double click reaching two server processes charges once, the other request waits for the
     * outcome. Null when nobody is charging; a crashed holder's claim simply runs out.
     */
    chargeClaimedUntil: timestamp("charge_claimed_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("payments_order_idx").on(table.orderId),
    unique("payments_provider_reference_unique").on(table.provider, table.providerReference),
    // The cash box (decision 0060) reads one Lima day of money taken at the door.
    index("payments_door_collections_idx")
      .on(table.settledAt)
      .where(sql`${table.collectedAtDoorBy} is not null`),
  ],
);

/** Webhook events already applied, so the same event delivered twice changes nothing the second time. */
export const processedWebhookEvents = pgTable(
  "processed_webhook_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    processedAt: timestamp("processed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
);

/**
 * The offline sandbox provider's own books: the charges it made to saved cards, by the key the
 * shop sent. Like a real provider's, they are written apart from the shop's transaction, so the
 * renewal reconciler can ask "did a charge with this key happen?" after a crash.
 */
export const sandboxCharges = pgTable("sandbox_charges", {
  chargeKey: text("charge_key").primaryKey(),
  chargeId: text("charge_id").notNull().unique(),
  cardId: text("card_id").notNull(),
  amountCents: integer("amount_cents").notNull(),
  paid: boolean("paid").notNull(),
  declineMessage: text("decline_message"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Money the shop sends back through the provider (decision 0026-late-payments-and-refunds): a charge
 * confirmed after its order could no longer be honoured, or a second charge for a payment already
 * settled. One row per provider charge (the unique key is what keeps a replayed webhook from
 * refunding twice); the provider is called outside any transaction and a failed call is retried by
 * the jobs from `nextAttemptAt`. Staff list these rows (status, reason, attempts, last error).
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** The provider's id of the charge given back (Culqi `chr_…`). */
    chargeReference: text("charge_reference").notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** late_payment | duplicate_charge | amount_mismatch (automatic); staff_refund | order_cancelled (staff, issue 10); garantia_return (a bidón garantía, decision 0075) */
    reason: text("reason").notNull(),
    /**
     * pending (to call or retry the provider) | succeeded | manual (cash paid offline: staff return
     * it by hand and mark it done) | failed (the provider refused a staff refund; nothing was given back)
     */
    status: text("status").notNull().default("pending"),
    /**
     * What makes a request the same request: the staff form's key (a double click or a retried POST
     * finds the refund it already made), or `charge:<provider>:<reference>` for an automatic refund
     * of a late charge (a replayed webhook finds it).
     */
    requestKey: text("request_key").notNull().unique(),
    /** The staff member who asked for it (e-mail); null for the shop's automatic refunds. */
    requestedBy: text("requested_by"),
    /**
     * The admin (e-mail) who approved a staff refund that takes the order's staff refunds above the
     * operaciones limit (decision 0071); null for refunds within it and for automatic ones.
     */
    approvedBy: text("approved_by"),
    /** The staff member's reason, as typed (shown to staff; the nota de crédito's description). */
    note: text("note"),
    /** The invoice the refund corrects, when the order had one: the compliance work issues its nota de crédito. */
    invoiceId: uuid("invoice_id").references(() => invoices.id),
    /** The provider's refund id (Culqi `ref_…`), when its answer named one. */
    providerRefundId: text("provider_refund_id"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    /** A worker calling the provider holds the row until then, so two never call at once. */
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    // One refund in flight per charge: reconciling a lost answer compares the charge's refunded total
    // with ours, which is only unambiguous when a single one of ours can be on its way.
    uniqueIndex("refunds_one_pending_per_charge")
      .on(table.provider, table.chargeReference)
      .where(sql`${table.status} = 'pending'`),
    index("refunds_status_next_attempt_idx").on(table.status, table.nextAttemptAt),
    index("refunds_order_idx").on(table.orderId),
  ],
);

/**
 * What an anonymisation left to delete at a payment provider (decision 0061): a saved card and the
 * provider's customer record it hangs on (Culqi's holds the name, e-mail, address and phone).
 * Written in the anonymisation's own transaction; the provider is called afterwards, outside it,
 * by the jobs, which retry from `nextAttemptAt` until the provider confirms (or says it no longer
 * has it). One row per provider object: a second anonymisation run, or two cards on one Culqi
 * customer, never schedule the same deletion twice.
 */
export const providerErasures = pgTable(
  "provider_erasures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider").notNull(),
    /** card | customer */
    objectKind: text("object_kind").notNull(),
    /** The provider's id (Culqi `crd_…` / `cus_…`; a sandbox card id). */
    reference: text("reference").notNull(),
    /** The (anonymised) account it belonged to, so staff see it on the customer's page. */
    userId: text("user_id").notNull(),
    /** pending (to call or retry the provider) | done */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    /** A worker calling the provider holds the row until then, so two never call at once. */
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    doneAt: timestamp("done_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    unique("provider_erasures_object_unique").on(table.provider, table.objectKind, table.reference),
    index("provider_erasures_status_next_attempt_idx").on(table.status, table.nextAttemptAt),
    index("provider_erasures_user_idx").on(table.userId),
  ],
);
