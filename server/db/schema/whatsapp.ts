import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/*
 * WhatsApp Business Platform (issue 25, decision 0074). Numbers are E.164 without "+"
 * (`51987654321`), the form the Cloud API takes and answers with.
 */

/**
 * Every WhatsApp opt-in and opt-out, append-only (the code only inserts; an anonymisation
 * rewrites the personal columns). A number's current choice is its latest event (highest id);
 * a number with no event has not opted in, so nothing is sent to it.
 */
export const whatsappConsentEvents = pgTable(
  "whatsapp_consent_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    phone: text("phone").notNull(),
    granted: boolean("granted").notNull(),
    /** checkout | signup | profile | telefono (the office, decision 0091) | reply (an inbound SÍ or BAJA) | demo */
    source: text("source").notNull(),
    /** The exact text the customer saw next to the box (or the reply they sent). */
    textShown: text("text_shown").notNull(),
    textVersion: text("text_version").notNull(),
    /** Who it was, when known: the account, the e-mail typed at checkout, the order placed. */
    userId: text("user_id"),
    email: text("email"),
    orderId: uuid("order_id"),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("whatsapp_consent_events_phone_idx").on(table.phone, table.id),
    index("whatsapp_consent_events_email_idx").on(table.email),
    index("whatsapp_consent_events_user_idx").on(table.userId),
  ],
);

/**
 * What the shop knows of a number on WhatsApp beyond consent: when its customer last wrote (the
 * 24-hour customer service window for free text) and whether Meta said it cannot receive messages
 * (error 131026: it keeps getting e-mail only, until it opts in again).
 */
