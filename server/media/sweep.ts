import type { Database } from "../db/client";
import { inTransaction } from "../db/transaction";
import { removeFile, lockMediaForRemoval } from "./image-files";
import { STORED_NAME } from "./images";
import { namedAmong, namedMediaHashes } from "./media-references";
import { asMediaStore, type MediaStore } from "./storage";

/**
 * The media sweep (decision 0065): deletes uploaded images no row names any more (a picture taken
 * out of a gallery, a replaced logo, an upload whose save failed), once they are older than the
 * grace period, and temporary files a crashed upload left.
 *
 * What it may touch: regular files directly in the uploads folder whose names are the media
 * domain's own (`<hash>-400.webp`, `<hash>-800.webp`, and their `….tmp` while being written).
 * Nothing else: no sub-folder, no symbolic link, no other name, nothing outside the folder, so the
 * PDFs and attachments other domains keep (Libro de Reclamaciones, comprobantes) are never in
 * reach even if UPLOADS_DIR pointed at the whole data folder. On a bucket (decision 0080) the
 * same holds for its keys: only the media domain's names, the rest of the bucket is never touched.
 */

/** An upload in progress, or a file written a moment before its row commits, is never this old. */
export const MEDIA_SWEEP_GRACE_MS = 24 * 60 * 60 * 1000;
/** How often the in-process job scheduler sweeps (it ticks every JOBS_INTERVAL_SECONDS). */
export const MEDIA_SWEEP_EVERY_MS = 60 * 60 * 1000;
/** Files removed per transaction: the exclusive lock holds uploads back only for one batch. */
const BATCH_SIZE = 100;

const TEMPORARY_NAME = /^([0-9a-f]{24})-(400|800)\.webp\.[A-Za-z0-9-]+\.tmp$/;

export interface MediaSweepOptions {
  /** The folder or bucket swept: the configured one by default; a string is a local folder. */
  dir?: MediaStore | string;
  /** File ages are measured from here; the job uses the wall clock, which is what wrote the files' times. */
  now?: Date;
  graceMs?: number;
}

export interface MediaSweepReport {
  /** Media files looked at (other names are not counted, and never touched). */
  scanned: number;
  /** Named by a row. */
  kept: number;
  /** Not named, but younger than the grace period. */
  young: number;
  deleted: number;
  /** Could not be deleted (logged); the next sweep tries again. */
  failed: number;
}

/**
 * One sweep. Safe beside uploads and beside another sweep (another process, the CLI): every
 * deletion happens under the exclusive media lock after asking the database again, and a file
 * another sweep deleted first is simply gone.
 *
 * Cost: one statement for the set of named hashes (see `namedMediaHashes`), one directory walk
 * (streamed, one entry at a time), one `lstat` per file no row names, and one short transaction
 * per batch of up to 100 unnamed old files.
 */
export async function sweepUnusedMedia(db: Database, options: MediaSweepOptions = {}): Promise<MediaSweepReport> {
  const store = asMediaStore(options.dir);
  const cutoff = (options.now ?? new Date()).getTime() - (options.graceMs ?? MEDIA_SWEEP_GRACE_MS);
  const report: MediaSweepReport = { scanned: 0, kept: 0, young: 0, deleted: 0, failed: 0 };
  // Read before the walk: a row committed later is seen by the check each batch makes under the lock.
  const named = await namedMediaHashes(db);
  let batch = new Map<string, string[]>();
  const flush = async () => {
    if (batch.size === 0) return;
    add(report, await removeUnnamed(db, store, batch, cutoff));
    batch = new Map();
  };
  for await (const entry of store.list()) {
    const media = mediaFile(entry.name);
    if (!media) continue;
    report.scanned += 1;
    if (!media.temporary && named.has(media.hash)) {
      report.kept += 1;
      continue;
    }
    // A bucket's listing carries each object's time; a folder's costs one lstat, for unnamed files only.
    const age = entry.modifiedAt ?? (await store.modifiedAt(entry.name));
    if (age === null) continue;
    if (age >= cutoff) {
      report.young += 1;
      continue;
    }
    batch.set(media.hash, [...(batch.get(media.hash) ?? []), entry.name]);
    if (batch.size >= BATCH_SIZE) await flush();
  }
  await flush();
  return report;
}

let lastSweepStartedAt: number | null = null;

/**
 * The job: a sweep at most once per MEDIA_SWEEP_EVERY_MS in this process (the scheduler ticks
 * every 30 seconds; a walk of the folder that often would be waste). `npm run jobs:run` is a new
 * process each time, so it always sweeps. Null when it was not due.
 */
export async function sweepUnusedMediaWhenDue(db: Database): Promise<MediaSweepReport | null> {
  const now = Date.now();
  if (lastSweepStartedAt !== null && now - lastSweepStartedAt < MEDIA_SWEEP_EVERY_MS) return null;
  lastSweepStartedAt = now;
  return sweepUnusedMedia(db, { now: new Date(now) });
}

type Tally = Omit<MediaSweepReport, "scanned">;

/** Deletes the batch's files that are still unnamed and still old, under the exclusive media lock. */
async function removeUnnamed(db: Database, store: MediaStore, batch: Map<string, string[]>, cutoff: number): Promise<Tally> {
  return inTransaction(db, async (tx) => {
    const tally: Tally = { kept: 0, young: 0, deleted: 0, failed: 0 };
    await lockMediaForRemoval(tx);
    const stillNamed = await namedAmong(tx, [...batch.keys()]);
    for (const [hash, names] of batch) {
      for (const name of names) {
        if (stillNamed.has(hash) && !TEMPORARY_NAME.test(name)) {
          tally.kept += 1;
          continue;
        }
        // Written again since the walk saw it (the same picture uploaded anew): young again.
        const age = await store.modifiedAt(name);
        if (age === null) continue;
        if (age >= cutoff) {
          tally.young += 1;
          continue;
        }
        if (await removeFile(store, name, "an unused media file")) tally.deleted += 1;
        else tally.failed += 1;
      }
    }
    return tally;
  });
}

function mediaFile(name: string): { hash: string; temporary: boolean } | null {
  const stored = STORED_NAME.exec(name);
  if (stored) return { hash: stored[1]!, temporary: false };
  const temporary = TEMPORARY_NAME.exec(name);
  return temporary ? { hash: temporary[1]!, temporary: true } : null;
}

function add(report: MediaSweepReport, tally: Tally): void {
  report.kept += tally.kept;
  report.young += tally.young;
  report.deleted += tally.deleted;
  report.failed += tally.failed;
}
