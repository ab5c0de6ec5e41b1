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
  const referenced = new Set(readFileSync(entry, "utf8").match(/\/assets\/[\w.-]+\.(?:js|css)(?=["'])/g) ?? []);
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

/** Starts the production server on a fresh database and resolves once it answers. */
export async function startServer({ root, tmpDir, readyTimeoutMs = 60_000 }) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpDir, "pglite-"));
  const logs = [];
  const child = spawn(process.execPath, [path.join(root, "scripts/serve.mjs")], {
    cwd: root,
    // HOST keeps the server on loopback only; by default it listens on all interfaces.
    // Production as it is deployed, with the demo data and the sandbox the benchmarks exercise.
    env: {
      ...process.env,
      PORT: String(port),
      HOST,
      PGLITE_DATA_DIR: dataDir,
      NODE_ENV: "production",
      SITE_URL: `http://${HOST}:${port}`,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      SEED_DEMO_DATA: "true",
      ALLOW_SANDBOX_PAYMENTS: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Keep the server's output for error reports without interleaving it with our progress lines.
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => logs.push(chunk.toString()));
  let exited = null;
  child.on("exit", (code, signal) => (exited = { code, signal }));

  const origin = `http://${HOST}:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  let ready = false;
  // First start creates, migrates and seeds the database, which takes seconds; robots.txt is cheap
  // and public, so a 200 there means the whole request pipeline is up.
  while (Date.now() < deadline) {
    if (exited) throw new Error(`Server exited during start-up (${JSON.stringify(exited)}):\n${logs.join("")}`);
    try {
      const response = await fetch(`${origin}/robots.txt`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) {
        ready = true;
        break;
      }
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  if (!ready) {
    child.kill("SIGTERM");
    throw new Error(`Server not ready after ${readyTimeoutMs} ms:\n${logs.join("")}`);
  }

  async function stop() {
    if (!exited) {
      const done = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      // SIGTERM should be enough; the bounded wait plus SIGKILL keeps a hung server from hanging the bench.
      const timedOut = await Promise.race([done.then(() => false), sleep(10_000).then(() => true)]);
      if (timedOut) {
        child.kill("SIGKILL");
        await done;
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }

  return { origin, port, pid: child.pid, stop, logs };
}
