import { eq, inArray, lte, sql } from "drizzle-orm";
import { env, publicSiteUrl } from "../config/env";
import { getSiteSettings } from "../content/index.server";
import type { Database } from "../db/client";
import { signInFailures, users } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { enqueueEmail, signInAttemptsEmail } from "../notifications/index.server";

/**
 * Sign-in throttling (docs/decisions/0029-sign-in-throttling.md). Only failed passwords count.
 * Each key lets `freeFailures` through, then every further attempt waits
 * `baseDelaySeconds · 2^(failures − freeFailures)`, at most `maxDelaySeconds`; a key's failures
 * are forgotten after `forgetAfterSeconds` without one.
 */
export interface ThrottleRule {
  freeFailures: number;
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  forgetAfterSeconds: number;
}

export const SIGN_IN_THROTTLE = {
  /** One account tried from one client (or one known device): the guessing brake. */
  accountOnClient: { freeFailures: 5, baseDelaySeconds: 30, maxDelaySeconds: 15 * 60, forgetAfterSeconds: 60 * 60 },
  /**
   * One account from anywhere: a ceiling for guessing spread over many clients. High, and its
   * delay stays short, so strangers' failures can only slow the owner down, never lock them out.
   */
  account: { freeFailures: 50, baseDelaySeconds: 1, maxDelaySeconds: 30, forgetAfterSeconds: 60 * 60 },
  /** One client over every account (credential stuffing). Scaled like the other per-client limits. */
  get client(): ThrottleRule {
    return { freeFailures: 30 * env().CLIENT_RATE_LIMIT_FACTOR, baseDelaySeconds: 2, maxDelaySeconds: 15 * 60, forgetAfterSeconds: 60 * 60 };
  },
  /** Failures on one account (from anywhere) after which its owner is told, once per window. */
  notifyOwnerAfter: 10,
};

/**
 * The keys one attempt is counted under. Their names sort in the order they are locked (account
 * on client, account, client), and the reset's delete locks them in key order too, so two
 * transactions never wait on each other.
 */
function keysFor(email: string, client: string): { key: string; account: string | null; rule: ThrottleRule }[] {
  return [
    { key: `account-client:${email}|${client}`, account: email, rule: SIGN_IN_THROTTLE.accountOnClient },
    { key: `account:${email}`, account: email, rule: SIGN_IN_THROTTLE.account },
    { key: `client:${client}`, account: null, rule: SIGN_IN_THROTTLE.client },
  ];
}

export function normalizeAccount(email: string): string {
  return email.trim().toLowerCase();
}

export type SignInAttempt =
  | { allowed: false; retryAfterSeconds: number }
  | { allowed: true; email: string; keys: string[]; accountFailures: number; accountWindowStartedAt: Date; now: Date };

class Throttled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("throttled");
  }
}

/**
 * Reserves the right to check one password: counts the attempt as a failure on every key, in
 * one transaction, unless a key is still waiting, in which case nothing is counted. Counting
 * before the password is checked is what stops a burst of parallel guesses from all slipping
 * into the same free slot; `attemptSucceeded` takes the count back.
 */
