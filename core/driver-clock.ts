/**
 * The time a queued driver confirmation is recorded with (issue 26, decision 0079; issue 39,
 * decision 0089). The phone records when the driver tapped, by its own clock, and sends the queue
 * later; the server keeps that time for the delivery's history, within bounds:
 * - a phone clock within CLOCK_TRUSTED_MS of the server's (measured when the batch arrives, from the
 *   phone's own "sent at") is believed as is: the difference is the network's delay;
 * - a clock further off is corrected by that difference (a phone set to the wrong time or zone);
 * - a time older than MAX_CONFIRMATION_AGE_MS is refused: the driver is told to call operations;
 * - a time outside PHONE_TIME_WINDOW_MS before the arrival, or more than CLOCK_TRUSTED_MS after it,
 *   is not believed: the tap is recorded at the arrival and marked `phoneTimeAdjusted`, so the
 *   caja shows the phone's own time beside it (a collection is never booked hours back on the
 *   phone's word alone);
 * - a time just after the arrival (within CLOCK_TRUSTED_MS) is the arrival;
 * - a time before the delivery's last recorded change becomes that change's time, so the history
 *   never goes backwards.
 */
export const CLOCK_TRUSTED_MS = 2 * 60_000;
export const PHONE_TIME_WINDOW_MS = 12 * 3_600_000;
export const MAX_CONFIRMATION_AGE_MS = 48 * 3_600_000;

/** Before this or from this on, a phone's time is not a time but a broken value (issue 39). */
const EARLIEST_PHONE_TIME = Date.UTC(1970, 0, 1);
const LATEST_PHONE_TIME = Date.UTC(2100, 0, 1);

export type DriverEventTime = { ok: true; at: Date; phoneTimeAdjusted: boolean } | { ok: false; reason: "too_old" };

/**
 * A phone's time as it arrived (milliseconds since the epoch), or null when it cannot be one: not a
 * finite number, or outside 1970–2099. Such a tap is refused as invalid, never retried (issue 39).
 */
export function phoneTime(value: unknown): Date | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  if (value < EARLIEST_PHONE_TIME || value >= LATEST_PHONE_TIME) return null;
  return new Date(Math.trunc(value));
}

export function driverEventTime(input: { occurredAt: Date; sentAt: Date; receivedAt: Date; notBefore?: Date | null }): DriverEventTime {
  const { occurredAt, sentAt, receivedAt, notBefore } = input;
  const received = receivedAt.getTime();
  const offset = received - sentAt.getTime();
  let at = occurredAt.getTime() + (Math.abs(offset) > CLOCK_TRUSTED_MS ? offset : 0);
  if (at < received - MAX_CONFIRMATION_AGE_MS) return { ok: false, reason: "too_old" };
  const phoneTimeAdjusted = at < received - PHONE_TIME_WINDOW_MS || at > received + CLOCK_TRUSTED_MS;
  if (phoneTimeAdjusted || at > received) at = received;
  if (notBefore && at < notBefore.getTime()) at = Math.min(notBefore.getTime(), received);
  return { ok: true, at: new Date(at), phoneTimeAdjusted };
}
