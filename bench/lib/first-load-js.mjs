// First-load JavaScript: what a visitor's browser downloads before the page is interactive.
//
// We measure it in a real browser rather than by reading the build manifest, because the set of
// modules a page pulls in (entry, route chunks, shared chunks, modulepreloads) is decided at run
// time by React Router and the browser, and that is the set a visitor pays for.
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { CHROME_FLAGS } from "./lighthouse.mjs";

const isJavaScript = (url, contentType) => /\.m?js(\?|$)/.test(new URL(url).pathname) || /javascript|ecmascript/.test(contentType ?? "");

/**
 * Loads each URL in a fresh browser context (empty cache) and sums the gzip size of every
 * JavaScript response. We gzip the bodies ourselves (zlib default level, like Vite's size
 * report) so the number does not depend on whether or how the server compressed them.
 *
 * @param {string[]} urls
 * `readyFor` names, per URL, a selector that appears only once the page is hydrated: a storefront
 * page fetches its JavaScript after the splash has painted (decision 0058), which a background tab
 * may put off past the network's first quiet moment.
 *
 * @param {{ chromePath: string, localStorageFor?: (url: string) => Record<string, string> | null, cookieFor?: (url: string) => string | null, readyFor?: (url: string) => string | null }} options
 */
export async function measureFirstLoadJs(urls, { chromePath, localStorageFor = () => null, cookieFor = () => null, readyFor = () => null }) {
  // Playwright adds its own headless flag; passing --headless=new again would be redundant.
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROME_FLAGS.filter((flag) => !flag.startsWith("--headless")) });
  const pages = [];
  try {
    for (const url of urls) {
      const context = await browser.newContext();
      // A signed-in page (the driver app): the session as `name=value; …`, set before the first request.
      const cookie = cookieFor(url);
      if (cookie)
        await context.addCookies(
          cookie.split("; ").map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), url: new URL(url).origin })),
        );
      const stored = localStorageFor(url);
      // Before any script of the page runs, as an earlier visit would have left it.
      if (stored) {
        await context.addInitScript((values) => {
          for (const [key, value] of Object.entries(values)) if (window.localStorage.getItem(key) === null) window.localStorage.setItem(key, value);
        }, stored);
      }
      const page = await context.newPage();
      const pending = [];
      page.on("response", (response) => {
        const contentType = response.headers()["content-type"];
        if (!isJavaScript(response.url(), contentType)) return;
        // Read bodies as they arrive; once the context closes they are gone.
        pending.push(
          response.body().then(
            (body) => ({
              url: response.url(),
              status: response.status(),
              raw: body.length,
              gzip: gzipSync(body).length,
              wireEncoding: response.headers()["content-encoding"] ?? "identity",
            }),
            (error) => ({ url: response.url(), status: response.status(), raw: 0, gzip: 0, error: String(error) }),
          ),
        );
      });
      await page.goto(url, { waitUntil: "load", timeout: 30_000 });
      const ready = readyFor(url);
      if (ready) await page.waitForSelector(ready, { timeout: 30_000 });
      // Hydration can still import route modules after `load`; wait (bounded) until the network is
      // quiet so those count too. A page that never goes quiet still gets measured.
      await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
      const files = (await Promise.all(pending)).sort((a, b) => b.gzip - a.gzip);
      await context.close();
      // A 404 body would count as a few bytes and make the page look lean; refuse instead.
      const broken = files.filter((file) => file.error || file.status !== 200);
      if (broken.length) throw new Error(`JS responses failed on ${url}: ${broken.map((file) => `${file.status} ${file.url}`).join(", ")}`);
      pages.push({
        url,
        files: files.map((file) => ({ ...file, path: new URL(file.url).pathname })),
        count: files.length,
        gzip: files.reduce((sum, file) => sum + file.gzip, 0),
        raw: files.reduce((sum, file) => sum + file.raw, 0),
      });
      console.log(`  ${url}: ${files.length} JS files, ${((pages.at(-1)?.gzip ?? 0) / 1000).toFixed(1)} KB gzip`);
    }
  } finally {
    await browser.close();
  }
  return pages;
}
