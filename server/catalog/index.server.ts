export { findProductBySlug, listProductSlugs, listShopProducts, type ProductDetail, type ProductPicture, type ShopProduct } from "./products";
export { cartPricesColumn, priceCartLines, pricedCartFromColumn, type CartLineRequest, type PricedCartLine } from "./cart-pricing";
export type { OnPriceChange } from "./catalog-edit";
export { createProduct, findProductForEditing, findRenamedProductSlug, listCatalogForEditing, updateProduct } from "./products-admin";
export { addProductImage, moveProductImage, removeProductImage, updateProductImageAlt, type GalleryImage } from "./product-gallery";
export { createVariant, updateVariant } from "./variants-admin";
export { listSellableLines, type SellableLine } from "./sellable-lines";
