import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lte, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { consumeRateLimit, isEmailRegistered } from "../accounts/index.server";
import { priceCartLines, type CartLineRequest } from "../catalog/index.server";
import { env } from "../config/env";
import type { Database } from "../db/client";
import { abandonedCarts, orders } from "../db/schema";
import { emailPreferencesUrl, hasPromotionalConsent } from "../consent/index.server";
import { getIssuer } from "../content/index.server";
import { abandonedCartEmail, enqueueEmail } from "../notifications/index.server";
import type { DatabaseOrTransaction } from "../db/transaction";
import { inTransaction } from "../db/transaction";

/** Issue 3: a cart left for an hour without an order gets one recovery email. */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;
export const RECOVERY_LINK_DAYS = 7;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Issue 9: the endpoint is anonymous, so it is bounded per client and per address, a reminder is
 * never re-armed within this many days of the last one for the same address, and the saved cart
 * of an address with an account is only replaced by that customer, signed in.
 */
export const REMINDER_QUIET_DAYS = 7;
export const SAVE_LIMITS = {
  perAddress: { limit: 10, windowSeconds: 60 * 60 },
  /** Scaled by CLIENT_RATE_LIMIT_FACTOR like the accounts' per-client limits. */
  perClient: { limit: 30, windowSeconds: 60 * 60 },
} as const;

export type SaveAbandonedCartResult = { saved: true } | { saved: false; reason: "rate_limited" | "kept" | "empty" };

export interface SaveAbandonedCartInput {
  email: string;
  items: CartLineRequest[];
  origin?: string;
  /** Who is asking, for the per-client limit (app/server/session.server.ts clientKey). */
  client: string;
  /** The signed-in customer's own address, if any: only they may replace their account's cart. */
  signedInEmail?: string | null;
}

/**
 * Keeps the cart of someone who typed their email at checkout (spec §7 save-abandoned-cart). One
 * row per email; saving again replaces the lines and restarts the hour before a reminder, unless a
 * reminder went to that address in the last REMINDER_QUIET_DAYS (then the row stays as it was).
 */
export async function saveAbandonedCart(db: Database, input: SaveAbandonedCartInput, now: Date): Promise<SaveAbandonedCartResult> {
  const factor = env().CLIENT_RATE_LIMIT_FACTOR;
  const perClient = { ...SAVE_LIMITS.perClient, limit: SAVE_LIMITS.perClient.limit * factor };
  const clientAllowed = await consumeRateLimit(db, `abandoned-cart:client:${input.client}`, perClient, now);
  if (!clientAllowed.allowed) return { saved: false, reason: "rate_limited" };
  const addressAllowed = await consumeRateLimit(db, `abandoned-cart:email:${input.email}`, SAVE_LIMITS.perAddress, now);
  if (!addressAllowed.allowed) return { saved: false, reason: "rate_limited" };

  const priced = await priceCartLines(db, input.items);
  if (priced.lines.length === 0) return { saved: false, reason: "empty" };
  const items = priced.lines.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity }));
  const values = { email: input.email, items, subtotalCents: priced.subtotalCents, origin: input.origin ?? null, createdAt: now, updatedAt: now };
  const owner = input.signedInEmail?.toLowerCase() === input.email;
  const protectedCart = !owner && (await isEmailRegistered(db, input.email));
  const quietSince = new Date(now.getTime() - REMINDER_QUIET_DAYS * 86_400_000);
  const written = await db
    .insert(abandonedCarts)
    .values(values)
    .onConflictDoUpdate({
      target: abandonedCarts.email,
      set: {
        items,
        subtotalCents: priced.subtotalCents,
        origin: input.origin ?? null,
        updatedAt: now,
        reminderSentAt: null,
        tokenHash: null,
        tokenExpiresAt: null,
        recoveredOrderId: null,
      },
      // An account's cart is kept from anonymous requests; a recent reminder is never re-armed.
      setWhere: protectedCart ? sql`false` : or(isNull(abandonedCarts.reminderSentAt), lte(abandonedCarts.reminderSentAt, quietSince)),
    })
    .returning({ id: abandonedCarts.id });
  return written.length > 0 ? { saved: true } : { saved: false, reason: "kept" };
}

