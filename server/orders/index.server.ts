export { canTransition, InvalidOrderTransitionError, orderStatusLabel, orderStatusLabels, type OrderStatus } from "./order-status";
export { isValidReceiptToken, receiptToken } from "./receipt-access";
export { findOrderReceipt, type OrderReceipt } from "./receipt";
export { transitionOrder } from "./transition";
export { expireUnpaidOrders } from "./expire-unpaid";
