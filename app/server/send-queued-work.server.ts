import type { MiddlewareFunction } from "react-router";
import { sendWhatWorkQueues } from "@server/jobs/index.server";

/**
 * An e-mail, comprobante or WhatsApp message a request queues leaves as soon as the request is
 * handled, not at the jobs' next pass (server/jobs/scheduler.ts): the order confirmation right
 * after checkout or a payment webhook, whichever route queued it.
 */
export const sendQueuedWorkMiddleware: MiddlewareFunction<Response> = (_args, next) => sendWhatWorkQueues(next);
