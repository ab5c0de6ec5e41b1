// Finds nginx for the two-process reliability tests (CI's PostgreSQL pass), which run the nginx
// configuration docs/operations.md shows, so `npm test` can say in one line what to install.
import { spawnSync } from "node:child_process";

export const NGINX_MISSING =
  "nginx not found: the two-process tests (PostgreSQL pass) run the nginx configuration of docs/operations.md; install it with `sudo apt-get install nginx-light` (Debian).";

/**
 * nginx on PATH, else Debian's /usr/sbin/nginx (not on a normal user's PATH); undefined when there is none.
 * @returns {string | undefined}
 */
export function findNginx() {
  for (const candidate of ["nginx", "/usr/sbin/nginx"]) {
    if (spawnSync(candidate, ["-v"], { stdio: "ignore" }).status === 0) return candidate;
  }
  return undefined;
}