export const whatsappContacts = pgTable("whatsapp_contacts", {
  phone: text("phone").primaryKey(),
  lastInboundAt: timestamp("last_inbound_at", { withTimezone: true }),
  profileName: text("profile_name"),
  unreachableAt: timestamp("unreachable_at", { withTimezone: true }),
  unreachableReason: text("unreachable_reason"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

/**
 * Where a WhatsApp message is (decision 0074): `pending` → `sending` (claimed, with a lease) →
 * `accepted` (the Cloud API took it and gave its id), then what Meta's webhooks report, never
 * backwards: `sent` < `delivered` < `read`; or `failed` (Meta could not deliver it, with its error
 * code). `dead`: the shop gave up (a day of retries, or an error retrying cannot fix: a template
 * or token problem) and staff see it among the alarms. `withheld`: not sent because, when it was
 * due, the number had opted out, was unreachable, or (free text) its 24-hour window had closed.
 */
export type WhatsappMessageStatus = "pending" | "sending" | "accepted" | "sent" | "delivered" | "read" | "failed" | "dead" | "withheld";

/**
 * An interactive reply-buttons message (issue 38: the "lo de siempre" summary), sent like free
 * text only inside the customer's 24-hour window: a body (at most 1 024 characters), an optional
 * footer (60) and one to three buttons, each with the id its tap comes back with (256) and a
 * title (20).
 */
export interface WhatsappInteractive {
  body: string;
  footer: string | null;
  buttons: { id: string; title: string }[];
}

export interface WhatsappTemplateParameters {
  /** `{{1}}`, `{{2}}`… of the approved body, in order. */
  body: string[];
  /** The dynamic suffix of the template's URL button, when it has one. */
  buttonUrlSuffix: string | null;
}

export const whatsappMessages = pgTable(
  "whatsapp_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** One message per event, ever (`whatsapp:delivery-on-the-way:{deliveryId}`). */
    dedupeKey: text("dedupe_key").notNull().unique(),
    /**
     * `template` (every message the shop starts), `opt_in_ask` (the question to a number), `text`
     * (a reply inside the 24-hour window, the shop's or a staff member's) or `interactive` (reply
     * buttons, inside the window too).
     */
    kind: text("kind").notNull(),
    templateName: text("template_name"),
    languageCode: text("language_code"),
    parameters: jsonb("parameters").$type<WhatsappTemplateParameters>(),
    /** The body and buttons of an `interactive` message. */
    interactive: jsonb("interactive").$type<WhatsappInteractive>(),
    /** What the customer reads: the template filled in, the free text, or the interactive body with its buttons. */
    renderedText: text("rendered_text").notNull(),
    toPhone: text("to_phone").notNull(),
    orderId: uuid("order_id"),
    subscriptionId: uuid("subscription_id"),
    userId: text("user_id"),
    customerEmail: text("customer_email"),
    /** The staff member who wrote a free-text reply in Mensajes (issue 38); null for the shop's own messages. */
    staffUserId: text("staff_user_id").references(() => users.id),
    status: text("status").$type<WhatsappMessageStatus>().notNull().default("pending"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    claimToken: uuid("claim_token"),
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    /** Meta's message id (`wamid.…`), the key its status webhooks name. */
    wamid: text("wamid").unique(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    readAt: timestamp("read_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    deadAt: timestamp("dead_at", { withTimezone: true }),
    /** Meta's error code of the last failure (131026, 132001…), when it gave one. */
    errorCode: integer("error_code"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("whatsapp_messages_due_idx").on(table.status, table.nextAttemptAt),
    index("whatsapp_messages_order_idx").on(table.orderId),
    index("whatsapp_messages_phone_idx").on(table.toPhone),
    index("whatsapp_messages_email_idx").on(table.customerEmail),
    index("whatsapp_messages_user_idx").on(table.userId),
  ],
);

/**
 * Every status Meta reported, once per message id and status: late, repeated and out-of-order
 * webhooks are recorded idempotently here and applied to the message only forwards. A status
 * that arrives before the send's answer was recorded waits here for its message.
 */
export const whatsappStatusEvents = pgTable(
  "whatsapp_status_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    wamid: text("wamid").notNull(),
    status: text("status").notNull(),
    /** Meta's timestamp of the status. */
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    errorCode: integer("error_code"),
    errorTitle: text("error_title"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
  },
  (table) => [unique("whatsapp_status_events_once").on(table.wamid, table.status)],
);

/**
 * Messages customers sent to the shop's number. An opt-out reply (BAJA, STOP, NO) is acted on at
 * once; a "lo de siempre", a tap on its summary's buttons or a typed "sí" (issue 38) is answered
 * by the shop right after (`answerState`); every other one waits for staff in Mensajes
 * (/admin/mensajes).
 */
export const whatsappInboundMessages = pgTable(
  "whatsapp_inbound_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    wamid: text("wamid").notNull().unique(),
    /** The sender as Meta names it: the number (wa_id), or a business-scoped user id. */
    fromId: text("from_id").notNull(),
    profileName: text("profile_name"),
    messageType: text("message_type").notNull(),
    body: text("body").notNull(),
    /**
     * `message` (for staff), `opt_out` (handled), `opt_in` (answered the shop's question), or what
     * the shop answered by itself (issue 38): `repeat_request`, `repeat_confirm`, `repeat_change`.
     */
    intent: text("intent").notNull(),
    /** The id of a tapped reply button (`interactive`) or a quick reply's payload (`button`). */
    replyId: text("reply_id"),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    attendedAt: timestamp("attended_at", { withTimezone: true }),
    attendedBy: text("attended_by").references(() => users.id),
    /**
     * Issue 38: a message the shop answers by itself after the webhook committed it, by the jobs'
     * `whatsappConversations` pass: `pending` until answered (`done`), or `failed` after its
     * attempts (then it waits for staff). Null: nothing for the shop to answer. Claimed like the
     * outbox (a token and a lease), so two processes never answer one message at once.
     */
    answerState: text("answer_state").$type<"pending" | "done" | "failed">(),
    answerNextAt: timestamp("answer_next_at", { withTimezone: true }),
    answerClaimedAt: timestamp("answer_claimed_at", { withTimezone: true }),
    answerClaimToken: uuid("answer_claim_token"),
    answerAttempts: integer("answer_attempts").notNull().default(0),
    answerError: text("answer_error"),
  },
  (table) => [
    index("whatsapp_inbound_messages_received_idx").on(table.receivedAt),
    index("whatsapp_inbound_messages_from_idx").on(table.fromId, table.sentAt),
    index("whatsapp_inbound_messages_answer_idx").on(table.answerState, table.answerNextAt),
  ],
);

/**
 * A ticked WhatsApp box on a number not yet proven for the person who ticked it (issue 39): one
 * template asks the number itself ("Responde SÍ para recibir avisos de tu pedido"), and the opt-in
 * exists only once that number answers. Until then nothing else is sent to it. `sentAt` is null
 * when no question left (the number wrote BAJA, or another was asked of it within the day);
 * such an ask can never be answered.
 */
export const whatsappOptInAsks = pgTable(
  "whatsapp_opt_in_asks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    phone: text("phone").notNull(),
    /** checkout | signup | profile | telefono (the office's "Nuevo pedido", decision 0091) */
    source: text("source").notNull(),
    /** The box's text as the person saw it, kept for the consent event the answer writes. */
    textShown: text("text_shown").notNull(),
    textVersion: text("text_version").notNull(),
    userId: text("user_id"),
    email: text("email"),
    orderId: uuid("order_id"),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (table) => [index("whatsapp_opt_in_asks_phone_idx").on(table.phone, table.createdAt)],
);
