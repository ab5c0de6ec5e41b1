// `compare.mjs --via-nginx`: each server measured behind the nginx configuration docs/operations.md
// shows for production (TLS and HTTP/2 in front of the Node processes), with a throwaway self-signed
// certificate, so Lighthouse sees pages served as visitors get them. Node alone speaks HTTP/1.1, where
// Lighthouse's simulated slow 4G charges a round trip for each request beyond six at a time; over
// HTTP/2 requests share one connection (tests/support/nginx.ts runs the same block for the
// two-process tests, without TLS).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { findNginx, NGINX_MISSING, throwawayNginxConfig, waitForNginx } from "../../scripts/find-nginx.mjs";

/** The documented server block, its upstream pointed at `backend`, listening with TLS and HTTP/2 on `port`. */
function frontConfig(shopRoot, backend, port, certificate, key) {
  const operations = readFileSync(path.join(shopRoot, "docs/operations.md"), "utf8");
  const block = /```nginx\n([\s\S]*?)```/.exec(operations.slice(operations.indexOf("## nginx in front")))?.[1];
  if (!block) throw new Error('docs/operations.md has no ```nginx block under "## nginx in front"');
  /** @type {[RegExp, string][]} */
  const replacements = [
    [/^([ \t]*)server 10\.0\.0\.11:3000([^;\n]*);\n[ \t]*server 10\.0\.0\.12:3000[^;\n]*;\n/m, `$1server ${new URL(backend).host}$2;\n`],
    // Debian 12's nginx (1.22) names HTTP/2 on the listen line; `http2 on;` came with 1.25.
    [/^([ \t]*)listen 443 ssl;\n[ \t]*http2 on;\n/m, `$1listen 127.0.0.1:${port} ssl http2;\n`],
    [/^([ \t]*)ssl_certificate\s[^\n]*\n[ \t]*ssl_certificate_key\s[^\n]*\n/m, `$1ssl_certificate ${certificate};\n$1ssl_certificate_key ${key};\n`],
    // The port-80 redirect to https: nothing to measure.
    [/\nserver \{\n[ \t]*listen 80;[\s\S]*?\n\}\n?$/, "\n"],
  ];
  return replacements.reduce((config, [pattern, replacement]) => {
    if (!pattern.test(config)) throw new Error(`docs/operations.md's nginx example no longer matches ${pattern}: update bench/lib/nginx-front.mjs`);
    return config.replace(pattern, replacement);
  }, block);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** nginx with TLS and HTTP/2 in front of `backend`; answers its https origin and how to stop it. */
export async function startNginxFront(shopRoot, backend) {
  const binary = findNginx();
  if (!binary) throw new Error(NGINX_MISSING);
  const prefix = mkdtempSync(path.join(os.tmpdir(), "bench-nginx-"));
  const certificate = path.join(prefix, "cert.pem");
  const key = path.join(prefix, "key.pem");
  const made = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-keyout",
      key,
      "-out",
      certificate,
    ],
    { stdio: "ignore" },
  );
  if (made.status !== 0) throw new Error("openssl could not make the bench's self-signed certificate");
  const port = await freePort();
  const conf = throwawayNginxConfig(prefix, ["    access_log off;", frontConfig(shopRoot, backend, port, certificate, key)]);
  const confFile = path.join(prefix, "nginx.conf");
  writeFileSync(confFile, conf);
  const child = spawn(binary, ["-p", prefix, "-c", confFile, "-e", path.join(prefix, "error.log")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await waitForNginx(port, child, () => `${output}\n${conf}`);
  return {
    origin: `https://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGQUIT");
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
