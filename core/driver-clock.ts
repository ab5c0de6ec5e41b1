/**
 * The time a queued driver confirmation is recorded with (issue 26, decision 0079). The phone
 * records when the driver tapped, by its own clock, and sends the queue later; the server keeps
 * that time for the delivery's history, within bounds:
 * - a phone clock within CLOCK_TRUSTED_MS of the server's (measured when the batch arrives, from the
 *   phone's own "sent at") is believed as is: the difference is the network's delay;
 * - a clock further off is corrected by that difference (a phone set to the wrong time or zone);
 * - a time still in the future is the server's now (it cannot have happened later than it arrived);
 * - a time older than MAX_CONFIRMATION_AGE_MS is refused: the driver is told to call operations;
 * - a time before the delivery's last recorded change becomes that change's time, so the history
 *   never goes backwards.
 */
export const CLOCK_TRUSTED_MS = 2 * 60_000;
export const MAX_CONFIRMATION_AGE_MS = 48 * 3_600_000;

export type DriverEventTime = { ok: true; at: Date } | { ok: false; reason: "too_old" };

export function driverEventTime(input: { occurredAt: Date; sentAt: Date; receivedAt: Date; notBefore?: Date | null }): DriverEventTime {
  const { occurredAt, sentAt, receivedAt, notBefore } = input;
  const offset = receivedAt.getTime() - sentAt.getTime();
  let at = occurredAt.getTime() + (Math.abs(offset) > CLOCK_TRUSTED_MS ? offset : 0);
  if (at > receivedAt.getTime()) at = receivedAt.getTime();
  if (at < receivedAt.getTime() - MAX_CONFIRMATION_AGE_MS) return { ok: false, reason: "too_old" };
  if (notBefore && at < notBefore.getTime()) at = Math.min(notBefore.getTime(), receivedAt.getTime());
  return { ok: true, at: new Date(at) };
}
