// CPU time of the processes a bench drives, read from /proc: figures the machine's load hardly
// changes, unlike wall times on the shared 2-core machine.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "../../server/db/client";

/** A process's CPU time so far (user + system), in ms. */
export function cpuMs(pid: number, withReapedChildren = false): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, cutime and cstime (children waited
  // for) 16 and 17, in clock ticks (100 a second on Linux).
  const own = Number(fields[11]) + Number(fields[12]);
  return (withReapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own) * 10;
}

/**
 * CPU time of the bench's PostgreSQL server (its postmaster and every backend it started), in ms: on
 * PostgreSQL the queries' work is there, not in the shop's process. Other engineers' servers on the
 * machine are not counted. Zero on PGlite, whose work is in the shop's process.
 */
export function postgresCpuMs(postmaster: number | null): number {
  if (postmaster === null) return 0;
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      if (parent === postmaster) total += cpuMs(Number(entry));
      // The postmaster's own time and that of the children it has reaped (parallel workers that ended).
      if (Number(entry) === postmaster) total += cpuMs(Number(entry), true);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return total;
}

/** The PostgreSQL server's postmaster: the first line of postmaster.pid in its data directory (the bench runs as its owner or root). */
export async function postmasterPid(db: Database): Promise<number> {
  const shown = (await db.execute(sql`show data_directory`)) as unknown as { rows: { data_directory: string }[] };
  return Number(readFileSync(path.join(shown.rows[0]!.data_directory, "postmaster.pid"), "utf8").split("\n")[0]);
}
