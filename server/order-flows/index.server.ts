/**
 * One floor above orders, payments and deliveries (decision 0083): flows that move an order and
 * call several of those domains live here, so the domains below never call each other in a circle.
 * Nothing below this floor imports it; routes and jobs do.
 */
export { cancelOrderByStaff, staffCancellationBlocker, type CancelOrderResult } from "./staff-cancel";
export { expireUnpaidOrders } from "./expire-unpaid-orders";
export { handleCulqiWebhook } from "./culqi-code-expired";
export { applyQueuedDriverConfirmations, confirmDriverStop } from "./order-follows-deliveries";
export { chargeCulqiToken, markManualRefundDone, processGarantiaReturns, refundOrder, retryDueRefunds } from "./payment-entry-points";
