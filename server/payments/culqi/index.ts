export { createCulqiClient, type CulqiClient } from "./client";
export {
  chargeCulqiToken,
  createCulqiOrderForPayment,
  handleCulqiWebhookEvent,
  issueCulqiCodeWithoutCheckout,
  recordCulqiOrderCode,
  type CulqiWebhookInput,
  type WebhookOutcome,
} from "./culqi-payments";
