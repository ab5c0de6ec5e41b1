export { DOOR_PROVIDER, placeOrder, SLOT_TAKEN_MESSAGE } from "./place-order";
export { doorPaymentOffer, type DoorPaymentOffer } from "./door-payment";
export { checkoutGarantiaContext } from "./garantia-pricing";
export { previewOneTimeOrder, type OneTimeOrderPreview } from "./order-preview";
