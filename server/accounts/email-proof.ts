/**
 * Proof of an address before anything is given to it (issue 24, decision 0072). The confirmation
 * link only opens a page; the address is confirmed by the POST of that page's button, so a mail
 * scanner or a preview that follows links confirms nothing. The guest orders of the address go to
 * the account only when the person holding the link also chooses the password there (or through
 * a password-reset link, which is the same proof): then whoever signed up with someone else's
 * address loses the account, not the address's owner their orders.
 */
import { verifyJWT } from "better-auth/crypto";
import { APIError } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import { appSecret } from "../config/app-secret";
import type { Database } from "../db/client";
import { accounts, sessions, users } from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { authFor, sendPasswordChangedEmail } from "./auth";
import { forgetSignedInUsers } from "./current-user";
import { attachGuestOrders, countGuestOrders } from "./guest-orders";
import { hashPassword } from "./password-hash";

/** What the confirmation link's token says: better-auth signs it (HS256, 24 h) with the app secret. */
async function linkClaims(token: string): Promise<{ email: string; userId: string | null } | null> {
  if (!token || token.length > 4000) return null;
  const payload = await verifyJWT(token, appSecret());
  // An address change (`updateTo`) is not something this shop offers: such a token is not ours.
  if (!payload || typeof payload.email !== "string" || payload.updateTo) return null;
  return { email: payload.email.toLowerCase(), userId: typeof payload.userId === "string" ? payload.userId : null };
}

export type ConfirmationLink =
  | { valid: false }
  | {
      valid: true;
      email: string;
      /** Already confirmed (the page says so, and still offers the password when orders wait). */
      verified: boolean;
      /** Guest orders of the address that the password chosen on the page would bring. */
      guestOrders: number;
    };

/** What the page of a confirmation link shows. Reads only: opening the link changes nothing. */
export async function readConfirmationLink(db: Database, token: string): Promise<ConfirmationLink> {
  const claims = await linkClaims(token);
  if (!claims) return { valid: false };
  const [user] = await db
    .select({ id: users.id, verified: users.emailVerified, provenAt: users.ownershipProvenAt })
    .from(users)
    .where(eq(users.email, claims.email));
  if (!user || (claims.userId && claims.userId !== user.id)) return { valid: false };
  return { valid: true, email: claims.email, verified: user.verified, guestOrders: user.provenAt ? 0 : await countGuestOrders(db, claims.email) };
}

export type ConfirmEmailResult =
  { ok: true; attached: number; passwordSet: boolean; headers: Headers } | { ok: false; reason: "invalid_link" | "password_already_chosen" };

async function lockUserByEmail(tx: Transaction, email: string) {
  const [user] = await tx
    .select({ id: users.id, email: users.email, name: users.name, firstName: users.firstName, status: users.status, provenAt: users.ownershipProvenAt })
    .from(users)
    .where(eq(users.email, email))
    .for("update");
  return user;
}

/**
 * The POST of the confirmation page: confirms the address and, when the person also chose a
 * password there, sets it, records the proof of ownership, attaches the address's guest orders,
 * ends every other session of the account (whoever signed up loses it) and signs this browser in.
 * The password can be chosen this way once; later it is the password-reset link's job.
 */
export async function confirmEmailAddress(db: Database, input: { token: string; password?: string | null; now: Date }): Promise<ConfirmEmailResult> {
  const claims = await linkClaims(input.token);
  if (!claims) return { ok: false, reason: "invalid_link" };
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const outcome = await inTransaction(db, async (tx) => {
    // Decision 0025: the customer's row first, then the orders it receives.
    const user = await lockUserByEmail(tx, claims.email);
    if (!user || (claims.userId && claims.userId !== user.id)) return { ok: false as const, reason: "invalid_link" as const };
    if (passwordHash && user.provenAt) return { ok: false as const, reason: "password_already_chosen" as const };
    await tx
      .update(users)
      .set({ emailVerified: true, updatedAt: input.now, ...(passwordHash ? { ownershipProvenAt: input.now } : {}) })
      .where(eq(users.id, user.id));
    if (!passwordHash) return { ok: true as const, user, attached: 0 };
    const changed = await tx
      .update(accounts)
      .set({ password: passwordHash, updatedAt: input.now })
      .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, "credential")))
      .returning({ id: accounts.id });
    if (changed.length !== 1) throw new Error(`account ${user.id} has ${changed.length} password rows`);
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    return { ok: true as const, user, attached: await attachGuestOrders(tx, { userId: user.id, email: user.email }) };
  });
  forgetSignedInUsers();
  if (!outcome.ok) return outcome;
  if (!passwordHash) return { ok: true, attached: 0, passwordSet: false, headers: new Headers() };
  // The owner is told, as after any password change (a stranger who signed up learns nothing new).
  await sendPasswordChangedEmail(db, outcome.user);
  return { ok: true, attached: outcome.attached, passwordSet: true, headers: await signInAfterProof(db, outcome.user, input.password!) };
}

/** A session for the browser that just proved the address and chose the password (none for a deactivated account). */
async function signInAfterProof(db: Database, user: { email: string; status: string }, password: string): Promise<Headers> {
  if (user.status !== "active") return new Headers();
  try {
    const { headers } = await authFor(db).api.signInEmail({
      body: { email: user.email, password, rememberMe: false },
      headers: new Headers(),
      returnHeaders: true,
    });
    return headers;
  } catch (error) {
    // The password was saved; signing in is a convenience the login page offers as well.
    if (error instanceof APIError) return new Headers();
    throw error;
  }
}

/**
 * A password reset from the e-mailed link is the same proof: the link reached the address and its
 * holder chose the password. better-auth has saved it and ended every session; this confirms the
 * address, records the proof and, the first time only, attaches the guest orders placed before it.
 * A later reset attaches nothing (issue 39): a guest order placed once the address was proven is
 * added by its owner from that order's e-mail (order-claim.ts), never in bulk.
 */
export async function proveOwnershipByPasswordReset(db: Database, userId: string, now: Date): Promise<number> {
  const attached = await inTransaction(db, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, provenAt: users.ownershipProvenAt })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) return 0;
    await tx
      .update(users)
      .set({ emailVerified: true, ownershipProvenAt: user.provenAt ?? now, updatedAt: now })
      .where(eq(users.id, user.id));
    return user.provenAt ? 0 : attachGuestOrders(tx, { userId: user.id, email: user.email });
  });
  forgetSignedInUsers();
  return attached;
}
