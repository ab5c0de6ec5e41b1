// Starting and stopping the shop's production server for a benchmark run.
//
// We run the real production entry (scripts/serve.mjs on build/) rather than the dev server,
// because dev mode (Vite middleware, unminified modules, no compression) says nothing about
// what visitors get. Each run gets its own empty PGlite directory so that numbers never depend
// on data left behind by an earlier run, tests, or a developer's local shop.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { buildState } from "../../scripts/build-if-stale.mjs";

export const HOST = "127.0.0.1";

/** Asks the kernel for a free loopback port instead of guessing, so we never collide with 3000/3100 or CI. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      if (!address || typeof address === "string") return reject(new Error("no TCP port"));
      probe.close(() => resolve(address.port));
    });
  });
}

// Strings that only React's development bundles contain. A build made with NODE_ENV set to
// something other than production (for example by a test runner, which sets NODE_ENV=test)
// ships development React: several times larger and slower, so measuring it would be meaningless.
const DEVELOPMENT_MARKERS = ["Download the React DevTools", "jsxDEV"];

function isDevelopmentBuild(root) {
  const assets = path.join(root, "build/client/assets");
  if (!existsSync(assets)) return false;
  return readdirSync(assets)
    .filter((name) => name.endsWith(".js"))
    .some((name) => {
      const source = readFileSync(path.join(assets, name), "utf8");
      return DEVELOPMENT_MARKERS.some((marker) => source.includes(marker));
    });
}

/**
 * Asset files the server build refers to (its embedded manifest) that are missing from
 * build/client. Two builds writing build/ at once (say a developer's and a test run's) can leave
 * the server half of one and the client half of the other; pages then load with 404 scripts,
 * which makes Lighthouse look great and every number wrong.
 */
