import { env } from "../config/env";
import { createCulqiClient, type CulqiClient } from "./culqi/client";
import { createFlowClient, type FlowClient } from "./flow/client";

export type ProviderId = "sandbox" | "culqi";

export interface ActiveProvider {
  id: ProviderId;
  /** Where the customer pays a payment attempt. */
  paymentPath(paymentId: string): string;
}

/**
 * One interface, chosen by configuration (decisions.md, Payments): Culqi when both of its keys
 * are set, otherwise the offline sandbox. Checkout never knows which one is active.
 */
export function activePaymentProvider(): ActiveProvider {
  const config = env();
  if (config.CULQI_PUBLIC_KEY && config.CULQI_SECRET_KEY) {
    return { id: "culqi", paymentPath: (paymentId) => `/pago/culqi/${paymentId}` };
  }
  return { id: "sandbox", paymentPath: (paymentId) => `/pago/sandbox/${paymentId}` };
}

let client: CulqiClient | undefined;

export function culqiClient(): CulqiClient {
  const config = env();
  if (!config.CULQI_SECRET_KEY) throw new Error("Culqi is not configured (CULQI_SECRET_KEY)");
  client ??= createCulqiClient({ secretKey: config.CULQI_SECRET_KEY, apiBase: config.CULQI_API_BASE, timeoutMs: 15_000 });
  return client;
}

export function culqiPublicKey(): string | null {
  return env().CULQI_PUBLIC_KEY ?? null;
}

export function culqiWebhookAuthorization(): string | null {
  const credentials = env().CULQI_WEBHOOK_AUTH;
  return credentials ? `Basic ${Buffer.from(credentials).toString("base64")}` : null;
}

/**
 * Flow registers and charges the cards of subscriptions when both of its keys are set
 * (issue 5); one-time payments stay with the active payment provider above.
 */
export function flowConfigured(): boolean {
  const config = env();
  return Boolean(config.FLOW_API_KEY && config.FLOW_SECRET_KEY);
}

let flow: FlowClient | undefined;

export function flowClient(): FlowClient {
  const config = env();
  if (!config.FLOW_API_KEY || !config.FLOW_SECRET_KEY) throw new Error("Flow is not configured (FLOW_API_KEY, FLOW_SECRET_KEY)");
  flow ??= createFlowClient({ apiKey: config.FLOW_API_KEY, secretKey: config.FLOW_SECRET_KEY, apiBase: config.FLOW_API_BASE, timeoutMs: 15_000 });
  return flow;
}
