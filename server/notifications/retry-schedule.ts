/**
 * When a failed email is tried again (docs/decisions/0024-email-delivery-outside-transactions.md):
 * 30 s after the first failure, doubling each time up to two hours between tries, for about a
 * day in all; the twentieth failed attempt makes it a dead letter that staff retry by hand.
 */
export const FIRST_RETRY_DELAY_MS = 30_000;
export const LONGEST_RETRY_DELAY_MS = 2 * 3_600_000;
export const MAX_ATTEMPTS = 20;

/** How long to wait after the `attempts`-th failed attempt (1-based) before the next one. */
export function retryDelayMs(attempts: number): number {
  const doublings = Math.max(0, attempts - 1);
  // 2^13 × 30 s is already past the cap; stopping there keeps the number small.
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.min(doublings, 13), LONGEST_RETRY_DELAY_MS);
}

/** Whether a failure at this attempt count ends the retries. */
export function isLastAttempt(attempts: number): boolean {
  return attempts >= MAX_ATTEMPTS;
}

/**
 * SMTP 5xx replies are permanent refusals (RFC 5321 §4.2.1: "the same request … will fail
 * again"), such as an unknown mailbox: retrying for a day would only delay telling staff.
 */
export function isPermanentRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}
