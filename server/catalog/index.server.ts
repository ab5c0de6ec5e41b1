export {
  findProductBySlug,
  listProductSlugs,
  listShopProducts,
  type ProductDetail,
  type ProductPicture,
  type ProductVariant,
  type ShopProduct,
} from "./products";
export { cartPricesColumn, priceCartLines, pricedCartFromColumn, type CartLineRequest, type PricedCart, type PricedCartLine } from "./cart-pricing";
export type { CatalogSaveResult, OnPriceChange, PriceChanged } from "./catalog-edit";
export {
  createProduct,
  findProductForEditing,
  findRenamedProductSlug,
  listCatalogForEditing,
  updateProduct,
  type ProductForEditing,
  type ProductSave,
  type ProductWithVariants,
} from "./products-admin";
export { addProductImage, moveProductImage, removeProductImage, updateProductImageAlt, type GalleryImage } from "./product-gallery";
export { createVariant, updateVariant } from "./variants-admin";
export { listSellableLines, type SellableLine } from "./sellable-lines";
