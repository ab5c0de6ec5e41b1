/**
 * A PostgreSQL server of the test's own (as scripts/with-throwaway-postgres.sh makes one), so a
 * test can stop and start it under a running shop. The server refuses to run as root: when we are
 * root it runs as the postgres user (stack notes).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./shop-server";

const run = promisify(execFile);

export interface ThrowawayPostgres {
  /** postgresql://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** Stops the server; `immediate` is a crash (no checkpoint), `fast` a clean stop that ends open sessions. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  /** Stops the server for good and removes its files. */
  destroy(): Promise<void>;
}

function binDirectory(): string {
  const candidates = [
    ...(process.env.PATH ?? "").split(":"),
    ...(existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").map((version) => `/usr/lib/postgresql/${version}/bin`) : []),
  ];
  const found = candidates.find((dir) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl")));
  if (!found) throw new Error("PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install -y postgresql");
  return found;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = binDirectory();
  const dir = await mkdtemp(path.join(tmpdir(), "shop-rel-pg-"));
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    await chown(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const pgCommand = (tool: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  await pgCommand("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "--encoding=UTF8", "--locale=C.UTF-8"]);
  const start = async () => {
    await pgCommand("pg_ctl", [
      "-D",
      dataDir,
      "-l",
      path.join(dir, "server.log"),
      "-w",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      "start",
    ]);
  };
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    await pgCommand("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "stop"]);
  };
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      await stop("immediate").catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
