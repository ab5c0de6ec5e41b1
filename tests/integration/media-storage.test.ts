import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "@server/db/transaction";
import {
  copyLocalMediaToStore,
  localMediaStore,
  prepareUploadedImage,
  readStoredImage,
  s3MediaStore,
  sweepUnusedMedia,
  writeUploadedImage,
  type MediaStore,
  type PreparedImage,
} from "@server/media/index.server";
import { startS3StandIn, type S3StandIn } from "../support/s3-stand-in";
import { createTestDatabase, rowsOf, type TestDatabase } from "../support/test-database";

const HOUR = 60 * 60 * 1000;

let shade = 0;
/** A picture no other test uploads, checked and resized for `store` (not stored yet). */
async function picture(store: MediaStore): Promise<PreparedImage> {
  shade += 1;
  const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: { r: shade * 7, g: 40, b: 200 } } })
    .png()
    .toBuffer();
  const prepared = await prepareUploadedImage(new File([png], "foto.png"), store);
  if (!prepared.ok) throw new Error(prepared.message);
  return prepared.image;
}

async function namesIn(store: MediaStore): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of store.list()) names.push(entry.name);
  return names.sort();
}

function s3StoreOf(s3: S3StandIn): MediaStore {
  return s3MediaStore({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
}

/**
 * Issue 27, decision 0080: uploaded pictures live in the local folder or in an S3 bucket behind one
 * interface; the save, the read and the sweep behave the same on both (the bucket is s3rver's).
 */
describe.each(["local", "s3"] as const)("media on %s storage", (kind) => {
  let test: TestDatabase;
  let s3: S3StandIn | undefined;
  let folder: string;
  let store: MediaStore;

  beforeAll(async () => {
    test = await createTestDatabase();
    folder = await mkdtemp(path.join(tmpdir(), "media-storage-"));
    if (kind === "s3") s3 = await startS3StandIn();
    store = s3 ? s3StoreOf(s3) : localMediaStore(folder);
  });
  afterAll(async () => {
    await s3?.close();
    await rm(folder, { recursive: true, force: true });
    await test?.close();
  });

  it("stores an upload inside the save's transaction and reads back the same bytes; any other name reads as missing", async () => {
    const image = await picture(store);
    await inTransaction(test.db, (tx) => writeUploadedImage(tx, image));
    for (const file of image.files) expect(Buffer.compare((await readStoredImage(file.name, store))!, Buffer.from(file.bytes))).toBe(0);
    expect(await readStoredImage(`${image.hash}-1200.webp`, store)).toBeNull();
    expect(await readStoredImage("../media-storage.test.ts", store)).toBeNull();
    // The same picture saved again (a retried transaction) writes the same names, nothing more.
    await inTransaction(test.db, (tx) => writeUploadedImage(tx, image));
    expect((await namesIn(store)).filter((name) => name.startsWith(image.hash))).toEqual(image.files.map((file) => file.name).sort());
  });

  it("sweeps the files no row names once past the grace period, keeps the named ones and never touches other names", async () => {
    const named = await picture(store);
    const unnamed = await picture(store);
    for (const image of [named, unnamed]) await inTransaction(test.db, (tx) => writeUploadedImage(tx, image));
    const [product] = rowsOf<{ id: number }>(await test.db.execute(sql`select id from products order by id limit 1`));
    await test.db.execute(sql`update products set image = ${named.path} where id = ${product!.id}`);
    await store.put("notas.txt", Buffer.from("no es una imagen"));

    // Ages are read on the store's clock (a file's mtime, S3's LastModified), which is not the
    // process's when the suite runs under faketime (decision 0070): the sweep's "now" is built on it.
    const writtenAt = (await store.modifiedAt(unnamed.files[0]!.name))!;
    // Young files stay whatever names them.
    const early = await sweepUnusedMedia(test.db, { dir: store, now: new Date(writtenAt) });
    expect(early.deleted).toBe(0);
    expect(early.young).toBeGreaterThanOrEqual(2);

    const later = await sweepUnusedMedia(test.db, { dir: store, now: new Date(writtenAt + 25 * HOUR) });
    expect(later.failed).toBe(0);
    const left = await namesIn(store);
    for (const file of named.files) expect(left).toContain(file.name);
    for (const file of unnamed.files) expect(left).not.toContain(file.name);
    expect(left).toContain("notas.txt");
    expect(await readStoredImage(named.files[0]!.name, store)).not.toBeNull();
  });
});

describe("npm run media:migrate (issue 27)", () => {
  let s3: S3StandIn;
  let folder: string;
  beforeAll(async () => {
    s3 = await startS3StandIn("migrated-media");
    folder = await mkdtemp(path.join(tmpdir(), "media-migrate-"));
  });
  afterAll(async () => {
    await s3?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("copies the pictures of the local folder into the bucket once, and only the media's own names", async () => {
    const local = localMediaStore(folder);
    const bucket = s3StoreOf(s3);
    const images = [await picture(local), await picture(local)];
    for (const image of images) for (const file of image.files) await local.put(file.name, file.bytes);
    await local.put("otra-cosa.pdf", Buffer.from("%PDF"));

    expect(await copyLocalMediaToStore(local, bucket)).toEqual({ found: 4, copied: 4, alreadyThere: 0 });
    const names = images.flatMap((image) => image.files.map((file) => file.name)).sort();
    expect(await namesIn(bucket)).toEqual(names);
    for (const image of images) expect(Buffer.compare((await bucket.get(image.files[1]!.name))!, Buffer.from(image.files[1]!.bytes))).toBe(0);
    // Run again (after a failure, or twice): nothing is copied twice.
    expect(await copyLocalMediaToStore(local, bucket)).toEqual({ found: 4, copied: 0, alreadyThere: 4 });
  });
});
