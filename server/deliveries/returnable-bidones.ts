/** The SKU table is a pure rule both sides use (the checkout shows the garantía): it lives in core/. */
export { bidonExchange } from "@core/returnable-bidones";
