export { chosenFile, IMAGE_TOO_LARGE, IMAGE_WRONG_TYPE, MAX_IMAGE_BYTES, prepareUploadedImage, readStoredImage, type PreparedImage } from "./images";
export { savingUploadedImage, writeUploadedImage } from "./image-files";
export { MEDIA_PATH_COLUMNS } from "./media-references";
export { sweepUnusedMedia, sweepUnusedMediaWhenDue } from "./sweep";
export { STORED_NAME } from "./images";
export { localMediaStore, MEDIA_CACHE_CONTROL, s3MediaStore, type MediaStore } from "./storage";
export { copyLocalMediaToStore } from "./migrate";
export { prepareDeliveryPhoto, readDeliveryPhoto, storeDeliveryPhoto } from "./delivery-photos";
