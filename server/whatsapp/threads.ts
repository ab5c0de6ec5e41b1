import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { whatsappStatusLabel } from "@core/whatsapp";
import { accountsOwningPhones } from "../contacts/index.server";
import type { Database } from "../db/client";
import { users, whatsappContacts, whatsappInboundMessages, whatsappMessages } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { wroteBajaAndNothingSinceSql } from "./opt-in-asks";
import { rowsOf } from "./outbox";
import { CUSTOMER_SERVICE_WINDOW_MS } from "./sender";
import { staffView } from "./staff";

/*
 * Mensajes as conversations (issue 38): one thread per number that wrote to the shop, and each
 * thread with what the number wrote and everything the shop sent it — templates, its own answers,
 * staff's free texts — in time order. Who the number is comes from server/contacts: a customer's
 * name only when the number is proven theirs; otherwise the WhatsApp profile name, which anyone
 * can set, is shown as not verified.
 */

/** Who a thread is with, as far as the shop may say. */
export interface WhatsappCorrespondent {
  phone: string;
  /** The account the number is proven for (issue 39), with its name. */
  customer: { userId: string; name: string } | null;
  /** The name the sender set in WhatsApp: proves nothing. */
  profileName: string | null;
}

export interface WhatsappThreadSummary extends WhatsappCorrespondent {
  lastAt: Date;
  lastText: string;
  lastFromCustomer: boolean;
  /** The number's messages still waiting for staff. */
  pending: number;
}

export const WHATSAPP_THREADS_LIMIT = 100;

/** A sender as Meta names it: a number (wa_id) or a business-scoped user id. */
export function isWhatsappSender(value: string): boolean {
  return /^\d{6,20}$/.test(value) || /^[A-Z]{2}(\.ENT)?\.[A-Za-z0-9]{1,128}$/.test(value);
}

/** Mensajes (/admin/mensajes): the numbers that wrote to the shop, the latest conversation first. */
export async function listWhatsappThreads(
  db: Database,
  { limit = WHATSAPP_THREADS_LIMIT }: { limit?: number } = {},
): Promise<{
  threads: WhatsappThreadSummary[];
  pending: number;
}> {
  const rows = rowsOf<{
    phone: string;
    pending: number | string;
    profile_name: string | null;
    in_at: Date | string;
    in_body: string;
    out_at: Date | string | null;
    out_text: string | null;
  }>(
    await db.execute(sql`
      with numbers as (
        select ${whatsappInboundMessages.fromId} as phone,
          count(*) filter (where ${whatsappInboundMessages.intent} = 'message' and ${whatsappInboundMessages.attendedAt} is null) as pending
        from ${whatsappInboundMessages} group by ${whatsappInboundMessages.fromId}
      )
      select n.phone, n.pending, c.profile_name, i.sent_at as in_at, i.body as in_body, o.created_at as out_at, o.rendered_text as out_text
      from numbers n
      left join ${whatsappContacts} c on c.phone = n.phone
      cross join lateral (select sent_at, body from ${whatsappInboundMessages} where from_id = n.phone order by sent_at desc, id desc limit 1) i
      left join lateral (select created_at, rendered_text from ${whatsappMessages} where to_phone = n.phone order by created_at desc limit 1) o on true
      order by greatest(i.sent_at, coalesce(o.created_at, i.sent_at)) desc, n.phone
      limit ${limit}`),
  );
  const names = await correspondents(
    db,
    rows.map((row) => ({ phone: row.phone, profileName: row.profile_name })),
  );
  const threads = rows.map((row, index) => {
    const inAt = new Date(row.in_at);
    const outAt = row.out_at ? new Date(row.out_at) : null;
    const outLater = outAt !== null && outAt.getTime() > inAt.getTime();
    return {
      ...names[index]!,
      lastAt: outLater ? outAt : inAt,
      lastText: outLater ? row.out_text! : row.in_body,
      lastFromCustomer: !outLater,
      pending: Number(row.pending),
    };
  });
  const [pending] = await db
    .select({ value: count() })
    .from(whatsappInboundMessages)
    .where(and(eq(whatsappInboundMessages.intent, "message"), isNull(whatsappInboundMessages.attendedAt)));
  return { threads, pending: Number(pending?.value ?? 0) };
}

/** Names for numbers: the proven account's, else the profile name (not verified). */
async function correspondents(db: DatabaseOrTransaction, numbers: { phone: string; profileName: string | null }[]): Promise<WhatsappCorrespondent[]> {
  const owners = await accountsOwningPhones(
    db,
    numbers.map((number) => number.phone),
  );
  const userIds = [...new Set(owners.values())];
  const accounts = userIds.length
    ? await db.select({ id: users.id, name: users.name, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, userIds))
    : [];
  const nameOf = new Map(accounts.map((account) => [account.id, [account.firstName, account.lastName].filter(Boolean).join(" ") || account.name]));
  return numbers.map(({ phone, profileName }) => {
    const userId = owners.get(phone);
    return { phone, profileName, customer: userId ? { userId, name: nameOf.get(userId) ?? "Cliente" } : null };
  });
}

/** What the shop did by itself with a customer's message, as staff read it in the thread. */
const INTENT_NOTES: Record<string, string> = {
  opt_out: "Baja de avisos aplicada",
  opt_in: "Confirmó avisos por WhatsApp",
  repeat_request: "«Lo de siempre»: respondido por la tienda",
  repeat_confirm: "Confirmó su pedido por WhatsApp",
  repeat_change: "Pidió cambiar su pedido",
};

