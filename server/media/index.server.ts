export {
  chosenFile,
  IMAGE_TOO_LARGE,
  IMAGE_WRONG_TYPE,
  MAX_IMAGE_BYTES,
  prepareUploadedImage,
  readStoredImage,
  type PreparedImage,
  type PreparedImageResult,
} from "./images";
export { savingUploadedImage, writeUploadedImage } from "./image-files";
export { MEDIA_PATH_COLUMNS } from "./media-references";
export { sweepUnusedMedia, sweepUnusedMediaWhenDue, type MediaSweepOptions, type MediaSweepReport } from "./sweep";
export { STORED_NAME } from "./images";
export { localMediaStore, MEDIA_CACHE_CONTROL, s3MediaStore, type MediaStore } from "./storage";
export { copyLocalMediaToStore, type MediaCopyReport } from "./migrate";
export { prepareDeliveryPhoto, readDeliveryPhoto, storeDeliveryPhoto, type DeliveryPhotoFile } from "./delivery-photos";
