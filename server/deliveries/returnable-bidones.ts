/** The SKU table is a pure rule both sides use (the checkout shows the garantía): it lives in core/. */
export { bidonExchange, garantiaBidones, type BidonExchange } from "@core/returnable-bidones";
