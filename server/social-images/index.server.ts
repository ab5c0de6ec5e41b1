export { SHARE_IMAGE } from "@core/share-image";
export { fixedShareImage, isFixedShareCard, productShareImage, productShareImagePath, productShareImageVersion } from "./cards";
