import { sql } from "drizzle-orm";
import { whatsappNumber } from "@core/whatsapp";
import { phoneProvenForSql } from "../contacts/index.server";
import { noteQueuedWork } from "../db/queued-work";
import type { WhatsappInteractive } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { whatsappEnabled } from "./channel";
import { mayMessage, mayRemind } from "./consent";
import type { FilledTemplate } from "./templates";

/** A template message for one customer about one event. */
export interface WhatsappTemplateMessage {
  /** One message per key, ever (`order-confirmed:{orderId}`): queueing it again does nothing. */
  dedupeKey: string;
  /** The customer's phone as the shop stores it (9 digits, or already `51…`). */
  phone: string | null;
  template: FilledTemplate;
  orderId?: string | null;
  subscriptionId?: string | null;
  userId?: string | null;
  customerEmail?: string | null;
  /**
   * What the number's opt-in must cover: order messages (the default), or also the reorder
   * reminder, which only opt-ins under a text that names it do (`mayRemind`).
   */
  covers?: "orders" | "reminders";
}

/**
 * Queues template messages in the caller's transaction, next to the e-mail of the same event
 * (decision 0074, like decisions 0014 and 0024): a rolled-back change sends nothing, a replayed
 * one nothing twice (the dedupe key). Only numbers that opted in, are reachable and are proven for
 * the message's order or account (issue 39: a typed number proves nothing) get one, read in the
 * same statement; without WhatsApp configured nothing is queued. One statement for any
 * number of messages (a renewal batch). Returns how many were queued.
 */
export async function enqueueWhatsappTemplates(db: DatabaseOrTransaction, messages: readonly WhatsappTemplateMessage[], now: Date): Promise<number> {
  if (!whatsappEnabled()) return 0;
  const rows = messages.flatMap((message) => {
    const to = whatsappNumber(message.phone);
    return to ? [{ ...message, to }] : [];
  });
  if (rows.length === 0) return 0;
  noteQueuedWork("whatsapp");
  const values = sql.join(
    rows.map(
      (row) => sql`(${row.dedupeKey}, ${row.template.templateName}, ${row.template.languageCode}, ${JSON.stringify(row.template.parameters)}::jsonb,
        ${row.template.renderedText}, ${row.to}, ${row.orderId ?? null}::uuid, ${row.subscriptionId ?? null}::uuid, ${row.userId ?? null},
        ${row.customerEmail?.toLowerCase() ?? null}, ${row.covers === "reminders"}::boolean)`,
    ),
    sql`, `,
  );
  const at = now.toISOString();
  const inserted = await db.execute<{ id: string }>(sql`
    insert into whatsapp_messages (dedupe_key, kind, template_name, language_code, parameters, rendered_text, to_phone, order_id,
      subscription_id, user_id, customer_email, status, next_attempt_at, created_at)
    select v.dedupe_key, 'template', v.template_name, v.language_code, v.parameters, v.rendered_text, v.to_phone, v.order_id,
      v.subscription_id, v.user_id, v.customer_email, 'pending', ${at}::timestamptz, ${at}::timestamptz
    from (values ${values}) as v(dedupe_key, template_name, language_code, parameters, rendered_text, to_phone, order_id, subscription_id, user_id, customer_email, reminder)
    where case when v.reminder then ${mayRemind(sql`v.to_phone`)} else ${mayMessage(sql`v.to_phone`)} end
      and ${phoneProvenForSql(sql`v.to_phone`, { orderId: sql`v.order_id`, userId: sql`v.user_id` })}
    on conflict (dedupe_key) do nothing
    returning id`);
  return rowsOf(inserted).length;
}

/** `enqueueWhatsappTemplates` for one message; returns whether it was queued. */
export async function enqueueWhatsappTemplate(db: DatabaseOrTransaction, message: WhatsappTemplateMessage, now: Date): Promise<boolean> {
  return (await enqueueWhatsappTemplates(db, [message], now)) > 0;
}

/**
 * The question to a number not yet proven (issue 39, `requestWhatsappOptIn`): a template that
 * needs no opt-in, since it asks for one, sent once; the sender still withholds it from a number
 * that wrote BAJA or cannot receive WhatsApp.
 */
