/** Reading what a shop server started with `startShopServer` logged as errors (server-error-tap.mjs). */
import { existsSync, readFileSync, statSync } from "node:fs";

/** Where the log ends now: errors logged from here on are read with `serverErrorsSince`. */
export function serverErrorLogEnd(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** The errors logged after `offset`, and where the log ends after them. */
export function serverErrorsSince(file: string, offset: number): { errors: string[]; end: number } {
  if (!existsSync(file)) return { errors: [], end: 0 };
  const content = readFileSync(file).subarray(offset).toString("utf8");
  // Only whole lines: a line still being written is read the next time.
  const complete = content.slice(0, content.lastIndexOf("\n") + 1);
  return {
    errors: complete
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as string),
    end: offset + Buffer.byteLength(complete),
  };
}
