export { CARD_PAYMENT_WINDOW_MINUTES, placeOrder, type PlaceOrderResult } from "./place-order";
