import { and, asc, count, desc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { Database } from "../db/client";
import { paymentMethods, providerErasures } from "../db/schema";
import type { DatabaseOrTransaction, Transaction } from "../db/transaction";
import type { CulqiClient, DeleteAnswer } from "./culqi/client";
import type { FlowClient } from "./flow/client";

/** How long one worker may hold a deletion while it talks to the provider. */
const CLAIM_MS = 2 * 60_000;
const FIRST_RETRY_MS = 5 * 60_000;
const LONGEST_RETRY_MS = 6 * 3_600_000;

/** Providers whose saved cards the shop deletes when a customer is anonymised (decisions 0061, 0064). */
const ERASABLE_PROVIDERS = ["culqi", "sandbox", "flow"];

/** The provider clients a deletion may need; `null` when that provider is not configured. */
export interface ErasureClients {
  culqi: CulqiClient | null;
  flow: FlowClient | null;
}

/**
 * Inside the anonymisation's transaction (decision 0061): every card the customer ever saved with
 * Culqi or the sandbox, revoked or not (a replaced card still sits at the provider), and each Culqi
 * customer record they hang on, become pending deletions. A Flow card is not an object of its own:
 * it is registered on a Flow customer (the shop's reference adds the registration token), so each
 * Flow customer is one deletion that takes its card with it (decision 0064). Rows written last
 * (decision 0025, step 9); a unique key per provider object makes a second run, or two cards on one
 * customer, write nothing twice. Returns how many deletions it scheduled.
 */
export async function scheduleCardErasures(tx: Transaction, input: { userId: string; now: Date }): Promise<number> {
  const cards = await tx
    .select({ provider: paymentMethods.provider, customerId: paymentMethods.providerCustomerId, cardId: paymentMethods.providerCardId })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.userId, input.userId), inArray(paymentMethods.provider, ERASABLE_PROVIDERS)))
    .orderBy(asc(paymentMethods.id));
  const objects = new Map<string, { provider: string; objectKind: "card" | "customer"; reference: string }>();
  for (const card of cards) {
    if (card.provider === "flow") {
      const customerId = card.customerId ?? card.cardId.split(":")[0]!;
      objects.set(`flow:customer:${customerId}`, { provider: "flow", objectKind: "customer", reference: customerId });
      continue;
    }
    objects.set(`${card.provider}:card:${card.cardId}`, { provider: card.provider, objectKind: "card", reference: card.cardId });
    if (card.customerId)
      objects.set(`${card.provider}:customer:${card.customerId}`, { provider: card.provider, objectKind: "customer", reference: card.customerId });
  }
  if (objects.size === 0) return 0;
  const scheduled = await tx
    .insert(providerErasures)
    .values([...objects.values()].map((object) => ({ ...object, userId: input.userId, nextAttemptAt: input.now, createdAt: input.now, updatedAt: input.now })))
    .onConflictDoNothing()
    .returning({ id: providerErasures.id });
  return scheduled.length;
}

export type ErasureAttempt = "done" | "retry_scheduled" | "busy";

/** The provider's answer for one deletion. The sandbox keeps no books of saved cards: nothing to delete there. */
async function askProvider(clients: ErasureClients, erasure: typeof providerErasures.$inferSelect): Promise<DeleteAnswer> {
  if (erasure.provider === "sandbox") return { kind: "deleted" };
  if (erasure.provider === "flow") {
    if (!clients.flow) return { kind: "unavailable", reason: "Flow is not configured (FLOW_API_KEY, FLOW_SECRET_KEY)" };
    return deleteFlowCustomer(clients.flow, erasure.reference);
  }
  if (erasure.provider !== "culqi") return { kind: "refused", message: `No se eliminan datos en ${erasure.provider}` };
  if (!clients.culqi) return { kind: "unavailable", reason: "Culqi is not configured (CULQI_SECRET_KEY)" };
  return clients.culqi.deleteObject(erasure.objectKind === "card" ? "cards" : "customers", erasure.reference);
}

/**
 * Flow's `customer/delete` (decision 0064). Flow documents no "not found" answer: a refusal is a
 * 400/401 with a code and a message. Flow keeps a deleted customer with `status` "0", so a refused
 * deletion is looked up: already deleted (an earlier answer lost) is done like Culqi's 404; anything
 * else stays a refusal, with Flow's words, to retry and show staff. A customer the lookup cannot find
 * is not taken as deleted either: the shop created every one of them, so that means the keys or the
 * API base are wrong, which must be fixed, not hidden.
 */
