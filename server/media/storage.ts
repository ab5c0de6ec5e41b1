import { randomUUID } from "node:crypto";
import { lstat, mkdir, opendir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type * as S3Sdk from "@aws-sdk/client-s3";
import { env } from "../config/env";

/**
 * Where uploaded images live (issue 27, decision 0080): one interface, two backends. The local
 * folder (UPLOADS_DIR) is the embedded default; an S3-compatible bucket (S3_BUCKET…) is what
 * several machines share, so a picture uploaded through one process is served by every other.
 * Names are the media domain's own (`<hash>-<width>.webp`), checked by the callers; a name is
 * the object's key in the bucket, as it is the file's name in the folder.
 */
export interface MediaStore {
  readonly kind: "local" | "s3";
  /** Where, for messages: the folder, or the bucket. */
  readonly location: string;
  /** Stores one file whole: a reader never sees half of it, and writing the same bytes again is harmless. */
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** The file's bytes, or null when there is no such file. */
  get(name: string): Promise<Buffer | null>;
  /** Every file in the store (local: regular files only), with its modification time when the listing has it. */
  list(): AsyncIterable<{ name: string; modifiedAt?: number }>;
  /** The file's modification time (ms), or null when it is gone. */
  modifiedAt(name: string): Promise<number | null>;
  /** Deletes a file; deleting one that is already gone succeeds. */
  remove(name: string): Promise<void>;
}

/** The cache headers every stored picture is served with, by the shop or straight from a public bucket. */
export const MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";

let configured: MediaStore | undefined;

/** The store the configuration names: the bucket when S3_BUCKET is set, otherwise UPLOADS_DIR. */
export function mediaStore(): MediaStore {
  if (configured) return configured;
  const config = env();
  configured = config.S3_BUCKET
    ? s3MediaStore({
        bucket: config.S3_BUCKET,
        endpoint: config.S3_ENDPOINT,
        region: config.S3_REGION,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
        credentials:
          config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
            ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
            : undefined,
      })
    : localMediaStore(uploadsDir());
  return configured;
}

/** UPLOADS_DIR (default `.data/uploads`, beside the database), as an absolute path. */
export function uploadsDir(): string {
  return path.resolve(process.cwd(), env().UPLOADS_DIR);
}

/** A store given as a folder (tests, benchmarks) or as itself. */
export function asMediaStore(target: MediaStore | string | undefined): MediaStore {
  if (target === undefined) return mediaStore();
  return typeof target === "string" ? localMediaStore(target) : target;
}

/** Files in a folder of this machine. */
export function localMediaStore(dir: string): MediaStore {
  return {
    kind: "local",
    location: dir,
    async put(name, bytes) {
      await mkdir(dir, { recursive: true });
      // Written beside and renamed, so a reader never sees half a file; the temporary name is
      // unique, so two requests writing the same picture at once never write into one file.
      const target = path.join(dir, name);
      const temporary = `${target}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, target);
      } catch (error) {
        await unlink(temporary).catch((problem: NodeJS.ErrnoException) => {
          if (problem.code !== "ENOENT")
            console.error(`Could not delete an unfinished upload's temporary file (${path.basename(temporary)}); the media sweep removes it`);
        });
        throw error;
      }
    },
    async get(name) {
      try {
        return await readFile(path.join(dir, name));
      } catch {
        return null;
      }
    },
    async *list() {
      let folder;
      try {
        folder = await opendir(dir);
      } catch (error) {
        // No upload yet: nothing there.
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      // A Dirent from opendir describes the entry itself: a symbolic link or a folder is not a file here.
      for await (const entry of folder) if (entry.isFile()) yield { name: entry.name };
    },
    async modifiedAt(name) {
      try {
        const stats = await lstat(path.join(dir, name));
        return stats.isFile() ? stats.mtimeMs : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(name) {
      try {
        await unlink(path.join(dir, name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    },
  };
}

export interface S3MediaConfig {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** How long one call to the object store may take before it fails (a hung store must not hang a save). */
const S3_REQUEST_TIMEOUT_MS = 20_000;

/** Objects in an S3-compatible bucket, through @aws-sdk/client-s3. */
export function s3MediaStore(config: S3MediaConfig): MediaStore {
  // The SDK is loaded when the bucket is first used, never by a shop without one: importing it cost
  // every server start ~150 ms. Once per store, so its error classes are the ones its client throws.
  let loading: Promise<{ sdk: typeof S3Sdk; client: S3Sdk.S3Client }> | undefined;
  const connect = () =>
    (loading ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: config.credentials,
        requestHandler: { requestTimeout: S3_REQUEST_TIMEOUT_MS, connectionTimeout: 5_000 },
        maxAttempts: 3,
      }),
    })));
  const Bucket = config.bucket;
  return {
    kind: "s3",
    location: `s3://${Bucket}`,
    async put(name, bytes) {
      const { sdk, client } = await connect();
      // A PUT replaces an object whole: readers see the old bytes or the new ones, never half.
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: name, Body: bytes, ContentType: "image/webp", CacheControl: MEDIA_CACHE_CONTROL }));
    },
    async get(name) {
      const { sdk, client } = await connect();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: name }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
      } catch (error) {
        if (isMissing(sdk, error)) return null;
        throw error;
      }
    },
    async *list() {
      const { sdk, client } = await connect();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (object.Key) yield { name: object.Key, modifiedAt: object.LastModified?.getTime() };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async modifiedAt(name) {
      const { sdk, client } = await connect();
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: name }));
        return head.LastModified?.getTime() ?? null;
      } catch (error) {
        if (isMissing(sdk, error)) return null;
        throw error;
      }
    },
    async remove(name) {
      const { sdk, client } = await connect();
      // S3 answers a delete of a missing key with success too.
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: name }));
    },
  };
}

function isMissing(sdk: typeof S3Sdk, error: unknown): boolean {
  if (error instanceof sdk.S3ServiceException) return error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404;
  return false;
}
