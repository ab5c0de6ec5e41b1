export {
  chosenFile,
  IMAGE_TOO_LARGE,
  IMAGE_WIDTHS,
  IMAGE_WRONG_TYPE,
  MAX_IMAGE_BYTES,
  readStoredImage,
  storeUploadedImage,
  type ImageUploadResult,
} from "./images";
