import { asc, desc, eq, sql } from "drizzle-orm";
import { limaToday, addDays } from "@core/lima-dates";
import {
  MAX_REORDER_INTERVAL_DAYS,
  MIN_REORDER_INTERVAL_DAYS,
  REMINDER_GRACE_DAYS,
  REMINDER_LEAD_DAYS,
  reminderTiming,
  type ReminderTiming,
} from "@core/reorder-pace";
import { addressesWithPromotionalConsent, emailPreferencesUrl } from "../consent/index.server";
import { getIssuer, readSiteSettingsFor } from "../content/index.server";
import type { Database } from "../db/client";
import { orderItems, orders, reorderReminders } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { enqueueEmail, reorderReminderEmail } from "../notifications/index.server";
import { enqueueWhatsappTemplate, reorderReminderWhatsapp } from "../whatsapp/index.server";
import { reorderUrl } from "./reorder-link";

/** A reminder's link lets the customer reorder for two weeks with their data filled in. */
export const REMINDER_LINK_DAYS = 14;

/** Who a reminder is for: the customer of the bidones ledger (an account, or a guest's e-mail). */
export interface ReminderCustomer {
  customerKey: string;
  userId: string | null;
  /** Where the reminder goes: the account's e-mail, or the guest's. */
  email: string;
  /** The account's phone, else the last order's: the number a WhatsApp reminder would go to. */
  phone: string | null;
  firstName: string;
  lastOrderId: string;
  lastOrderNumber: string;
  lastOrderDay: string;
}

export type ReminderChannel = "email" | "whatsapp";

export interface UpcomingReminder extends ReminderCustomer, ReminderTiming {
  /** Already sent for this interval. */
  sentAt: string | null;
}

const LIMA = sql.raw(`'America/Lima'`);

interface PaceRow {
  customer_key: string;
  user_id: string | null;
  email: string;
  phone: string | null;
  first_name: string;
  last_order_id: string;
  last_order_number: string;
  /** A date: text from the query; node-postgres may hand a Date for a date column, hence the String(). */
  last_day: string;
  /** int from PGlite, a string from node-postgres for some types: read with Number(). */
  interval_days: number | string;
  sent_at: Date | string | null;
}

/**
 * Customers whose reminder is due on or before `untilDay` and not past its grace at `today`:
 * one-time buyers with two or more order days (paid orders), their interval (the median of the
 * days between them, core/reorder-pace.ts) in range, no subscription other than a cancelled one.
 * One statement: PostgreSQL computes each customer's median with percentile_cont, so the server
 * never holds the orders. Consent is the caller's to check (through its door).
 */
