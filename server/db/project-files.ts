import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder holding `server/db/`, found from this module's own location so the server works
 * whatever its working directory is, both from source (tests, dev) and from the bundled build.
 */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (true) {
    if (existsSync(path.join(dir, "server/db/migrations/meta/_journal.json"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export const projectRoot = findProjectRoot();
export const migrationsFolder = path.join(projectRoot, "server/db/migrations");
export const districtsCsvPath = path.join(projectRoot, "server/db/seed/lima-districts.csv");