export async function enqueueWhatsappOptInAsk(
  db: DatabaseOrTransaction,
  message: { dedupeKey: string; to: string; template: FilledTemplate; orderId: string | null; userId: string | null; customerEmail: string | null },
  now: Date,
): Promise<void> {
  noteQueuedWork("whatsapp");
  const at = now.toISOString();
  await db.execute(sql`
    insert into whatsapp_messages (dedupe_key, kind, template_name, language_code, parameters, rendered_text, to_phone, order_id, user_id,
      customer_email, status, next_attempt_at, created_at)
    values (${message.dedupeKey}, 'opt_in_ask', ${message.template.templateName}, ${message.template.languageCode},
      ${JSON.stringify(message.template.parameters)}::jsonb, ${message.template.renderedText}, ${message.to}, ${message.orderId}::uuid,
      ${message.userId}, ${message.customerEmail?.toLowerCase() ?? null}, 'pending', ${at}::timestamptz, ${at}::timestamptz)
    on conflict (dedupe_key) do nothing`);
}

/**
 * A free-text reply (the opt-out confirmation, the shop's answers to "lo de siempre", a staff
 * member's answer in Mensajes). Needs no opt-in — it answers the customer's own
 * message — but only leaves inside the 24-hour window the sender checks when it is due.
 */
export async function enqueueWhatsappReply(
  db: DatabaseOrTransaction,
  message: { dedupeKey: string; to: string; text: string; staffUserId?: string | null; userId?: string | null; orderId?: string | null },
  now: Date,
): Promise<boolean> {
  if (!whatsappEnabled()) return false;
  noteQueuedWork("whatsapp");
  const at = now.toISOString();
  const inserted = await db.execute<{ id: string }>(sql`
    insert into whatsapp_messages (dedupe_key, kind, rendered_text, to_phone, staff_user_id, user_id, order_id, status, next_attempt_at, created_at)
    values (${message.dedupeKey}, 'text', ${message.text}, ${message.to}, ${message.staffUserId ?? null}, ${message.userId ?? null},
      ${message.orderId ?? null}::uuid, 'pending', ${at}::timestamptz, ${at}::timestamptz)
    on conflict (dedupe_key) do nothing
    returning id`);
  return rowsOf(inserted).length > 0;
}

/**
 * Reply buttons (issue 38: the "lo de siempre" summary): like a free-text reply, it answers the
 * customer's own message, needs no opt-in and leaves only inside the 24-hour window. `text` is
 * what staff and the local outbox read (the body and the buttons' titles).
 */
export async function enqueueWhatsappInteractive(
  db: DatabaseOrTransaction,
  message: { dedupeKey: string; to: string; interactive: WhatsappInteractive; userId?: string | null; orderId?: string | null },
  now: Date,
): Promise<boolean> {
  if (!whatsappEnabled()) return false;
  noteQueuedWork("whatsapp");
  const at = now.toISOString();
  const { body, footer, buttons } = message.interactive;
  const text = [body, footer, buttons.map((button) => `[${button.title}]`).join(" ")].filter(Boolean).join("\n\n");
  const inserted = await db.execute<{ id: string }>(sql`
    insert into whatsapp_messages (dedupe_key, kind, interactive, rendered_text, to_phone, user_id, order_id, status, next_attempt_at, created_at)
    values (${message.dedupeKey}, 'interactive', ${JSON.stringify(message.interactive)}::jsonb, ${text}, ${message.to}, ${message.userId ?? null},
      ${message.orderId ?? null}::uuid, 'pending', ${at}::timestamptz, ${at}::timestamptz)
    on conflict (dedupe_key) do nothing
    returning id`);
  return rowsOf(inserted).length > 0;
}

/**
 * A queued message that must not leave after all, while it still waits (issue 38: the «pedido
 * confirmado» template of an order the customer just confirmed in the conversation, which the
 * shop's own answer already told them): withheld with the reason staff read on the order page.
 * Returns whether it was still waiting.
 */
export async function withholdQueuedWhatsapp(db: DatabaseOrTransaction, dedupeKey: string, reason: string): Promise<boolean> {
  const withheld = await db.execute<{ id: string }>(sql`
    update whatsapp_messages set status = 'withheld', last_error = ${reason}
    where dedupe_key = ${dedupeKey} and status = 'pending'
    returning id`);
  return rowsOf(withheld).length > 0;
}

/** The rows a raw `db.execute` answered (both drivers give `{ rows }`). */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