async function customersAtPace(db: DatabaseOrTransaction, input: { today: string; untilDay: string; limit: number }) {
  const result = await db.execute(sql`
    with paid as (
      select ${orders.id} as id, ${orders.orderNumber} as order_number, ${orders.userId} as user_id, ${orders.customerFirstName} as first_name,
             lower(${orders.customerEmail}) as email, ${orders.customerPhone} as phone, ${orders.paidAt} as paid_at,
             coalesce('user:' || ${orders.userId}, 'email:' || lower(${orders.customerEmail})) as customer_key,
             (${orders.paidAt} at time zone ${LIMA})::date as day
      from ${orders}
      where ${orders.orderType} = 'one-time' and ${orders.paidAt} is not null
        and ${orders.status} in ('paid', 'processing', 'shipped', 'delivered')
    ),
    days as (select distinct customer_key, day from paid),
    gaps as (select customer_key, day - lag(day) over (partition by customer_key order by day) as gap from days),
    pace as (
      select customer_key, round(percentile_cont(0.5) within group (order by gap))::int as interval_days
      from gaps where gap is not null group by customer_key
    ),
    last_order as (
      select distinct on (customer_key) customer_key, id, order_number, user_id, email, phone, first_name, day
      from paid order by customer_key, paid_at desc, id desc
    )
    select l.customer_key, l.user_id, coalesce(u.email, l.email) as email, coalesce(u.phone, l.phone) as phone, l.first_name, l.id as last_order_id,
           l.order_number as last_order_number, l.day::text as last_day, p.interval_days, r.sent_at
    from last_order l
    join pace p on p.customer_key = l.customer_key
    left join users u on u.id = l.user_id
    left join ${reorderReminders} r on r.customer_key = l.customer_key and r.last_order_id = l.id
    where p.interval_days between ${MIN_REORDER_INTERVAL_DAYS} and ${MAX_REORDER_INTERVAL_DAYS}
      and l.day + p.interval_days - ${REMINDER_LEAD_DAYS}::int <= ${input.untilDay}::date
      and l.day + p.interval_days + ${REMINDER_GRACE_DAYS}::int >= ${input.today}::date
      and not exists (
        select 1 from subscriptions s left join users su on su.id = s.user_id
        where s.status <> 'cancelled' and (s.user_id = l.user_id or su.email = l.email)
      )
    order by l.day + p.interval_days, l.customer_key
    limit ${input.limit}`);
  const rows = (result as unknown as { rows: PaceRow[] }).rows;
  return rows.flatMap((row): UpcomingReminder[] => {
    const timing = reminderTiming(String(row.last_day).slice(0, 10), Number(row.interval_days));
    if (!timing) return [];
    return [
      {
        customerKey: row.customer_key,
        userId: row.user_id,
        email: row.email,
        phone: row.phone,
        firstName: row.first_name,
        lastOrderId: row.last_order_id,
        lastOrderNumber: row.last_order_number,
        lastOrderDay: String(row.last_day).slice(0, 10),
        sentAt: row.sent_at ? new Date(row.sent_at).toISOString() : null,
        ...timing,
      },
    ];
  });
}

/**
 * What /admin/recordatorios shows (decision 0076): the reminders due in the next `days` days (and
 * those whose day passed within their grace), with whether each was sent, only for customers whose
 * promotional consent is in force; and whether the feature is on.
 */
export async function upcomingReorderReminders(db: Database, now: Date, days = 14): Promise<{ enabled: boolean; upcoming: UpcomingReminder[] }> {
  const today = limaToday(now);
  const candidates = await customersAtPace(db, { today, untilDay: addDays(today, days), limit: 500 });
  const consenting = await addressesWithPromotionalConsent(
    db,
    candidates.map((row) => row.email),
  );
  return { enabled: await remindersEnabled(db), upcoming: candidates.filter((row) => consenting.has(row.email)) };
}

/** The reminders sent most recently, newest first, for the staff view. */
export async function recentReorderReminders(db: Database, limit = 30) {
  const rows = await db
    .select({
      id: reorderReminders.id,
      email: reorderReminders.email,
      intervalDays: reorderReminders.intervalDays,
      runsOutOn: reorderReminders.runsOutOn,
      channel: reorderReminders.channel,
      sentAt: reorderReminders.sentAt,
      orderNumber: orders.orderNumber,
    })
    .from(reorderReminders)
    .innerJoin(orders, eq(orders.id, reorderReminders.lastOrderId))
    .orderBy(desc(reorderReminders.sentAt), desc(reorderReminders.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, sentAt: row.sentAt.toISOString() }));
}

async function remindersEnabled(db: DatabaseOrTransaction): Promise<boolean> {
  return (await readSiteSettingsFor(db, ["reorderRemindersEnabled"])).reorderRemindersEnabled;
}

/**
 * The reminders job (decision 0076): each customer due today (their day, up to its grace) gets one
 * "¿Te queda agua?" with the signed reorder link of their last order. Only with promotional consent
 * in force (read again when the e-mail leaves: one queued before an opt-out is withheld), never to
 * subscribers, never when staff turned the feature off. One per interval: the reminder's row is
 * unique per customer and last order, and is written with its e-mail in one transaction, so two
 * processes, or a pass run twice, send it once. Each customer on their own: one that fails is
 * logged and tried on the next pass.
 */
