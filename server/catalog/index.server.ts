export { findProductBySlug, listProductSlugs, listShopProducts, type ProductDetail, type ProductVariant, type ShopProduct } from "./products";
export { priceCartLines, type CartLineRequest, type PricedCart, type PricedCartLine } from "./cart-pricing";
export type { CatalogSaveResult, OnPriceChange, PriceChanged } from "./catalog-edit";
export {
  createProduct,
  findProductForEditing,
  findRenamedProductSlug,
  listCatalogForEditing,
  updateProduct,
  type ProductSave,
  type ProductWithVariants,
} from "./products-admin";
export { createVariant, updateVariant } from "./variants-admin";
