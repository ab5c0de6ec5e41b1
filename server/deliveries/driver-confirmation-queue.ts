import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { driverEventTime } from "@core/driver-clock";
import type { Database } from "../db/client";
import { deliveries, driverConfirmationReceipts } from "../db/schema";
import { inTransaction } from "../db/transaction";
import type { StaffActor } from "../audit/index.server";
import { confirmDriverStop, type DriverConfirmation, type DriverConfirmationResult, type DriverStopOrderSteps } from "./driver-confirmations";

/** One tap the driver's phone recorded, possibly offline, with the key it gave it (issue 26). */
export interface QueuedDriverConfirmation {
  key: string;
  deliveryId: string;
  /** The form's intent: en_camino | entregado | no_entregado. */
  intent: string;
  confirmation: DriverConfirmation;
  /** When the driver tapped, by the phone's clock. */
  occurredAt: Date;
}

type Refusal =
  | Exclude<DriverConfirmationResult, { ok: true }>
  | { ok: false; reason: "too_old" }
  /** The key was applied before to another tap (another stop, button or fields): nothing is written (issue 39). */
  | { ok: false; reason: "key_reused" };

export type QueuedConfirmationAnswer =
  /** Applied now, or by an earlier send of the same key (`duplicate`); `recordedAt` is the history's time. */
  | { key: string; status: "applied"; duplicate: boolean; recordedAt: Date }
  /** Nothing was written; the phone shows why on the stop. */
  | { key: string; status: "refused"; refusal: Refusal }
  /** Not looked at (an earlier item failed unexpectedly): the phone keeps it and sends it again. */
  | { key: string; status: "not_processed" };

/** Thrown inside the transaction so a refused confirmation leaves no receipt either. */
class ConfirmationRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(`driver confirmation refused: ${refusal.reason}`);
  }
}

/**
 * The driver app's queue, sent in the order the driver tapped (decision 0079). Each item is one
 * transaction: its key's receipt first (a key seen before answers "applied" and writes nothing;
 * decision 0025 puts the receipt before the order row), then `confirmDriverStop` in a savepoint,
 * which authorises and locks as it does for the form. Its time is the driver's, by
 * `driverEventTime`'s rules (the server's receipt time when the phone's is out of its window,
 * decision 0089). An unexpected failure stops the batch: the rest stays on the phone.
 */
export async function applyQueuedDriverConfirmations(
  db: Database,
  input: { driver: StaffActor; items: QueuedDriverConfirmation[]; sentAt: Date; now: Date; siteUrl: string },
  orderSteps: DriverStopOrderSteps,
): Promise<QueuedConfirmationAnswer[]> {
  const answers: QueuedConfirmationAnswer[] = [];
  for (const [index, item] of input.items.entries()) {
    try {
      answers.push(await applyOne(db, item, input, orderSteps));
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) {
        answers.push({ key: item.key, status: "refused", refusal });
        continue;
      }
      console.error(`Driver confirmation ${item.key} failed; ${input.items.length - index} left on the phone:`, error);
      answers.push(...input.items.slice(index).map((rest) => ({ key: rest.key, status: "not_processed" as const })));
      break;
    }
  }
  return answers;
}

const REFUSAL_REASONS = new Set(["not_found", "not_allowed", "collection_required", "already_paid", "too_old", "key_reused"]);

/** What a tap is, apart from its key and time: the same tap sent again hashes the same. */
function tapDigest(item: QueuedDriverConfirmation): string {
  return createHash("sha256")
    .update(JSON.stringify([item.deliveryId, item.intent, item.confirmation]))
    .digest("hex");
}

/**
 * A key seen before: the same tap again is applied (idempotent); from another driver it is
 * unknown (a key is the driver's own, and tells another nothing about the stop); with another
 * tap it is refused, never answered "applied" for something it did not apply (issue 39). Rows
 * from before the digest compare by stop and button.
 */