export type WhatsappThreadEntry =
  | {
      direction: "in";
      id: string;
      at: Date;
      text: string;
      /** Why the shop answered it itself, or null for a message for staff. */
      handledNote: string | null;
      /** Waits for staff (a message the shop did not answer, not yet attended). */
      pending: boolean;
      attendedAt: Date | null;
      attendedByName: string | null;
      /** The shop could not answer it by itself (its attempts ran out): staff should. */
      answerFailed: boolean;
    }
  | {
      direction: "out";
      id: string;
      at: Date;
      text: string;
      title: string;
      status: string;
      statusLabel: string;
      reason: string | null;
      /** The staff member who wrote it (free text from Mensajes), or null for the shop's own. */
      staffName: string | null;
    };

export interface WhatsappThread extends WhatsappCorrespondent {
  /** Until when free text may go (24 hours after the number's last message), or null when it never wrote or that passed. */
  windowOpenUntil: Date | null;
  /** The number wrote BAJA and nothing since: the shop sends it nothing. */
  optedOut: boolean;
  entries: WhatsappThreadEntry[];
  pending: number;
}

/** How many messages of a thread the page shows: the latest ones. */
export const WHATSAPP_THREAD_LIMIT = 200;

/** One number's conversation (/admin/mensajes/whatsapp/{number}): oldest first, the latest 200. */
export async function readWhatsappThread(db: Database, phone: string, now: Date): Promise<WhatsappThread> {
  const inbound = await db
    .select({ message: whatsappInboundMessages, attendedByName: users.name })
    .from(whatsappInboundMessages)
    .leftJoin(users, eq(users.id, whatsappInboundMessages.attendedBy))
    .where(eq(whatsappInboundMessages.fromId, phone))
    .orderBy(desc(whatsappInboundMessages.sentAt))
    .limit(WHATSAPP_THREAD_LIMIT);
  const outbound = await db
    .select({ message: whatsappMessages, staffName: users.name })
    .from(whatsappMessages)
    .leftJoin(users, eq(users.id, whatsappMessages.staffUserId))
    .where(eq(whatsappMessages.toPhone, phone))
    .orderBy(desc(whatsappMessages.createdAt))
    .limit(WHATSAPP_THREAD_LIMIT);
  const entries: WhatsappThreadEntry[] = [
    ...inbound.map(({ message, attendedByName }): WhatsappThreadEntry => {
      const forStaff = message.intent === "message";
      return {
        direction: "in",
        id: message.id,
        at: message.sentAt,
        text: message.body,
        handledNote: forStaff ? null : (INTENT_NOTES[message.intent] ?? null),
        pending: forStaff && message.attendedAt === null,
        attendedAt: forStaff ? message.attendedAt : null,
        attendedByName: forStaff ? attendedByName : null,
        answerFailed: message.answerState === "failed",
      };
    }),
    ...outbound.map(({ message, staffName }): WhatsappThreadEntry => {
      const view = staffView(message);
      return {
        direction: "out",
        id: message.id,
        at: message.createdAt,
        text: view.text,
        title: message.kind === "interactive" ? "Respuesta con botones" : view.title,
        status: message.status,
        statusLabel: whatsappStatusLabel(message.status),
        reason: view.reason,
        staffName,
      };
    }),
  ]
    .sort((a, b) => a.at.getTime() - b.at.getTime() || (a.direction === b.direction ? 0 : a.direction === "in" ? -1 : 1))
    .slice(-WHATSAPP_THREAD_LIMIT);
  const [contact] = await db.select().from(whatsappContacts).where(eq(whatsappContacts.phone, phone));
  const [who] = await correspondents(db, [
    { phone, profileName: contact?.profileName ?? inbound.find((row) => row.message.profileName)?.message.profileName ?? null },
  ]);
  const [blocked] = rowsOf<{ blocked: boolean }>(await db.execute(sql`select ${wroteBajaAndNothingSinceSql(phone)} as blocked`));
  return {
    ...who!,
    windowOpenUntil: customerServiceWindowEnd(contact?.lastInboundAt ?? null, now),
    optedOut: Boolean(blocked?.blocked),
    entries,
    pending: entries.filter((entry) => entry.direction === "in" && entry.pending).length,
  };
}

/** When the number's 24-hour window closes, or null when it is closed (or never opened) at `now`. */
export function customerServiceWindowEnd(lastInboundAt: Date | null, now: Date): Date | null {
  if (!lastInboundAt) return null;
  const end = new Date(lastInboundAt.getTime() + CUSTOMER_SERVICE_WINDOW_MS);
  return end.getTime() > now.getTime() ? end : null;
}

/** The thread's messages for staff (oldest first): what "Marcar atendido" and a reply attend. */
export async function pendingMessagesOf(db: DatabaseOrTransaction, phone: string, upTo: Date): Promise<string[]> {
  const rows = await db
    .select({ id: whatsappInboundMessages.id })
    .from(whatsappInboundMessages)
    .where(
      and(
        eq(whatsappInboundMessages.fromId, phone),
        eq(whatsappInboundMessages.intent, "message"),
        isNull(whatsappInboundMessages.attendedAt),
        sql`${whatsappInboundMessages.receivedAt} <= ${upTo.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(whatsappInboundMessages.sentAt));
  return rows.map((row) => row.id);
}
