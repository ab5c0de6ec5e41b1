import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { subscriptions } from "../db/schema";
import { flowCardProvider, flowRegistrationStatus, type FlowClient } from "../payments/index.server";
import { activateSubscription } from "./signup";

export type FlowReturnOutcome =
  | { kind: "activated"; subscriptionId: string; orderId: string }
  | { kind: "no_pending" }
  /** Flow says the card was not registered (RegisterResult status "0"). */
  | { kind: "not_registered"; subscriptionId: string }
  /** Flow refused the lookup or did not answer. */
  | { kind: "flow_error" }
  /** The card is registered but the subscription could not start (charge declined, order expired, not this account's card). */
  | { kind: "activation_failed"; subscriptionId: string; message: string }
  /** The first charge is being made, or its answer was lost and is being reconciled. */
  | { kind: "in_progress" };

/**
 * The customer is back from Flow with a token (spec §2, §4 card return states): their newest
 * subscription waiting for a card (spec §7: by user and status pending_payment, newest first)
 * is activated with the card Flow registered, through the same activation as every provider.
 * Payments only reports what Flow says of the token; completing the subscription is this
 * domain's (issue 13: no payments → subscriptions dependency).
 */
export async function completeFlowCardRegistration(
  db: Database,
  client: FlowClient,
  input: { userId: string; token: string; now: Date; siteUrl: string },
): Promise<FlowReturnOutcome> {
  const [pending] = await db
    .select({ id: subscriptions.id, orderId: subscriptions.orderId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, input.userId), eq(subscriptions.status, "pending_payment")))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  if (!pending?.orderId) return { kind: "no_pending" };

  const registration = await flowRegistrationStatus(client, input.token);
  if (registration === "unavailable") return { kind: "flow_error" };
  if (registration === "not_registered") return { kind: "not_registered", subscriptionId: pending.id };

  const result = await activateSubscription(db, {
    subscriptionId: pending.id,
    userId: input.userId,
    token: input.token,
    cards: flowCardProvider(client),
    now: input.now,
    siteUrl: input.siteUrl,
  });
  if (result.ok) return { kind: "activated", subscriptionId: result.subscriptionId, orderId: pending.orderId };
  switch (result.reason) {
    case "in_progress":
      return { kind: "in_progress" };
    case "not_found":
      return { kind: "no_pending" };
    case "expired":
      return { kind: "activation_failed", subscriptionId: pending.id, message: "El tiempo para registrar tu tarjeta terminó." };
    default:
      return { kind: "activation_failed", subscriptionId: pending.id, message: result.message };
  }
}
