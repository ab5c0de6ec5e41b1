export { SHARE_IMAGE } from "@core/share-image";
export { type ShareCard } from "./share-card";
export {
  fixedShareImage,
  isFixedShareCard,
  productShareImage,
  productShareImagePath,
  productShareImageVersion,
  type Artwork,
  type FixedShareCard,
} from "./cards";
