// Finds the Chromium the browser tests drive, so `npm test` can stop at once with one line saying
// what to install instead of failing every browser test one by one.
import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export const CHROMIUM_MISSING =
  "Chromium not found: run `sudo apt-get install chromium-headless-shell` (Debian) or `npx playwright-core install chromium`, or set CHROMIUM_PATH to a Chromium or Chrome binary.";

// Chromium's headless shell first: the same engine without the full browser's UI machinery, and
// about half the CPU of the full `chromium` per browser test on these 2-core machines (decision 0056).
const NAMES = ["chromium-headless-shell", "chromium", "chromium-browser", "google-chrome-stable", "google-chrome"];

function isExecutableFile(file) {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * CHROMIUM_PATH when set (and then only it: a wrong path is reported, not silently replaced), else
 * Chromium's headless shell on PATH, else the first Chromium or Chrome on PATH, else a Chromium installed through npm (`playwright-core
 * install chromium`). Undefined when there is none.
 * @param {{ env?: Record<string, string | undefined>, npmChromium?: () => string | undefined }} [options]
 * @returns {string | undefined}
 */
export function findChromium({ env = process.env, npmChromium = playwrightChromium } = {}) {
  if (env.CHROMIUM_PATH) return isExecutableFile(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  const dirs = (env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const name of NAMES) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  const installed = npmChromium();
  return installed && isExecutableFile(installed) ? installed : undefined;
}

/** Where `npx playwright-core install chromium` puts its browser (whether or not it is there). */
function playwrightChromium() {
  try {
    return createRequire(import.meta.url)("playwright-core").chromium.executablePath();
  } catch {
    return undefined;
  }
}
