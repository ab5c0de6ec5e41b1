import { readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "../client";
import { migrationsFolder } from "../project-files";

/**
 * The demo history is history before the bidón ledger (its deliveries were never confirmed with
 * counts), written after the migrations ran: the migration that gives such customers their bidones
 * from their history (issue 41) runs again on it, so the demo subscriber holds the bidones she has
 * been swapping. One statement, safe to run on every start.
 */
export async function countDemoBidonesHeldBeforeTheLedger(db: Database): Promise<void> {
  const file = path.join(migrationsFolder, "0046_bidones-held-before-the-ledger.sql");
  await db.execute(sql.raw(await readFile(file, "utf8")));
}
