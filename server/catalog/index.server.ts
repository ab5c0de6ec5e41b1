export {
  findProductBySlug,
  listProductSlugs,
  listShopProducts,
  type ProductDetail,
  type ProductVariant,
  type ShopProduct,
} from "./products";
