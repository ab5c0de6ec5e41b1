// The production server (scripts/serve.mjs on build/) started on a database a bench prepared
// itself (bench/lib/fresh-database.ts: DATABASE_URL or PGLITE_DATA_DIR in `env`), and the sign-in
// those benches use. bench/lib/server.mjs starts the shop on an empty database of its own instead.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, HOST } from "./server.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Starts the shop of `root` (this checkout by default) and resolves once it answers. Jobs run
 * hourly unless `env` says otherwise, so they do not run during the measurement.
 */
export async function startShopOn(env: Record<string, string>, root = ROOT) {
  const port: number = await freePort();
  const origin = `http://${HOST}:${port}`;
  const child = spawn(process.execPath, [path.join(root, "scripts/serve.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST,
      NODE_ENV: "production",
      SITE_URL: origin,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      SEED_DEMO_DATA: "true",
      ALLOW_SANDBOX_PAYMENTS: "true",
      JOBS_INTERVAL_SECONDS: "3600",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: string[] = [];
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => logs.push(chunk.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The shop exited during start-up:\n${logs.join("")}`);
    if (Date.now() > deadline) throw new Error(`The shop did not answer within 90 s:\n${logs.join("")}`);
    const ok = await fetch(`${origin}/robots.txt`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await sleep(250);
  }
  return {
    origin,
    logs,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000).then(() => child.kill("SIGKILL"))]);
    },
  };
}

/** Signs in through /login as the browser posts it; the session cookie header. */
export async function signIn(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/login`, {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }),
    redirect: "manual",
  });
  if (response.status !== 302) throw new Error(`Sign-in of ${email} failed with ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
}
