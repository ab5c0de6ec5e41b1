export { canTransition, InvalidOrderTransitionError, orderStatusLabel, orderStatusLabels, type OrderStatus } from "./order-status";
export { isValidReceiptToken, receiptToken } from "./receipt-access";
export { findOrderReceipt, type OrderReceipt } from "./receipt";
export { transitionOrder } from "./transition";
export { expireUnpaidOrders } from "./expire-unpaid";
export {
  findOrderForUser,
  listOrderLines,
  listOrdersForUser,
  ORDERS_PAGE_SIZE,
  type CustomerOrderDetail,
  type CustomerOrderRow,
  type OrderLine,
} from "./customer-orders";
export { cancelOrderByStaff, staffCancellationBlocker, type CancelOrderResult } from "./staff-cancel";