function answerForSeenKey(
  earlier: typeof driverConfirmationReceipts.$inferSelect,
  item: QueuedDriverConfirmation,
  driver: StaffActor,
): QueuedConfirmationAnswer {
  if (earlier.driverId !== driver.id) throw new ConfirmationRefused({ ok: false, reason: "not_found" });
  const same = earlier.tapDigest === null ? earlier.deliveryId === item.deliveryId && earlier.intent === item.intent : earlier.tapDigest === tapDigest(item);
  if (!same) throw new ConfirmationRefused({ ok: false, reason: "key_reused" });
  return { key: item.key, status: "applied", duplicate: true, recordedAt: earlier.recordedAt };
}

/**
 * A refusal, whether this module threw it or `confirmDriverStop` did: a refused stop may be thrown
 * from inside its transaction (so nothing commits) as an error carrying the result's `reason`.
 */
function refusalOf(error: unknown): Refusal | null {
  if (error instanceof ConfirmationRefused) return error.refusal;
  const reason = (error as { reason?: unknown } | null)?.reason;
  if (typeof reason === "string" && REFUSAL_REASONS.has(reason)) return { ok: false, ...(error as object), reason } as Refusal;
  return null;
}

async function applyOne(
  db: Database,
  item: QueuedDriverConfirmation,
  input: { driver: StaffActor; sentAt: Date; now: Date; siteUrl: string },
  orderSteps: DriverStopOrderSteps,
): Promise<QueuedConfirmationAnswer> {
  return inTransaction(db, async (tx) => {
    const [earlier] = await tx.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.key, item.key));
    if (earlier) return answerForSeenKey(earlier, item, input.driver);
    // Whose stop it is comes first: another driver's stop and an unknown one answer alike, whatever
    // the tap's time (the 48-hour rule is told only about the driver's own stops, issue 39).
    // confirmDriverStop decides the rest (today's route, not cancelled) under its locks.
    const [current] = await tx
      .select({ history: deliveries.statusHistory, assignedDriverId: deliveries.assignedDriverId })
      .from(deliveries)
      .where(eq(deliveries.id, item.deliveryId));
    if (!current || current.assignedDriverId !== input.driver.id) throw new ConfirmationRefused({ ok: false, reason: "not_found" });
    const last = current.history.at(-1)?.timestamp;
    const time = driverEventTime({ occurredAt: item.occurredAt, sentAt: input.sentAt, receivedAt: input.now, notBefore: last ? new Date(last) : null });
    if (!time.ok) throw new ConfirmationRefused(time);
    // Taken before any row lock; a second sender of the same key waits here for the first to finish.
    const [receipt] = await tx
      .insert(driverConfirmationReceipts)
      .values({
        key: item.key,
        driverId: input.driver.id,
        deliveryId: item.deliveryId,
        intent: item.intent,
        claimedAt: item.occurredAt,
        recordedAt: time.at,
        receivedAt: input.now,
        phoneTimeAdjusted: time.phoneTimeAdjusted,
        tapDigest: tapDigest(item),
      })
      .onConflictDoNothing()
      .returning({ key: driverConfirmationReceipts.key });
    if (!receipt) {
      const [winner] = await tx.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.key, item.key));
      if (!winner) throw new ConfirmationRefused({ ok: false, reason: "not_found" });
      return answerForSeenKey(winner, item, input.driver);
    }
    const result = await confirmDriverStop(
      tx,
      {
        deliveryId: item.deliveryId,
        driver: input.driver,
        confirmation: item.confirmation,
        now: time.at,
        // The caja shows the phone's own time beside a collection it did not believe.
        phoneTime: time.phoneTimeAdjusted ? item.occurredAt : null,
        siteUrl: input.siteUrl,
      },
      orderSteps,
    );
    if (!result.ok) throw new ConfirmationRefused(result);
    return { key: item.key, status: "applied", duplicate: false, recordedAt: time.at };
  });
}
