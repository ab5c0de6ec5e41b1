import { desc, eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { PROMOTIONAL_CONSENT_TEXT_VERSION, type ConsentSource } from "@core/promotional-consent";
import { promotionalConsentEvents } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

export interface ConsentChange {
  email: string;
  granted: boolean;
  source: ConsentSource;
  /** Who asked (server/config/client-address.ts) and with what browser; kept as evidence. */
  clientAddress?: string | null;
  userAgent?: string | null;
  userId?: string | null;
  textVersion?: string;
}

export interface PromotionalConsent {
  granted: boolean;
  source: ConsentSource;
  at: Date;
}

/** Longer user agents are cut: evidence, not a place to store whatever a client sends. */
const USER_AGENT_MAX = 400;

/**
 * Appends a consent or revocation (issue 12). Saying again what the latest event already says,
 * with the same wording, writes nothing, so a double click or a retried one-click POST is one
 * event. Returns whether an event was written.
 */
export async function recordPromotionalConsent(db: DatabaseOrTransaction, change: ConsentChange, now: Date): Promise<boolean> {
  const email = change.email.trim().toLowerCase();
  const textVersion = change.textVersion ?? PROMOTIONAL_CONSENT_TEXT_VERSION;
  const [latest] = await latestEvents(db, [email]);
  if (latest && latest.granted === change.granted && (!change.granted || latest.textVersion === textVersion)) return false;
  await db.insert(promotionalConsentEvents).values({
    email,
    granted: change.granted,
    source: change.source,
    textVersion,
    userId: change.userId ?? null,
    clientAddress: change.clientAddress ?? null,
    userAgent: change.userAgent ? change.userAgent.slice(0, USER_AGENT_MAX) : null,
    createdAt: now,
  });
  return true;
}

/** The address's current choice (its latest event), or null when it never chose. */
export async function currentPromotionalConsent(db: DatabaseOrTransaction, email: string): Promise<PromotionalConsent | null> {
  const [latest] = await latestEvents(db, [email.trim().toLowerCase()]);
  return latest ? { granted: latest.granted, source: latest.source, at: latest.createdAt } : null;
}

/** Of these addresses, the ones whose latest event is a consent: the only ones promotions may go to. */
export async function addressesWithPromotionalConsent(db: DatabaseOrTransaction, emails: string[]): Promise<Set<string>> {
  const wanted = [...new Set(emails.map((email) => email.trim().toLowerCase()))];
  if (wanted.length === 0) return new Set();
  const latest = await latestEvents(db, wanted);
  return new Set(latest.filter((event) => event.granted).map((event) => event.email));
}

/** The latest event of each address (highest id: ids follow insertion, timestamps may tie). */
async function latestEvents(db: DatabaseOrTransaction, emails: string[]) {
  return db
    .selectDistinctOn([promotionalConsentEvents.email])
    .from(promotionalConsentEvents)
    .where(inArray(promotionalConsentEvents.email, emails))
    .orderBy(promotionalConsentEvents.email, desc(promotionalConsentEvents.id));
}

/** Every event of an address, newest first (ARCO access requests, tests). */
export async function promotionalConsentHistory(db: DatabaseOrTransaction, email: string) {
  return db
    .select()
    .from(promotionalConsentEvents)
    .where(eq(promotionalConsentEvents.email, email.trim().toLowerCase()))
    .orderBy(desc(promotionalConsentEvents.id));
}

/**
 * A condition for another domain's query: the address in `emailColumn` has consent now (its
 * latest event grants). Lets a job select only the rows it may mail, so rows without consent
 * never crowd out the ones with it.
 */
export function hasPromotionalConsent(emailColumn: AnyColumn): SQL {
  return sql`(select ${promotionalConsentEvents.granted} from ${promotionalConsentEvents} where ${promotionalConsentEvents.email} = ${emailColumn} order by ${promotionalConsentEvents.id} desc limit 1) is true`;
}
