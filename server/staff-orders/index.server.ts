/**
 * "Nuevo pedido" (issue 38, decision 0091): the office types in an order a customer gives by phone
 * or WhatsApp. The order is the checkout's own (`placeOrder`), for the caller's account or as a
 * guest's, with the staff member in its history, an audit row, the consent said on the phone asked
 * as every box asks, and the payment at the door, by a link sent to the customer, or by a code the
 * office dictates.
 */
export { loadOrderDesk, NEW_CALLER, previewStaffOrder } from "./order-desk";
export { placeStaffOrder } from "./place-staff-order";
export { sendPaymentLink } from "./payment-link";
