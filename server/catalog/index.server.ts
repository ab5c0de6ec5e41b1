export { findProductBySlug, listProductSlugs, listShopProducts, type ProductDetail, type ProductVariant, type ShopProduct } from "./products";
export { priceCartLines, type CartLineRequest, type PricedCart, type PricedCartLine } from "./cart-pricing";