async function deleteFlowCustomer(flow: FlowClient, customerId: string): Promise<DeleteAnswer> {
  const deleted = await flow.deleteCustomer(customerId);
  if (deleted.kind === "ok") return { kind: "deleted" };
  if (deleted.kind === "unavailable") return { kind: "unavailable", reason: deleted.reason };
  const found = await flow.getCustomer(customerId);
  if (found.kind === "ok" && found.body.status === "0") return { kind: "gone" };
  return { kind: "refused", message: `Flow ${deleted.status}${deleted.code === null ? "" : ` (${deleted.code})`}: ${deleted.message || "sin detalle"}` };
}

/**
 * Deletes one pending object at its provider, outside any transaction. The row is claimed first,
 * so the job and a route's `runJobSoon` never call the provider for it at the same moment. A
 * deletion the provider confirms, or an object it no longer has (404: a lost answer of an earlier
 * attempt), is done; any other answer is written on the row, logged, and retried later with a
 * growing pause: never dropped.
 */
export async function processProviderErasure(db: Database, clients: ErasureClients, erasureId: string, now: Date): Promise<ErasureAttempt> {
  const [erasure] = await db
    .update(providerErasures)
    .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS), updatedAt: now })
    .where(
      and(
        eq(providerErasures.id, erasureId),
        eq(providerErasures.status, "pending"),
        or(isNull(providerErasures.claimedUntil), lte(providerErasures.claimedUntil, now)),
      ),
    )
    .returning();
  if (!erasure) return "busy";
  const answer = await askProvider(clients, erasure);
  const attempts = erasure.attempts + 1;
  if (answer.kind === "deleted" || answer.kind === "gone") {
    await db
      .update(providerErasures)
      .set({ status: "done", attempts, lastError: null, claimedUntil: null, doneAt: now, updatedAt: now })
      .where(and(eq(providerErasures.id, erasure.id), eq(providerErasures.status, "pending")));
    return "done";
  }
  const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
  const nextAttemptAt = new Date(now.getTime() + delay);
  const lastError = answer.kind === "refused" ? answer.message : answer.reason;
  await db.update(providerErasures).set({ attempts, lastError, nextAttemptAt, claimedUntil: null, updatedAt: now }).where(eq(providerErasures.id, erasure.id));
  console.error(
    `[payments] deleting ${erasure.provider} ${erasure.objectKind} ${erasure.reference} failed (attempt ${attempts}: ${lastError}); retrying at ${nextAttemptAt.toISOString()}`,
  );
  return "retry_scheduled";
}

/**
 * The jobs' pass over pending deletions (decision 0061): cards before customers, each row on its
 * own, so one that fails never stops the others (decision 0025).
 */
export async function retryDueProviderErasures(db: Database, clients: ErasureClients, now: Date): Promise<{ done: number; failed: number }> {
  const due = await db
    .select({ id: providerErasures.id })
    .from(providerErasures)
    .where(
      and(
        eq(providerErasures.status, "pending"),
        lte(providerErasures.nextAttemptAt, now),
        or(isNull(providerErasures.claimedUntil), lte(providerErasures.claimedUntil, now)),
      ),
    )
    .orderBy(asc(providerErasures.objectKind), asc(providerErasures.nextAttemptAt), asc(providerErasures.id))
    .limit(50);
  let done = 0;
  let failed = 0;
  for (const { id } of due) {
    try {
      const attempt = await processProviderErasure(db, clients, id, now);
      if (attempt === "done") done += 1;
      else if (attempt === "retry_scheduled") failed += 1;
    } catch (error) {
      failed += 1;
      console.error(`[payments] provider deletion ${id} could not be processed; it stays pending for the next pass`, error);
    }
  }
  return { done, failed };
}

export interface ProviderErasureSummary {
  done: number;
  pending: number;
  /** The latest failure of a pending deletion, for staff to see why it waits. */
  lastError: string | null;
}

/** What the customer's page says about the deletions at the provider; null when there were none. */
export async function providerErasureSummary(db: DatabaseOrTransaction, userId: string): Promise<ProviderErasureSummary | null> {
  const rows = await db
    .select({ status: providerErasures.status, total: count() })
    .from(providerErasures)
    .where(eq(providerErasures.userId, userId))
    .groupBy(providerErasures.status);
  if (rows.length === 0) return null;
  const [failing] = await db
    .select({ lastError: providerErasures.lastError })
    .from(providerErasures)
    .where(and(eq(providerErasures.userId, userId), eq(providerErasures.status, "pending")))
    .orderBy(desc(providerErasures.updatedAt))
    .limit(1);
  const total = (status: string) => Number(rows.find((row) => row.status === status)?.total ?? 0);
  return { done: total("done"), pending: total("pending"), lastError: failing?.lastError ?? null };
}
