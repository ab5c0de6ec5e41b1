export { createCulqiClient, isSuccessfulCharge, type CulqiClient } from "./client";
export { chargeCulqiToken, createCulqiOrderForPayment, handleCulqiWebhook, recordCulqiOrderCode, type CulqiChargeOutcome } from "./culqi-payments";