export async function claimSignInAttempt(db: Database, input: { email: string; client: string }, now: Date): Promise<SignInAttempt> {
  const email = normalizeAccount(input.email);
  const keys = keysFor(email, input.client);
  try {
    const counted = await inTransaction(db, async (tx) => {
      const results: { failures: number; firstFailedAt: Date }[] = [];
      for (const { key, account, rule } of keys) {
        const row = await countFailure(tx, key, account, rule, now);
        if (!row) throw new Throttled(await secondsUntilAllowed(tx, key, now));
        results.push(row);
      }
      return results;
    });
    const account = counted[1]!;
    return {
      allowed: true,
      email,
      keys: keys.map((entry) => entry.key),
      accountFailures: account.failures,
      accountWindowStartedAt: account.firstFailedAt,
      now,
    };
  } catch (error) {
    if (error instanceof Throttled) return { allowed: false, retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
}

type Executor = Pick<Database, "insert" | "select">;

/** One upsert: a fresh row, a restarted one after a quiet spell, or one more failure — unless the key is waiting. */
async function countFailure(db: Executor, key: string, account: string | null, rule: ThrottleRule, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const forgotten = sql`${signInFailures.lastFailedAt} <= ${new Date(now.getTime() - rule.forgetAfterSeconds * 1000).toISOString()}::timestamptz`;
  const firstBlock = rule.freeFailures <= 1 ? new Date(now.getTime() + rule.baseDelaySeconds * 1000) : null;
  const delay = sql`least(${rule.maxDelaySeconds}::float8, ${rule.baseDelaySeconds}::float8 * power(2::float8, least(${signInFailures.failures} + 1 - ${rule.freeFailures}::int, 30)))`;
  const [row] = await db
    .insert(signInFailures)
    .values({ key, account, failures: 1, firstFailedAt: now, lastFailedAt: now, blockedUntil: firstBlock })
    .onConflictDoUpdate({
      target: signInFailures.key,
      set: {
        failures: sql`case when ${forgotten} then 1 else ${signInFailures.failures} + 1 end`,
        firstFailedAt: sql`case when ${forgotten} then ${at} else ${signInFailures.firstFailedAt} end`,
        lastFailedAt: now,
        blockedUntil: sql`case
          when ${forgotten} then ${firstBlock?.toISOString() ?? null}::timestamptz
          when ${signInFailures.failures} + 1 >= ${rule.freeFailures}::int then ${at} + make_interval(secs => ${delay})
          else null end`,
      },
      setWhere: sql`${signInFailures.blockedUntil} is null or ${signInFailures.blockedUntil} <= ${at} or ${forgotten}`,
    })
    .returning({ failures: signInFailures.failures, firstFailedAt: signInFailures.firstFailedAt });
  return row;
}

async function secondsUntilAllowed(db: Executor, key: string, now: Date): Promise<number> {
  const [row] = await db.select({ blockedUntil: signInFailures.blockedUntil }).from(signInFailures).where(eq(signInFailures.key, key));
  const until = row?.blockedUntil?.getTime() ?? now.getTime();
  return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
}

/**
 * The password was right: this client is the owner's, so its count for the account starts
 * over, and the attempt is taken back from the account's and the client's counts. The key is
 * open again afterwards: it was open when the attempt was claimed, and only this attempt could
 * have closed it since.
 */
export async function attemptSucceeded(db: Database, attempt: Extract<SignInAttempt, { allowed: true }>): Promise<void> {
  const [accountOnClient, ...others] = attempt.keys;
  await db.delete(signInFailures).where(eq(signInFailures.key, accountOnClient!));
  for (const key of others) await takeBack(db, key);
}

/** The attempt ended without a password verdict (an unexpected error): it is not a failure. */
export async function attemptAbandoned(db: Database, attempt: Extract<SignInAttempt, { allowed: true }>): Promise<void> {
  for (const key of attempt.keys) await takeBack(db, key);
}

async function takeBack(db: Database, key: string): Promise<void> {
  await db
    .update(signInFailures)
    .set({ failures: sql`greatest(${signInFailures.failures} - 1, 0)`, blockedUntil: null })
    .where(eq(signInFailures.key, key));
}

/**
 * The password was wrong; it is already counted. Past the notice threshold the owner gets one
 * e-mail per window of failures (the window's start is in the dedupe key), through the outbox.
 */
export async function attemptFailed(db: Database, attempt: Extract<SignInAttempt, { allowed: true }>): Promise<void> {
  if (attempt.accountFailures >= SIGN_IN_THROTTLE.notifyOwnerAfter) await notifyOwner(db, attempt);
  // Rows of addresses nobody uses would otherwise pile up; a light sweep now and then is enough.
  if (Math.random() < 0.01) await forgetStaleFailures(db, attempt.now);
}

async function notifyOwner(db: Database, attempt: Extract<SignInAttempt, { allowed: true }>): Promise<void> {
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name, firstName: users.firstName })
    .from(users)
    .where(eq(users.email, attempt.email));
  if (!user) return;
  const settings = await getSiteSettings(db);
  const email = signInAttemptsEmail({
    brandName: settings.brandName,
    firstName: user.firstName || (user.name.split(" ")[0] ?? ""),
    failures: attempt.accountFailures,
    forgotUrl: `${publicSiteUrl()}/forgot-password`,
  });
  await enqueueEmail(
    db,
    { dedupeKey: `sign-in-attempts:${user.id}:${attempt.accountWindowStartedAt.toISOString()}`, kind: "sign_in_attempts", to: user.email, ...email },
    attempt.now,
  );
}

/** A password reset proves the owner: every failure counted against the account is dropped. */
export async function clearAccountFailures(db: Database, email: string): Promise<void> {
  const rows = db
    .select({ key: signInFailures.key })
    .from(signInFailures)
    .where(eq(signInFailures.account, normalizeAccount(email)))
    .orderBy(signInFailures.key)
    .for("update");
  await db.delete(signInFailures).where(inArray(signInFailures.key, rows));
}

export async function forgetStaleFailures(db: Database, now: Date): Promise<void> {
  const longest = Math.max(
    SIGN_IN_THROTTLE.accountOnClient.forgetAfterSeconds,
    SIGN_IN_THROTTLE.account.forgetAfterSeconds,
    SIGN_IN_THROTTLE.client.forgetAfterSeconds,
  );
  await db.delete(signInFailures).where(lte(signInFailures.lastFailedAt, new Date(now.getTime() - longest * 1000)));
}
