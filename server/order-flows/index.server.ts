/**
 * One floor above orders, payments, deliveries and garantías (decision 0083): flows that move an
 * order live here (orders' `transitionOrder` is called from here and from orders only), so the
 * domains below never call each other in a circle. Those domains' entry points that move an order
 * take its steps as an argument; this door exports them with the steps in place, under their old
 * names. Nothing below this floor imports it; routes, jobs and subscriptions' sign-up do.
 */
export { cancelOrderByStaff, staffCancellationBlocker, type CancelOrderResult } from "./staff-cancel";
export { expireUnpaidOrders } from "./expire-unpaid-orders";
export { handleCulqiWebhook } from "./culqi-code-expired";
export { applyQueuedDriverConfirmations, confirmDriverStop } from "./order-follows-deliveries";
export {
  applySandboxAction,
  chargeCulqiToken,
  issueCulqiCodeWithoutCheckout,
  issuePaymentCode,
  markManualRefundDone,
  processGarantiaReturns,
  recordCulqiOrderCode,
  recordPaymentFailed,
  recordPaymentSucceeded,
  refundOrder,
  retryDueRefunds,
  settleConfirmedCharge,
  settlePaymentInTransaction,
} from "./payment-entry-points";
