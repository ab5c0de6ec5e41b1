import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { PROMOTIONAL_CONSENT_TEXT_VERSION, type ConsentMethod, type ConsentSource } from "@core/promotional-consent";
import type { Database } from "../db/client";
import { promotionalConsentEvents, promotionalConsentRequests } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";

/** Who asked (server/config/client-address.ts), with what browser and account; kept as evidence. */
export interface ConsentEvidence {
  clientAddress?: string | null;
  userAgent?: string | null;
  userId?: string | null;
}

export interface PromotionalConsent {
  /** A confirmed consent is in force (the only kind promotions may go to). */
  granted: boolean;
  /** An ask waits for its confirmation e-mail to be answered (no revocation since). */
  pending: boolean;
  source: ConsentSource | null;
  at: Date | null;
}

/** Longer user agents are cut: evidence, not a place to store whatever a client sends. */
const USER_AGENT_MAX = 400;
/** How long a confirmation link works. */
export const CONSENT_REQUEST_DAYS = 7;
/** One confirmation e-mail a day per address at most: a ticked box must not become a way to mail someone. */
const ONE_ASK_PER_MS = 24 * 60 * 60 * 1000;

const evidence = (input: ConsentEvidence) => ({
  userId: input.userId ?? null,
  clientAddress: input.clientAddress ?? null,
  userAgent: input.userAgent ? input.userAgent.slice(0, USER_AGENT_MAX) : null,
});
const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");
const normalised = (email: string) => email.trim().toLowerCase();

/**
 * Issue 24 (decision 0072): a ticked box (checkout, sign-up) or "Quiero recibir promociones" asks
 * for consent; it records nothing that counts. Returns the token of the confirmation link to
 * e-mail, or null when nothing is to be sent: the address already consents under this text, or
 * was asked less than a day ago (that link still works).
 */
export async function requestPromotionalConsent(
  db: DatabaseOrTransaction,
  ask: { email: string; source: ConsentSource; consentText: string; textVersion?: string } & ConsentEvidence,
  now: Date,
): Promise<{ token: string } | null> {
  const email = normalised(ask.email);
  const textVersion = ask.textVersion ?? PROMOTIONAL_CONSENT_TEXT_VERSION;
  const [latest] = await latestEvents(db, [email]);
  if (latest && countsAsConsent(latest) && latest.textVersion === textVersion) return null;
  const [recent] = await db
    .select({ id: promotionalConsentRequests.id })
    .from(promotionalConsentRequests)
    .where(
      and(
        eq(promotionalConsentRequests.email, email),
        isNull(promotionalConsentRequests.confirmedAt),
        gt(promotionalConsentRequests.createdAt, new Date(now.getTime() - ONE_ASK_PER_MS)),
      ),
    )
    .limit(1);
  if (recent) return null;
  const token = randomBytes(32).toString("base64url");
  await db.insert(promotionalConsentRequests).values({
    email,
    tokenHash: tokenHash(token),
    source: ask.source,
    textVersion,
    consentText: ask.consentText,
    ...evidence(ask),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CONSENT_REQUEST_DAYS * 24 * 60 * 60 * 1000),
  });
  return { token };
}

export type ConsentRequestView = { valid: false } | { valid: true; email: string; consentText: string; confirmed: boolean; expired: boolean };

/** What the confirmation link's page shows. Reads only: a link scanner confirms nothing. */
export async function readPromotionalConsentRequest(db: DatabaseOrTransaction, token: string, now: Date): Promise<ConsentRequestView> {
  if (!token || token.length > 100) return { valid: false };
  const [request] = await db
    .select()
    .from(promotionalConsentRequests)
    .where(eq(promotionalConsentRequests.tokenHash, tokenHash(token)));
  if (!request) return { valid: false };
  return {
    valid: true,
    email: request.email,
    consentText: request.consentText,
    confirmed: request.confirmedAt !== null,
    expired: request.expiresAt <= now,
  };
}

export type ConfirmConsentResult = { ok: true; email: string } | { ok: false; reason: "invalid" | "expired" };

/**
 * The POST of the confirmation page: the consent exists from now, recorded with when, how (this
 * confirmation), the exact text the person was shown when they asked, where they asked, and who
 * confirmed (client address, browser). Confirming twice records it once. A confirmation is the
 * owner's own opt-in, so it is also what ends an earlier revocation.
 */
