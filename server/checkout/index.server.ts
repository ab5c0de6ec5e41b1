export { CARD_PAYMENT_WINDOW_MINUTES, placeOrder, SLOT_TAKEN_MESSAGE, type PlaceOrderResult } from "./place-order";
export { checkoutGarantiaContext } from "./garantia-pricing";
export { previewOneTimeOrder, type OneTimeOrderPreview } from "./order-preview";
