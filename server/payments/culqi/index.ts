export { createCulqiClient, isSuccessfulCharge, type Authentication3DS, type CulqiClient } from "./client";
export {
  chargeCulqiToken,
  createCulqiOrderForPayment,
  handleCulqiWebhook,
  issueCulqiCodeWithoutCheckout,
  recordCulqiOrderCode,
  type CulqiChargeOutcome,
} from "./culqi-payments";
