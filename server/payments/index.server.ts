export { applySandboxAction, findSandboxPayment, SANDBOX_CODE_HOURS, type SandboxAction } from "./sandbox";
export { issuePaymentCode, type IssuedPaymentCode } from "./payment-code";
export {
  PaymentNotFoundError,
  recordPaymentCodeIssued,
  recordPaymentFailed,
  recordPaymentSucceeded,
  type PaymentMethod,
  type SettlementDetails,
} from "./settle";
export { settleConfirmedCharge } from "./late-payments";

export {
  activePaymentProvider,
  culqiClient,
  culqiClientIfConfigured,
  culqiCheckoutSettings,
  culqiWebhookAuthorization,
  culqiWebhookSetup,
  CULQI_WEBHOOK_RATE_LIMIT,
  flowClient,
  flowClientIfConfigured,
  flowConfigured,
  type ActiveProvider,
  type CulqiWebhookSetup,
  type PaymentNextStep,
  type ProviderId,
} from "./providers";
export { isStaffRefund, refundChannel, retryDueRefunds } from "./refunds";
export type { PaymentOrderSteps } from "./order-steps";
export type { RefundReason } from "./late-payments";
export { expireOpenPayment, expireOpenPayments } from "./expired-attempts";
export { chargeCulqiToken, createCulqiOrderForPayment, handleCulqiWebhookEvent, issueCulqiCodeWithoutCheckout, recordCulqiOrderCode } from "./culqi";
export type { CulqiWebhookInput, WebhookOutcome } from "./culqi";
export { findCulqiPayment } from "./culqi-page";
export {
  activeCardProvider,
  cardProviderFor,
  flowCardProvider,
  isPlausibleCardNumber,
  sandboxCardProvider,
  sandboxCardToken,
  FLOW_REGISTRATION_FAILED,
  SANDBOX_TEST_CARDS,
  type CardProvider,
} from "./cards";
export { cardEntry, startCardRegistration, type CardEntry, type CardRegistrationStart } from "./card-entry";
export {
  flowRegistrationStatus,
  startFlowCardRegistration,
  FLOW_REGISTER_NOTIFY_PATH,
  FLOW_REGISTER_RETURN_PATH,
  type FlowClient,
  type FlowRegistrationStatus,
} from "./flow";
export {
  markManualRefundDone,
  operacionesRefundLimitCents,
  operacionesRefundPolicy,
  orderRefundSummary,
  recordGarantiaRefund,
  planStaffRefund,
  recordStaffRefund,
  refundOrder,
  REFUND_ORDER_NOT_FOUND,
  setOperacionesRefundPolicy,
  settleStaffRefund,
  writeStaffRefund,
  type OperacionesRefundPolicy,
  type OrderRefundSummary,
  type RecordedGarantiaRefund,
  type RefundDeps,
  type StaffRefundResult,
} from "./staff-refunds";
export type { CulqiClient } from "./culqi/index";
export { confirmPaidOrder, confirmPaidOrders, confirmPayAtDoorOrder, settlePaymentInTransaction } from "./settle";
export { findPaymentToCollect, settleCollectedAtDoor } from "./door-collection";
export {
  driverCashToHandOver,
  loadCashBoxDay,
  recordCashHandover,
  type CashBoxDay,
  type CashHandover,
  type CashHandoverResult,
  type DoorCollection,
  type DriverCashBox,
} from "./cash-box";
export {
  processProviderErasure,
  providerErasureSummary,
  retryDueProviderErasures,
  scheduleCardErasures,
  type ErasureClients,
  type ProviderErasureSummary,
} from "./provider-erasures";