export async function sendReorderReminders(db: Database, input: { now: Date; siteUrl: string }): Promise<{ sent: number }> {
  if (!(await remindersEnabled(db))) return { sent: 0 };
  const today = limaToday(input.now);
  const due = (await customersAtPace(db, { today, untilDay: today, limit: 200 })).filter((row) => row.sentAt === null);
  if (due.length === 0) return { sent: 0 };
  const consenting = await addressesWithPromotionalConsent(
    db,
    due.map((row) => row.email),
  );
  let sent = 0;
  for (const customer of due.filter((row) => consenting.has(row.email))) {
    try {
      if (await sendOne(db, customer, input)) sent += 1;
    } catch (error) {
      console.error(`[reorders] reminder for ${customer.customerKey} could not be queued; it is tried on the next pass`, error);
    }
  }
  return { sent };
}

/**
 * One reminder and its message in one transaction. The channel is chosen here (decision 0076): by
 * WhatsApp when the number's opt-in names the reminder (the outbox queues it only then), else by
 * e-mail; the reminder's row records which.
 */
async function sendOne(db: Database, customer: UpcomingReminder, input: { now: Date; siteUrl: string }): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [written] = await tx
      .insert(reorderReminders)
      .values({
        customerKey: customer.customerKey,
        userId: customer.userId,
        email: customer.email,
        lastOrderId: customer.lastOrderId,
        intervalDays: customer.intervalDays,
        runsOutOn: customer.runsOutOn,
        channel: "email" satisfies ReminderChannel,
        sentAt: input.now,
      })
      .onConflictDoNothing({ target: [reorderReminders.customerKey, reorderReminders.lastOrderId] })
      .returning({ id: reorderReminders.id });
    if (!written) return false;
    const items = await tx
      .select({ title: orderItems.title, variantTitle: orderItems.variantTitle, quantity: orderItems.quantity })
      .from(orderItems)
      .where(eq(orderItems.orderId, customer.lastOrderId))
      .orderBy(asc(orderItems.id));
    const link = reorderUrl(customer.lastOrderId, { now: input.now, siteUrl: input.siteUrl, days: REMINDER_LINK_DAYS });
    const linkUrl = new URL(link);
    const byWhatsapp = await enqueueWhatsappTemplate(
      tx,
      reorderReminderWhatsapp({
        reminderId: written.id,
        lastOrderId: customer.lastOrderId,
        phone: customer.phone,
        firstName: customer.firstName,
        userId: customer.userId,
        email: customer.email,
        siteUrl: input.siteUrl,
        runsOutOn: customer.runsOutOn,
        itemsSummary: items.map((item) => `${item.quantity} × ${item.variantTitle ? `${item.title} ${item.variantTitle}` : item.title}`).join(", "),
        reorderPath: `${linkUrl.pathname.slice(1)}${linkUrl.search}`,
      }),
      input.now,
    );
    if (byWhatsapp) {
      await tx
        .update(reorderReminders)
        .set({ channel: "whatsapp" satisfies ReminderChannel })
        .where(eq(reorderReminders.id, written.id));
      return true;
    }
    const email = reorderReminderEmail({
      sender: await getIssuer(tx),
      firstName: customer.firstName,
      runsOutOn: customer.runsOutOn,
      intervalDays: customer.intervalDays,
      items,
      reorderUrl: link,
      unsubscribeUrl: emailPreferencesUrl(customer.email, input.siteUrl),
    });
    await enqueueEmail(tx, { dedupeKey: `reorder-reminder:${written.id}`, kind: "reorder-reminder", to: customer.email, ...email }, input.now);
    return true;
  });
}

/** The reminders' query reads every paid one-time order's day: once every few minutes is plenty for a daily reminder. */
export const REMINDERS_EVERY_MS = 10 * 60_000;
let lastPassAt: number | null = null;

/**
 * `sendReorderReminders` at most once every REMINDERS_EVERY_MS of the passes' clock in this process
 * (the server's jobs run every 30 s); `npm run jobs:run` is a new process each time, so it always runs.
 * Null when it was not due.
 */
export async function sendReorderRemindersWhenDue(db: Database, input: { now: Date; siteUrl: string }): Promise<{ sent: number } | null> {
  const at = input.now.getTime();
  if (lastPassAt !== null && at >= lastPassAt && at - lastPassAt < REMINDERS_EVERY_MS) return null;
  lastPassAt = at;
  return sendReorderReminders(db, input);
}
