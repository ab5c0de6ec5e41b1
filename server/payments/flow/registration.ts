import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../../db/client";
import { paymentMethods, subscriptions } from "../../db/schema";
import { activateSubscription } from "../../subscriptions/index.server";
import { flowCardProvider } from "../cards/flow-cards";
import type { FlowClient } from "./client";

/**
 * Where Flow's page POSTs the registration token (`url_return`). A resource route: React Router
 * refuses a cross-site POST to a page route, and Flow's POST comes from Flow's own site
 * (decision 0021). It only forwards the token to the customer's page, /flow/register-return.
 */
export const FLOW_REGISTER_NOTIFY_PATH = "/api/pagos/flow/registro";
export const FLOW_REGISTER_RETURN_PATH = "/flow/register-return";

export type FlowRegistrationStart = { ok: true; redirectUrl: string } | { ok: false; message: string };

const FLOW_UNREACHABLE = "No pudimos conectar con Flow para registrar tu tarjeta. Intenta nuevamente en unos minutos.";

/**
 * Sends a customer to Flow to register a card (payments.md B.2): the Flow customer this account
 * already has (a saved Flow card names it), else a new one keyed by the account's id, then
 * `customer/register`; the browser goes to `url + "?token=" + token`.
 */
export async function startFlowCardRegistration(
  db: Database,
  client: FlowClient,
  input: { user: { id: string; email: string; fullName: string }; siteUrl: string },
): Promise<FlowRegistrationStart> {
  const [known] = await db
    .select({ customerId: paymentMethods.providerCustomerId })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.userId, input.user.id), eq(paymentMethods.provider, "flow"), isNotNull(paymentMethods.providerCustomerId)))
    .orderBy(desc(paymentMethods.createdAt))
    .limit(1);
  let customerId = known?.customerId ?? null;
  if (!customerId) {
    const created = await client.createCustomer({ name: input.user.fullName.trim() || input.user.email, email: input.user.email, externalId: input.user.id });
    if (created.kind !== "ok") return { ok: false, message: FLOW_UNREACHABLE };
    customerId = created.body.customerId;
  }
  const registration = await client.registerCard({ customerId, urlReturn: `${input.siteUrl}${FLOW_REGISTER_NOTIFY_PATH}` });
  if (registration.kind !== "ok") return { ok: false, message: FLOW_UNREACHABLE };
  return { ok: true, redirectUrl: `${registration.body.url}?token=${encodeURIComponent(registration.body.token)}` };
}

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

  const registration = await client.getRegisterStatus(input.token);
  if (registration.kind !== "ok") return { kind: "flow_error" };
  if (registration.body.status !== "1") return { kind: "not_registered", subscriptionId: pending.id };

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
