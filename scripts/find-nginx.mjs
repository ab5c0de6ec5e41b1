// Finds nginx for the two-process reliability tests (CI's PostgreSQL pass), which run the nginx
// configuration docs/operations.md shows, so `npm test` can say in one line what to install.
import { spawnSync } from "node:child_process";
import { connect } from "node:net";

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

/**
 * Waits until the nginx just spawned as `child` listens on `port` (10 s at most); fails with
 * `describe()` (its output, its configuration) when it exits or never listens.
 * @param {number} port
 * @param {import("node:child_process").ChildProcess} child
 * @param {() => string} describe
 * @returns {Promise<void>}
 */
export async function waitForNginx(port, child, describe) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${describe()}`);
    const open = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`nginx did not listen on ${port} within 10 s:\n${describe()}`);
}

/**
 * A whole nginx.conf for a throwaway nginx in the folder `prefix` (its pid, logs and temporary files
 * there, in the foreground, one worker) around the `http` block's lines.
 * @param {string} prefix
 * @param {string[]} http
 * @returns {string}
 */
export function throwawayNginxConfig(prefix, http) {
  return [
    // Run as root (CI's user), nginx's workers would drop to `nobody`, who cannot use this folder.
    ...(process.getuid?.() === 0 ? ["user root;"] : []),
    "daemon off;",
    "worker_processes 1;",
    `pid ${prefix}/nginx.pid;`,
    `error_log ${prefix}/error.log warn;`,
    "events { worker_connections 256; }",
    "http {",
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `    ${kind}_temp_path ${prefix}/${kind};`),
    ...http,
    "}",
    "",
  ].join("\n");
}
