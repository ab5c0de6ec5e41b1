/**
 * A real nginx running the configuration docs/operations.md shows ("nginx in front"), for the
 * two-process reliability test (issue 27): what an operator copies is what the test runs. Only
 * what a test machine cannot have is changed — the upstream addresses, plain HTTP on a free
 * local port instead of TLS on 443, no port-80 redirect — and each change fails loudly when the
 * document no longer has the line it replaces. Around it: the `events`/`http` frame nginx needs,
 * paths of the test's own, and an access log naming the upstream that answered each request.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { findNginx, NGINX_MISSING, throwawayNginxConfig, waitForNginx } from "../../scripts/find-nginx.mjs";

/** The ```nginx block of docs/operations.md's "nginx in front" section. */
export async function documentedNginxConfig(root = process.cwd()): Promise<string> {
  const operations = await readFile(path.join(root, "docs/operations.md"), "utf8");
  const section = operations.slice(operations.indexOf("## nginx in front"));
  const block = /```nginx\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/operations.md has no ```nginx block under "## nginx in front"');
  return block[1]!;
}

/** Replaces `pattern` in `text`, and says so when the document no longer has it. */
function replaceDocumented(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`docs/operations.md's nginx example no longer matches ${pattern}: update tests/support/nginx.ts with it`);
  return text.replace(pattern, replacement);
}

/** The documented configuration pointed at these backends, listening on plain HTTP at `port`. */
export function testNginxConfig(documented: string, backends: string[], port: number): string {
  // The two documented upstream lines become the test's processes, with the documented options
  // (max_fails, fail_timeout) kept.
  const upstreams = /^[ \t]*server 10\.0\.0\.11:3000( [^;\n]*);\n[ \t]*server 10\.0\.0\.12:3000[^;\n]*;\n/m;
  const options = upstreams.exec(documented)?.[1] ?? "";
  let config = replaceDocumented(documented, upstreams, backends.map((backend) => `    server ${new URL(backend).host}${options};\n`).join(""));
  config = replaceDocumented(config, /^[ \t]*listen 443 ssl;\n/m, `    listen 127.0.0.1:${port};\n`);
  config = replaceDocumented(config, /^[ \t]*http2 on;\n/m, "");
  config = replaceDocumented(config, /^[ \t]*ssl_certificate\s[^\n]*\n[ \t]*ssl_certificate_key\s[^\n]*\n/m, "");
  // The second server block is the port-80 redirect to https: nothing to test without TLS.
  config = replaceDocumented(config, /\nserver \{\n[ \t]*listen 80;[\s\S]*?\n\}\n?$/, "\n");
  return config;
}

export interface Nginx {
  baseURL: string;
  /** Which backend (index into the backends given) answered each request so far, in order. */
  served(): Promise<number[]>;
  close(): Promise<void>;
}

export async function startNginx({ backends, port }: { backends: string[]; port: number }): Promise<Nginx> {
  const binary = findNginx();
  if (!binary) throw new Error(NGINX_MISSING);
  const prefix = await mkdtemp(path.join(tmpdir(), "shop-nginx-"));
  const accessLog = path.join(prefix, "access.log");
  const site = testNginxConfig(await documentedNginxConfig(), backends, port);
  const conf = throwawayNginxConfig(prefix, ["    log_format upstreams '$upstream_addr';", `    access_log ${accessLog} upstreams;`, site]);
  const confFile = path.join(prefix, "nginx.conf");
  await writeFile(confFile, conf);
  const child: ChildProcess = spawn(binary, ["-p", prefix, "-c", confFile, "-e", path.join(prefix, "error.log")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitForNginx(port, child, () => output + "\n" + conf);
  const hosts = backends.map((backend) => new URL(backend).host);
  return {
    baseURL: `http://127.0.0.1:${port}`,
    async served() {
      const lines = (await readFile(accessLog, "utf8").catch(() => "")).split("\n").filter(Boolean);
      // A request nginx retried on the next upstream logs "a:1, b:2": the one that answered is the last.
      return lines.map((line) => hosts.indexOf(line.split(", ").at(-1)!.trim()));
    },
    async close() {
      child.kill("SIGQUIT");
      await exited;
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
