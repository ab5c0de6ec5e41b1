import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "./env";

let cached: string | undefined;

/**
 * The key that signs cookies and receipt links. Production sets SESSION_SECRET; a newcomer's
 * machine gets a random one created once in .data/ so `npm start` needs no setup and links keep
 * working across restarts.
 */
export function appSecret(): string {
  if (cached) return cached;
  const configured = env().SESSION_SECRET;
  if (configured) return (cached = configured);
  const file = path.resolve(process.cwd(), ".data/app-secret");
  if (existsSync(file)) return (cached = readFileSync(file, "utf8").trim());
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return (cached = secret);
}
