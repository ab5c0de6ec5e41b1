/**
 * `npm run media:migrate`: copies the pictures in UPLOADS_DIR into the bucket S3_BUCKET names
 * (docs/operations.md, decision 0080). Safe to run again: what is already there is left alone.
 */
import { localMediaStore, mediaStore, uploadsDir } from "./storage";
import { copyLocalMediaToStore } from "./migrate";

const target = mediaStore();
if (target.kind !== "s3") {
  console.error("media:migrate copies UPLOADS_DIR into a bucket: set S3_BUCKET (and S3_ENDPOINT, S3_REGION, the keys) first.");
  process.exit(2);
}
const source = localMediaStore(uploadsDir());
console.log(`Copying the pictures in ${source.location} to ${target.location}…`);
const report = await copyLocalMediaToStore(source, target);
console.log(JSON.stringify(report));
