import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Rows a job acts on: e-mails, comprobantes for the OSE, WhatsApp messages, and customers'
 * WhatsApp messages the shop answers itself (issue 38) — the same names as the jobs.
 */
export type QueuedWork = "emails" | "comprobantes" | "whatsapp" | "whatsappConversations";

const noted = new AsyncLocalStorage<Set<QueuedWork>>();

/**
 * Called where a row is written for a job to send. Inside `collectQueuedWork` (an HTTP request,
 * a job run) the kind is remembered, so the job can run once the request's transaction has
 * committed instead of at the next pass; elsewhere (a CLI, a test) it does nothing, and the
 * scheduled pass still sends the row. Only a hint: a rolled-back write costs one empty job run.
 */
export function noteQueuedWork(work: QueuedWork): void {
  noted.getStore()?.add(work);
}

/**
 * Runs `work` with a fresh note of what it queues. The set fills as the work (and everything it
 * awaits) runs; read it when the work is done, e.g. when the HTTP response has been sent.
 */
export function collectQueuedWork<T>(work: () => T): { result: T; queued: ReadonlySet<QueuedWork> } {
  const queued = new Set<QueuedWork>();
  return { result: noted.run(queued, work), queued };
}
