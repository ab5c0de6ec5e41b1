export { canTransition, orderStatusLabel, type OrderStatus } from "./order-status";
export { isValidReceiptToken, receiptPath, receiptToken, receiptUrl } from "./receipt-access";
export { findOrderReceipt, type OrderReceipt } from "./receipt";
export { transitionOrder } from "./transition";
export {
  findOrderForUser,
  listOrderLines,
  listOrdersForUser,
  ORDERS_PAGE_SIZE,
  type CustomerOrderDetail,
  type CustomerOrderRow,
  type OrderLine,
} from "./customer-orders";
export { searchStaffOrders, staffOrderSearchCondition, STAFF_ORDERS_PAGE_SIZE, type StaffOrderRow } from "./staff-order-search";
export { staffOrdersCsvFilename, staffOrdersCsvStream } from "./staff-orders-csv";
export { findStaffOrder, type StaffOrderDetail, type StaffOrderNote } from "./staff-order-detail";
export { addOrderNote, resendOrderConfirmation, StaffOrderNotFoundError } from "./staff-order-actions";
export { currentDelivery, currentDeliveryOf, type CurrentDeliveryRow } from "./current-delivery";
export { lockAndCountUnpaidHolds, unpaidHoldsFull } from "./unpaid-holds";
