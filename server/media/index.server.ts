export {
  chosenFile,
  IMAGE_TOO_LARGE,
  IMAGE_WIDTHS,
  IMAGE_WRONG_TYPE,
  MAX_IMAGE_BYTES,
  prepareUploadedImage,
  readStoredImage,
  type PreparedImage,
  type PreparedImageResult,
} from "./images";
export { savingUploadedImage, writeUploadedImage } from "./image-files";
export { MEDIA_PATH_COLUMNS } from "./media-references";
export { MEDIA_SWEEP_EVERY_MS, MEDIA_SWEEP_GRACE_MS, sweepUnusedMedia, sweepUnusedMediaWhenDue, type MediaSweepOptions, type MediaSweepReport } from "./sweep";
export { STORED_NAME } from "./images";
export { localMediaStore, MEDIA_CACHE_CONTROL, mediaStore, s3MediaStore, type MediaStore } from "./storage";
export { copyLocalMediaToStore, type MediaCopyReport } from "./migrate";
export {
  DELIVERY_PHOTO_TOO_LARGE,
  DELIVERY_PHOTO_UNREADABLE,
  MAX_DELIVERY_PHOTO_BYTES,
  prepareDeliveryPhoto,
  readDeliveryPhoto,
  storeDeliveryPhoto,
  type DeliveryPhotoFile,
} from "./delivery-photos";
