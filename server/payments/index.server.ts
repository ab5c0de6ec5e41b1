export { applySandboxAction, findSandboxPayment, SANDBOX_CODE_HOURS, type SandboxAction } from "./sandbox";
export { PaymentNotFoundError, recordPaymentCodeIssued, recordPaymentFailed, recordPaymentSucceeded, type PaymentMethod } from "./settle";

export { activePaymentProvider, culqiClient, culqiPublicKey, culqiWebhookAuthorization, type ActiveProvider, type ProviderId } from "./providers";
export { chargeCulqiToken, createCulqiOrderForPayment, handleCulqiWebhook, recordCulqiOrderCode } from "./culqi";
export { findCulqiPayment } from "./culqi-page";
export { activeCardProvider, cardProviderFor, isPlausibleCardNumber, sandboxCardProvider, sandboxCardToken, SANDBOX_TEST_CARDS, type CardProvider } from "./cards";
