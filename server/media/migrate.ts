import { STORED_NAME } from "./images";
import type { MediaStore } from "./storage";

export interface MediaCopyReport {
  /** Media files found in the folder. */
  found: number;
  copied: number;
  /** Already in the store with the same size (a run before this one copied them). */
  alreadyThere: number;
}

/**
 * `npm run media:migrate` (issue 27): copies the pictures a shop kept in its local folder into the
 * bucket it now uses. Only the media domain's own names; a file already in the bucket with the
 * same bytes is left alone, so the command can run again after a failure, or twice, and copies
 * nothing twice. Names are content hashes: the same name is the same picture.
 */
export async function copyLocalMediaToStore(from: MediaStore, to: MediaStore): Promise<MediaCopyReport> {
  const report: MediaCopyReport = { found: 0, copied: 0, alreadyThere: 0 };
  for await (const entry of from.list()) {
    if (!STORED_NAME.test(entry.name)) continue;
    report.found += 1;
    const bytes = await from.get(entry.name);
    if (!bytes) continue;
    const existing = await to.get(entry.name);
    if (existing && existing.equals(bytes)) {
      report.alreadyThere += 1;
      continue;
    }
    await to.put(entry.name, bytes);
    report.copied += 1;
  }
  return report;
}