export function missingAssets(root) {
  const entry = path.join(root, "build/server/index.js");
  if (!existsSync(entry)) return [];
  // The client's assets are absolute URLs ("/assets/…"); "./assets/…" is the server build's own
  // chunk (a lazily imported component, such as the map, splits the server build too).
  const referenced = new Set(readFileSync(entry, "utf8").match(/(?<![.\w])\/assets\/[\w.-]+\.(?:js|css)(?=["'])/g) ?? []);
  return [...referenced].filter((asset) => !existsSync(path.join(root, "build/client", asset)));
}

/** Identifies the build on disk, to notice if someone rebuilds while we measure. */
export function buildFingerprint(root) {
  const entry = path.join(root, "build/server/index.js");
  const assets = path.join(root, "build/client/assets");
  if (!existsSync(entry) || !existsSync(assets)) return "missing";
  const { mtimeMs, size } = statSync(entry);
  return `${mtimeMs}:${size}:${readdirSync(assets).sort().join(",")}`;
}

/**
 * Makes sure build/ is a current production build: builds when it is missing, older than the
 * sources, carries development React, or is inconsistent. `npm run build` runs with
 * NODE_ENV=production forced so an inherited NODE_ENV cannot produce a development bundle.
 * With `skip`, an existing build is measured as it is and its state is reported instead
 * (an inconsistent one is still refused: its numbers would be wrong, not just old).
 */
export function ensureBuild(root, { force = false, skip = false } = {}) {
  const entry = path.join(root, "build/server/index.js");
  const state = () => {
    const { builtAt, stale } = buildState();
    return { missing: builtAt === 0, builtAt, stale, development: isDevelopmentBuild(root), missingAssets: missingAssets(root) };
  };
  let current = state();
  const reason = current.missing
    ? "no build/ yet"
    : force
      ? "--rebuild"
      : current.stale
        ? "build/ is older than the sources"
        : current.development
          ? "build/ contains development React"
          : current.missingAssets.length
            ? `build/server refers to ${current.missingAssets.length} missing client assets`
            : null;
  const rebuild = Boolean(reason && (current.missing || !skip));
  if (rebuild) {
    console.log(`Running \`npm run build\` (${reason})…`);
    const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
    if (result.status !== 0) throw new Error("`npm run build` failed");
    current = state();
  }
  if (current.missingAssets.length)
    throw new Error(`build/ is inconsistent (missing ${current.missingAssets.join(", ")}); was it rebuilt concurrently? Re-run, or pass --rebuild.`);
  return { entry, builtAt: new Date(current.builtAt), stale: current.stale, development: current.development, rebuilt: rebuild };
}

/**
 * Spawns a production shop server on a free loopback port with a fresh embedded database (or
 * DATABASE_URL), the demo data and the sandbox payments the benchmarks exercise. `command` and
 * `args` say how it starts (`node scripts/serve.mjs`, `npm start`, node with a preloaded probe);
 * `detached` gives it its own process group, so stopping `npm start` also stops the server under
 * it; `ipc` opens a message channel to it. `ready()` waits until it answers.
 */
export async function spawnShop({ root, command, args, dataDirPrefix, name = "Server", env = {}, detached = false, ipc = false }) {
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const dataDir = mkdtempSync(dataDirPrefix);
  const logs = [];
  const child = spawn(command, args, {
    cwd: root,
    detached,
    // HOST keeps the server on loopback only; by default it listens on all interfaces.
    env: {
      ...process.env,
      PORT: String(port),
      HOST,
      PGLITE_DATA_DIR: dataDir,
      NODE_ENV: "production",
      SITE_URL: origin,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      SEED_DEMO_DATA: "true",
      ALLOW_SANDBOX_PAYMENTS: "true",
      ...env,
    },
    stdio: ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  // Keep the server's output for error reports without interleaving it with our progress lines.
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk) => logs.push(chunk.toString()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const signal = (/** @type {NodeJS.Signals} */ name) => {
    try {
      if (detached && child.pid) process.kill(-child.pid, name);
      else child.kill(name);
    } catch {
      // Already gone.
    }
  };

  async function stop() {
    if (running()) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      signal("SIGTERM");
      // SIGTERM should be enough; the bounded wait plus SIGKILL keeps a hung server from hanging the bench.
      const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
      if (timedOut) {
        signal("SIGKILL");
        await exited;
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }

  /** Resolves once `path` answers 200; a server that exits or is not ready in `timeoutMs` is stopped and reported with its output. */
  async function ready({ path: readyPath = "/", timeoutMs = 60_000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!running()) {
        await stop();
        throw new Error(`${name} exited during start-up (${child.exitCode ?? child.signalCode}):\n${logs.join("")}`);
      }
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${name} not ready after ${timeoutMs} ms:\n${logs.join("")}`);
      }
      // The timeout also aborts reading the body: a first page slower than that on a busy machine
      // is "not ready yet", never an unhandled rejection that ends the bench.
      const ok = await fetch(origin + readyPath, { signal: AbortSignal.timeout(2_000) })
        .then(async (response) => (await response.arrayBuffer(), response.status === 200))
        .catch(() => false);
      if (ok) return;
      await sleep(250);
    }
  }

  return { child, port, origin, logs, ready, stop };
}

/**
 * `npm start` (its V8 flags, scripts/start.mjs) with bench/lib/count-queries.mjs preloaded, on a
 * fresh database: `ask(message, reply)` is one IPC round trip to that counter (statements, CPU
 * time, slot holds, CPU profiles).
 */
export async function spawnCountingShop({ root, dataDirPrefix }) {
  const shop = await spawnShop({
    root,
    command: process.execPath,
    args: [
      "--max-semi-space-size=2",
      "--max-old-space-size=192",
      "--wasm-lazy-compilation",
      "--import",
      path.join(import.meta.dirname, "count-queries.mjs"),
      "scripts/start.mjs",
    ],
    dataDirPrefix,
    ipc: true,
  });
  function ask(message, reply) {
    return new Promise((resolve) => {
      const onMessage = (answer) => {
        if (answer?.type !== reply) return;
        shop.child.off("message", onMessage);
        resolve(answer);
      };
      shop.child.on("message", onMessage);
      shop.child.send(message);
    });
  }
  return { ...shop, ask };
}

/** Starts the production server (scripts/serve.mjs) on a fresh database and resolves once it answers. */
export async function startServer({ root, tmpDir, readyTimeoutMs = 60_000 }) {
  const shop = await spawnShop({ root, command: process.execPath, args: [path.join(root, "scripts/serve.mjs")], dataDirPrefix: path.join(tmpDir, "pglite-") });
  // First start creates, migrates and seeds the database, which takes seconds; robots.txt is cheap
  // and public, so a 200 there means the whole request pipeline is up.
  await shop.ready({ path: "/robots.txt", timeoutMs: readyTimeoutMs });
  return { origin: shop.origin, port: shop.port, pid: shop.child.pid, stop: shop.stop, logs: shop.logs };
}

/** Signs the demo customer in; the session cookie to send with their requests. */
export function signInDemoCustomer(origin) {
  return signInDemoAccount(origin, { email: "cliente@demo.pe", password: "Cliente123" });
}

/** Signs a demo account in (README's list); the session cookie to send with its requests. */
export async function signInDemoAccount(origin, { email, password }) {
  const response = await fetch(`${origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ email, password }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  if (response.status !== 302 || !cookie.includes("session_token")) throw new Error(`sign-in failed (${response.status})`);
  return cookie;
}