/**
 * The cart turned into an order: no reminder for it. Returned unsent, so checkout can send it as
 * part of the statement that writes the order (decision 0069, `orderId` then being that
 * statement's new order, `email` a placeholder); awaiting it sends it on its own.
 */
export function markCartRecovered(db: DatabaseOrTransaction, email: string | Placeholder, orderId: string | SQL) {
  return db.update(abandonedCarts).set({ recoveredOrderId: orderId }).where(eq(abandonedCarts.email, email));
}

/**
 * Sends the recovery email to every cart left for an hour without an order, once: the cart is
 * claimed with SKIP LOCKED and marked in the same transaction that queues its email. The email is
 * a promotion (issue 12): only addresses whose latest choice is a consent are due; the others'
 * carts wait unsent (and get their reminder if consent comes within RECOVERY_LINK_DAYS).
 */
export async function sendAbandonedCartReminders(db: Database, now: Date, siteUrl: string): Promise<number> {
  let sent = 0;
  await inTransaction(db, async (tx) => {
    const due = await tx
      .select()
      .from(abandonedCarts)
      .where(
        and(
          isNull(abandonedCarts.reminderSentAt),
          isNull(abandonedCarts.recoveredOrderId),
          lte(abandonedCarts.updatedAt, new Date(now.getTime() - ABANDONED_AFTER_MS)),
          gt(abandonedCarts.updatedAt, new Date(now.getTime() - RECOVERY_LINK_DAYS * 86_400_000)),
          hasPromotionalConsent(abandonedCarts.email),
        ),
      )
      .limit(50)
      .for("update", { skipLocked: true });
    if (due.length === 0) return;
    const issuer = await getIssuer(tx);
    for (const cart of due) {
      const [ordered] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.customerEmail, cart.email), gt(orders.createdAt, cart.updatedAt)))
        .limit(1);
      if (ordered) {
        await tx.update(abandonedCarts).set({ recoveredOrderId: ordered.id }).where(eq(abandonedCarts.id, cart.id));
        continue;
      }
      const token = randomBytes(32).toString("base64url");
      await tx
        .update(abandonedCarts)
        .set({ reminderSentAt: now, tokenHash: hashToken(token), tokenExpiresAt: new Date(now.getTime() + RECOVERY_LINK_DAYS * 86_400_000) })
        .where(eq(abandonedCarts.id, cart.id));
      const email = abandonedCartEmail({
        sender: issuer,
        resumeUrl: new URL(`/resume-cart?token=${token}`, siteUrl).toString(),
        unsubscribeUrl: emailPreferencesUrl(cart.email, siteUrl),
        subtotalCents: cart.subtotalCents,
      });
      await enqueueEmail(tx, { dedupeKey: `abandoned-cart:${cart.id}:${cart.updatedAt.toISOString()}`, kind: "abandoned-cart", to: cart.email, ...email }, now);
      sent += 1;
    }
  });
  return sent;
}

export type ResumeCartResult = { ok: true; items: CartLineRequest[] } | { ok: false; reason: "invalid_token" | "not_found" };

/** Opens the one cart a recovery token belongs to, while the token is valid. */
export async function findCartByRecoveryToken(db: Database, token: string | null, now: Date): Promise<ResumeCartResult> {
  if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { ok: false, reason: "invalid_token" };
  const [cart] = await db
    .select()
    .from(abandonedCarts)
    .where(eq(abandonedCarts.tokenHash, hashToken(token)));
  if (!cart || !cart.tokenExpiresAt || cart.tokenExpiresAt <= now) return { ok: false, reason: "not_found" };
  return { ok: true, items: cart.items };
}
