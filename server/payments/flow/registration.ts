import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../../db/client";
import { paymentMethods } from "../../db/schema";
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

/** What Flow says of a registration token: payments reports it; the subscriptions domain decides what it completes. */
export type FlowRegistrationStatus = "registered" | "not_registered" | "unavailable";

/** Flow's `customer/getRegisterStatus` for a token (status "1" = registered, per Flow's spec); a refusal or no answer is `unavailable`. */
export async function flowRegistrationStatus(client: FlowClient, token: string): Promise<FlowRegistrationStatus> {
  const registration = await client.getRegisterStatus(token);
  if (registration.kind !== "ok") return "unavailable";
  return registration.body.status === "1" ? "registered" : "not_registered";
}
