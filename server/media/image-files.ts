import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { inTransaction, type Transaction } from "../db/transaction";
import { storedNamesOf, type PreparedImage } from "./images";
import { namedAmong } from "./media-references";
import type { MediaStore } from "./storage";

/**
 * When an upload's files reach the disk and when they leave it (decision 0065).
 *
 * A file is written only inside the transaction that saves the row naming it, holding the media
 * lock in shared mode until that transaction ends; a file is deleted only under the same lock in
 * exclusive mode, after asking the database whether a committed row names it. So a deleter never
 * sees a file whose naming row is about to commit: that writer holds the shared lock, and one that
 * has not written yet writes again after the deleter is done. Writers never wait for each other.
 *
 * The lock is a transaction-level advisory lock, taken after every row lock of the save (decision
 * 0025's "taken last"), so it never sits between two rows of the lock order.
 */
const MEDIA_LOCK_CLASS = 0x6d656469; // "medi": an advisory-lock space of its own (two-key form)

/** Takes the media lock for writing (shared: uploads run side by side). */
export async function lockMediaForWriting(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${MEDIA_LOCK_CLASS}::int, 0)`);
}

/** Takes the media lock for deleting (exclusive: waits for the uploads in flight to commit or roll back). */
export async function lockMediaForRemoval(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${MEDIA_LOCK_CLASS}::int, 0)`);
}

/**
 * Stores a prepared upload's files, as the LAST step of the transaction that saves the row naming
 * it (after every check that could refuse the save). Running it again (a retried transaction, the
 * same picture uploaded twice) writes the same bytes under the same names. Each file is stored
 * whole (storage.ts), in the folder or the bucket.
 */
export async function writeUploadedImage(tx: Transaction, image: PreparedImage): Promise<void> {
  await lockMediaForWriting(tx);
  for (const file of image.files) await image.store.put(file.name, file.bytes);
}

/**
 * Runs a save whose transaction writes `image`'s files (`writeUploadedImage`). When the save throws
 * (its commit failed, the database went away), the files go again unless a committed row names
 * them; whatever cannot be removed now is logged and left to the media sweep. A save that refuses
 * (returns a refusal) wrote nothing, since the files are its last step.
 */
export async function savingUploadedImage<T>(db: Database, image: PreparedImage | null | undefined, save: () => Promise<T>): Promise<T> {
  if (!image) return save();
  try {
    return await save();
  } catch (error) {
    await discardUploadedImage(db, image);
    throw error;
  }
}

/** Removes an upload's files unless a row names them (the same picture may be in use elsewhere). */
async function discardUploadedImage(db: Database, image: PreparedImage): Promise<void> {
  try {
    await inTransaction(db, async (tx) => {
      await lockMediaForRemoval(tx);
      if ((await namedAmong(tx, [image.hash])).size > 0) return;
      for (const name of storedNamesOf(image.hash)) await removeFile(image.store, name, "a failed upload's file");
    });
  } catch (error) {
    // Without the database nobody can tell whether a row names the files, so they stay: the sweep decides later.
    console.error(`Could not remove the files of a failed upload (${image.hash}); the media sweep removes them if no row names them`, error);
  }
}

/**
 * Deletes one file: true when it is gone (also when it was already gone). Any other failure is
 * logged, never swallowed, and answers false: the next sweep tries again.
 */
export async function removeFile(store: MediaStore, name: string, what: string): Promise<boolean> {
  try {
    await store.remove(name);
    return true;
  } catch (error) {
    console.error(`Could not delete ${what} (${name}) from ${store.location}; the media sweep tries again`, error);
    return false;
  }
}
