import { env } from "../config/env";
import type { Database } from "../db/client";
import { CulqiUnavailableError, createCulqiClient, type CulqiClient } from "./culqi/client";
import { createCulqiOrderForPayment } from "./culqi/culqi-payments";
import { createFlowClient, type FlowClient } from "./flow/client";

export type ProviderId = "sandbox" | "culqi";

/**
 * What the customer's browser does next to pay a new attempt (issue 13): the checkout route
 * follows it without asking which provider is active. Both providers today send the browser to
 * their own payment page; a provider that pays elsewhere (an external URL) fits the same shape.
 */
export type PaymentNextStep = { kind: "redirect"; to: string };

export interface ActiveProvider {
  id: ProviderId;
  /** Where the customer pays a payment attempt. */
  paymentPath(paymentId: string): string;
  /** Readies a new payment attempt with the provider and says where the customer goes to pay it. */
  nextStep(db: Database, input: { paymentId: string; now: Date }): Promise<PaymentNextStep>;
}

/**
 * One interface, chosen by configuration (decisions.md, Payments): Culqi when both of its keys
 * are set, otherwise the offline sandbox. Checkout never knows which one is active.
 */
export function activePaymentProvider(): ActiveProvider {
  const config = env();
  if (config.CULQI_PUBLIC_KEY && config.CULQI_SECRET_KEY) {
    const paymentPath = (paymentId: string) => `/pago/culqi/${paymentId}`;
    return {
      id: "culqi",
      paymentPath,
      async nextStep(db, input) {
        // Banca móvil, agentes and billeteras need a Culqi order before its checkout opens; if
        // Culqi cannot create one now, cards and Yape still work, so the page opens regardless.
        // Only "Culqi did not answer" is expected here; a refusal or our own failure is logged for
        // staff, never silently dropped, and the customer still reaches the payment page.
        await createCulqiOrderForPayment(db, culqiClient(), input).catch((error: unknown) => {
          if (error instanceof CulqiUnavailableError) console.warn(`Culqi order for payment ${input.paymentId} not created: ${error.message}`);
          else console.error(`Culqi order for payment ${input.paymentId} failed:`, error);
        });
        return { kind: "redirect", to: paymentPath(input.paymentId) };
      },
    };
  }
  const paymentPath = (paymentId: string) => `/pago/sandbox/${paymentId}`;
  return { id: "sandbox", paymentPath, nextStep: async (_db, input) => ({ kind: "redirect", to: paymentPath(input.paymentId) }) };
}

/** Culqi Checkout's settings when Culqi is the active payment provider; its payment page exists only then. */
export function culqiCheckoutSettings(): { publicKey: string } | null {
  const config = env();
  return config.CULQI_PUBLIC_KEY && config.CULQI_SECRET_KEY ? { publicKey: config.CULQI_PUBLIC_KEY } : null;
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

export type CulqiWebhookSetup =
  /** Culqi is not the payment provider: the webhook does not exist (404). */
  | { kind: "off" }
  /** Production without CULQI_WEBHOOK_AUTH: anyone could make the shop call Culqi per posted event (503). */
  | { kind: "unprotected" }
  | { kind: "ready"; expectedAuthorization: string | null };

/** Whether the webhook may run, decided from the environment (decision 0026-late-payments-and-refunds). */
export function culqiWebhookSetup(): CulqiWebhookSetup {
  const config = env();
  if (!config.CULQI_PUBLIC_KEY || !config.CULQI_SECRET_KEY) return { kind: "off" };
  const expectedAuthorization = culqiWebhookAuthorization();
  if (!expectedAuthorization && config.NODE_ENV === "production") return { kind: "unprotected" };
  return { kind: "ready", expectedAuthorization };
}

/** Per client address: Culqi sends a few events per payment; a flood is someone else. */
export const CULQI_WEBHOOK_RATE_LIMIT = { limit: 120, windowSeconds: 60 };

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

/** The Flow client when both of Flow's keys are set (saved Flow cards may outlive a switch away from Flow). */
export function flowClientIfConfigured(): FlowClient | null {
  return flowConfigured() ? flowClient() : null;
}

/** The Culqi client when Culqi's secret key is set (refunds may outlive a switch back to the sandbox). */
export function culqiClientIfConfigured(): CulqiClient | null {
  return env().CULQI_SECRET_KEY ? culqiClient() : null;
}