export async function confirmPromotionalConsent(db: Database, input: { token: string } & ConsentEvidence, now: Date): Promise<ConfirmConsentResult> {
  if (!input.token || input.token.length > 100) return { ok: false, reason: "invalid" };
  return inTransaction(db, async (tx) => {
    const [request] = await tx
      .select()
      .from(promotionalConsentRequests)
      .where(eq(promotionalConsentRequests.tokenHash, tokenHash(input.token)))
      .for("update");
    if (!request) return { ok: false as const, reason: "invalid" as const };
    if (request.confirmedAt) return { ok: true as const, email: request.email };
    if (request.expiresAt <= now) return { ok: false as const, reason: "expired" as const };
    await tx.update(promotionalConsentRequests).set({ confirmedAt: now }).where(eq(promotionalConsentRequests.id, request.id));
    await tx.insert(promotionalConsentEvents).values({
      email: request.email,
      granted: true,
      source: request.source,
      method: "email-confirmation",
      textVersion: request.textVersion,
      consentText: request.consentText,
      requestId: request.id,
      ...evidence({ ...input, userId: input.userId ?? request.userId }),
      createdAt: now,
    });
    return { ok: true as const, email: request.email };
  });
}

/**
 * A revocation (RFC 8058's one-click POST, the preferences page's button): immediate, no
 * confirmation needed, and it also voids every confirmation link still waiting (an ask made
 * before it can no longer undo it). Revoking an address that has no consent in force writes no
 * event, so a double click or a retried one-click POST is one event. Returns whether one was written.
 */
export async function revokePromotionalConsent(
  db: DatabaseOrTransaction,
  revocation: { email: string; source: ConsentSource; method: ConsentMethod; buttonText: string } & ConsentEvidence,
  now: Date,
): Promise<boolean> {
  const email = normalised(revocation.email);
  await db
    .update(promotionalConsentRequests)
    .set({ expiresAt: now })
    .where(and(eq(promotionalConsentRequests.email, email), isNull(promotionalConsentRequests.confirmedAt), gt(promotionalConsentRequests.expiresAt, now)));
  const [latest] = await latestEvents(db, [email]);
  if (!latest || !latest.granted) return false;
  await db.insert(promotionalConsentEvents).values({
    email,
    granted: false,
    source: revocation.source,
    method: revocation.method,
    textVersion: PROMOTIONAL_CONSENT_TEXT_VERSION,
    consentText: revocation.buttonText,
    ...evidence(revocation),
    createdAt: now,
  });
  return true;
}

/** A grant counts only when it came from a confirmed ask (double opt-in); older grants prove nothing. */
function countsAsConsent(event: { granted: boolean; requestId: number | null }): boolean {
  return event.granted && event.requestId !== null;
}

/** The address's current choice, and whether an ask of it waits for confirmation. */
export async function currentPromotionalConsent(db: DatabaseOrTransaction, email: string, now: Date = new Date()): Promise<PromotionalConsent> {
  const address = normalised(email);
  const [latest] = await latestEvents(db, [address]);
  const granted = latest ? countsAsConsent(latest) : false;
  const [pendingAsk] = granted
    ? []
    : await db
        .select({ createdAt: promotionalConsentRequests.createdAt })
        .from(promotionalConsentRequests)
        .where(
          and(
            eq(promotionalConsentRequests.email, address),
            isNull(promotionalConsentRequests.confirmedAt),
            gt(promotionalConsentRequests.expiresAt, now),
            latest ? gt(promotionalConsentRequests.createdAt, latest.createdAt) : sql`true`,
          ),
        )
        .limit(1);
  return { granted, pending: Boolean(pendingAsk), source: latest?.source ?? null, at: latest?.createdAt ?? null };
}

/** Of these addresses, the ones with a confirmed consent in force: the only ones promotions may go to. */
export async function addressesWithPromotionalConsent(db: DatabaseOrTransaction, emails: string[]): Promise<Set<string>> {
  const wanted = [...new Set(emails.map(normalised))];
  if (wanted.length === 0) return new Set();
  const latest = await latestEvents(db, wanted);
  return new Set(latest.filter(countsAsConsent).map((event) => event.email));
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
    .where(eq(promotionalConsentEvents.email, normalised(email)))
    .orderBy(desc(promotionalConsentEvents.id));
}

/**
 * A condition for another domain's query: the address in `emailColumn` has a confirmed consent in
 * force (its latest event grants, from a confirmed ask). Lets a job select only the rows it may
 * mail, so rows without consent never crowd out the ones with it.
 */
export function hasPromotionalConsent(emailColumn: AnyColumn): SQL {
  return sql`(select ${promotionalConsentEvents.granted} and ${promotionalConsentEvents.requestId} is not null from ${promotionalConsentEvents} where ${promotionalConsentEvents.email} = ${emailColumn} order by ${promotionalConsentEvents.id} desc limit 1) is true`;
}
