export { createCulqiClient, type Authentication3DS, type CulqiClient } from "./client";
export {
  chargeCulqiToken,
  createCulqiOrderForPayment,
  handleCulqiWebhookEvent,
  issueCulqiCodeWithoutCheckout,
  recordCulqiOrderCode,
  type CulqiChargeOutcome,
  type CulqiWebhookInput,
  type WebhookOutcome,
} from "./culqi-payments";
