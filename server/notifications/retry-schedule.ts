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
 * SMTP 5xx replies to the message itself (its sender, a recipient, its content) are permanent
 * refusals (RFC 5321 §4.2.1: "the same request … will fail again"), such as an unknown mailbox:
 * retrying for a day would only delay telling staff. A 5xx to anything else (AUTH refused, a TLS
 * failure) says our configuration is wrong, not the message: those are retried, so fixing SMTP_URL
 * sends the backlog instead of leaving every e-mail of the meantime a dead letter. Nodemailer
 * marks replies about the message with the codes EENVELOPE and EMESSAGE.
 */
export function isPermanentRefusal(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  return typeof responseCode === "number" && responseCode >= 500 && responseCode < 600 && (code === "EENVELOPE" || code === "EMESSAGE");
}
