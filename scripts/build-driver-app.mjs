// Issue 26, decision 0079: the driver app's service worker, built after `react-router build` has
// finished writing build/client (vite-plugin-pwa builds its list before React Router 7 is done, a
// trap its tracker reports). The list is what /admin/reparto loads first: React Router's entry,
// the root, the staff layout and the route with their imports and styles, read from the client
// manifest React Router wrote; plus the shop's stylesheet and font, the app manifest and icons.
// workbox-build puts that list, with a revision per file, in place of self.__WB_MANIFEST.
// Run by `npm run build` and by buildIfStale.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { injectManifest } from "workbox-build";

const root = path.resolve(import.meta.dirname, "..");
const clientDir = path.join(root, "build/client");
export const SERVICE_WORKER_FILE = "reparto-sw.js";
const ROUTE_IDS = ["root", "routes/admin/layout", "routes/admin/reparto/reparto"];

/** The client manifest React Router wrote (window.__reactRouterManifest = …), evaluated on its own. */
function clientManifest() {
  const file = readdirSync(path.join(clientDir, "assets")).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("No React Router client manifest in build/client/assets: run react-router build first");
  const sandbox = { window: {} };
  vm.runInNewContext(readFileSync(path.join(clientDir, "assets", file), "utf8"), sandbox);
  return { manifest: sandbox.window.__reactRouterManifest, file: `assets/${file}` };
}

export function driverAppFiles() {
  const { manifest } = clientManifest();
  const urls = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of ROUTE_IDS) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`Route ${id} is missing from the client manifest`);
    for (const url of [route.module, ...(route.imports ?? []), ...(route.css ?? [])]) urls.add(url);
  }
  const assets = readdirSync(path.join(clientDir, "assets"));
  // The stylesheet, not the web font: the driver app draws in the phone's own font (decision 0086).
  const shared = assets.filter((name) => /^app-[\w-]+\.css$/.test(name));
  if (shared.length !== 1) throw new Error(`Expected the shop's stylesheet in build/client/assets, found ${shared.join(", ") || "none"}`);
  const icons = readdirSync(path.join(clientDir, "icons")).filter((name) => name.startsWith("reparto-"));
  return [
    ...[...urls].map((url) => url.replace(/^\//, "")),
    ...shared.map((name) => `assets/${name}`),
    ...icons.map((name) => `icons/${name}`),
    "reparto.webmanifest",
    "favicon.svg",
  ];
}

export async function buildDriverApp() {
  const files = driverAppFiles();
  const { count, size, warnings } = await injectManifest({
    swSrc: path.join(root, "scripts/driver-app/service-worker.js"),
    swDest: path.join(clientDir, SERVICE_WORKER_FILE),
    globDirectory: clientDir,
    globPatterns: files,
    // Fingerprinted files carry their version in the name.
    dontCacheBustURLsMatching: /^assets\//,
    maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
  });
  for (const warning of warnings) console.warn(warning);
  if (count !== files.length) throw new Error(`The driver app's list has ${count} files of ${files.length}: some are missing from build/client`);
  console.log(`Driver app: ${SERVICE_WORKER_FILE} keeps ${count} files (${(size / 1024).toFixed(1)} KiB)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await buildDriverApp();
