import { desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { WHATSAPP_OPT_IN_TEXT_VERSION, WHATSAPP_REMINDER_TEXT_VERSIONS, whatsappOptInText } from "@core/whatsapp";
import { readBrandName } from "../content/index.server";
import { whatsappConsentEvents, whatsappContacts } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { isPhoneProvenFor } from "../contacts/index.server";
import { closeOptInAsksOf, requestWhatsappOptIn } from "./opt-in-asks";

/** `telefono`: the office ticked the box on "Nuevo pedido" as the customer said on the phone (decision 0091). */
export type WhatsappConsentSource = "checkout" | "signup" | "profile" | "telefono" | "reply" | "demo";

export interface WhatsappConsentChange {
  /** E.164 without "+" (core/whatsapp.ts `whatsappNumber`). */
  phone: string;
  granted: boolean;
  source: WhatsappConsentSource;
  /** The text shown with the box; by default the current label and note with the shop's brand. */
  textShown?: string;
  textVersion?: string;
  userId?: string | null;
  email?: string | null;
  orderId?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
}

export interface WhatsappConsent {
  granted: boolean;
  source: string;
  at: Date;
  textShown: string;
}

const USER_AGENT_MAX = 400;

/**
 * Appends an opt-in or opt-out of one number (issue 25). Saying again what the latest event says
 * writes nothing, so a double click or a repeated checkout is one event; a fresh opt-in clears an
 * "unreachable" mark (the customer may have installed WhatsApp since). Returns whether it wrote.
 */
export async function recordWhatsappConsent(db: DatabaseOrTransaction, change: WhatsappConsentChange, now: Date): Promise<boolean> {
  const textVersion = change.textVersion ?? WHATSAPP_OPT_IN_TEXT_VERSION;
  const [latest] = await latestEvents(db, [change.phone]);
  if (latest && latest.granted === change.granted && (!change.granted || latest.textVersion === textVersion)) return false;
  const textShown = change.textShown ?? whatsappOptInText(await readBrandName(db));
  await db.insert(whatsappConsentEvents).values({
    phone: change.phone,
    granted: change.granted,
    source: change.source,
    textShown,
    textVersion,
    userId: change.userId ?? null,
    email: change.email?.trim().toLowerCase() ?? null,
    orderId: change.orderId ?? null,
    clientAddress: change.clientAddress ?? null,
    userAgent: change.userAgent ? change.userAgent.slice(0, USER_AGENT_MAX) : null,
    createdAt: now,
  });
  if (change.granted)
    await db.update(whatsappContacts).set({ unreachableAt: null, unreachableReason: null, updatedAt: now }).where(eq(whatsappContacts.phone, change.phone));
  return true;
}

/** The number's current choice, or null when it never chose. */
export async function currentWhatsappConsent(db: DatabaseOrTransaction, phone: string): Promise<WhatsappConsent | null> {
  const [latest] = await latestEvents(db, [phone]);
  return latest ? { granted: latest.granted, source: latest.source, at: latest.createdAt, textShown: latest.textShown } : null;
}

/** Every event of these numbers, newest first (the customer page, the Ley 29733 export). */
export async function whatsappConsentHistory(db: DatabaseOrTransaction, phones: string[]) {
  if (phones.length === 0) return [];
  return db.select().from(whatsappConsentEvents).where(inArray(whatsappConsentEvents.phone, phones)).orderBy(desc(whatsappConsentEvents.id));
}

async function latestEvents(db: DatabaseOrTransaction, phones: string[]) {
  return db
    .selectDistinctOn([whatsappConsentEvents.phone])
    .from(whatsappConsentEvents)
    .where(inArray(whatsappConsentEvents.phone, phones))
    .orderBy(whatsappConsentEvents.phone, desc(whatsappConsentEvents.id));
}

/**
 * A condition for a query over numbers: this one may be sent templates now — its latest event is
 * an opt-in and Meta has not said it cannot receive WhatsApp. Read when a message is queued and
 * again when it is about to leave, so an opt-out acts at once.
 */
export function mayMessage(phone: SQL | string): SQL {
  const number = typeof phone === "string" ? sql`${phone}` : phone;
  return sql`(select ${whatsappConsentEvents.granted} from ${whatsappConsentEvents} where ${whatsappConsentEvents.phone} = ${number} order by ${whatsappConsentEvents.id} desc limit 1) is true
    and not exists (select 1 from ${whatsappContacts} where ${whatsappContacts.phone} = ${number} and ${whatsappContacts.unreachableAt} is not null)`;
}

/**
 * `mayMessage`, and the number's opt-in is one whose text named the reorder reminder
 * (`WHATSAPP_REMINDER_TEXT_VERSIONS`): only then may a reminder go by WhatsApp.
 */
export function mayRemind(phone: SQL | string): SQL {
  const number = typeof phone === "string" ? sql`${phone}` : phone;
  const versions = sql.join(
    WHATSAPP_REMINDER_TEXT_VERSIONS.map((version) => sql`${version}`),
    sql`, `,
  );
  return sql`${mayMessage(number)}
    and (select ${whatsappConsentEvents.textVersion} from ${whatsappConsentEvents} where ${whatsappConsentEvents.phone} = ${number} order by ${whatsappConsentEvents.id} desc limit 1) in (${versions})`;
}

/**
 * The profile's box (issue 25): ticked, the profile's number opts in (once proven, issue 39: else
 * it is asked); unticked, whichever of its proven numbers (the one saved now, the one it replaces)
 * is opted in opts out, and a question still waiting is withdrawn. A number that never chose
 * gets no event for an unticked box. Returns how many events were written.
 */
export async function saveProfileWhatsappChoice(
  db: DatabaseOrTransaction,
  choice: {
    optIn: boolean;
    phone: string | null;
    previousPhone: string | null;
    userId: string;
    email: string;
    clientAddress?: string | null;
    userAgent?: string | null;
  },
  now: Date,
): Promise<number> {
  const { optIn, phone, previousPhone, ...who } = choice;
  // Issue 39: a ticked box opts in a number proven the account's; any other is asked first.
  if (optIn) return phone && ["granted", "asked"].includes(await requestWhatsappOptIn(db, { ...who, phone, source: "profile" }, now)) ? 1 : 0;
  await closeOptInAsksOf(db, who.userId, now);
  let written = 0;
  for (const number of new Set([phone, previousPhone].filter((value): value is string => value !== null))) {
    // Issue 39: an unticked box speaks only for a number proven the account's, never for the
    // person whose opt-in a typed number would otherwise end.
    if (
      (await isPhoneProvenFor(db, number, { userId: who.userId, orderId: null })) &&
      (await currentWhatsappConsent(db, number))?.granted &&
      (await recordWhatsappConsent(db, { ...who, phone: number, granted: false, source: "profile" }, now))
    )
      written += 1;
  }
  return written;
}
