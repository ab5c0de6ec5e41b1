#!/usr/bin/env node
// Issue 26: how long after the signal returns a confirmation made without signal reaches the
// server (target ≤ 5 s). The production build on a fresh demo database; the demo repartidor's
// phone (360 px, Chromium) opens /admin/reparto, lets the service worker take over, goes offline,
// taps one button, and comes back online: the time from the signal's return to the server's answer
// to the queue (the tap applied), and to the banner leaving the screen (the route reloaded). Once
// with the browser told the signal is back (Chromium's offline mode: the `online` event), and once
// without it (the request itself failing, then getting through: the page's own retries).
//
//   node bench/driver-app-sync.mjs [--rounds=3] [--no-build]
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { parseFlags } from "./lib/flags.mjs";
import { CHROME_FLAGS } from "./lib/lighthouse.mjs";
import { ensureBuild, signInDemoAccount, startServer } from "./lib/server.mjs";

const args = parseFlags();
const root = path.resolve(import.meta.dirname, "..");
const rounds = Number(args.rounds ?? 3);
ensureBuild(root, { skip: args["no-build"] === true });
const server = await startServer({ root, tmpDir: os.tmpdir() });
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: CHROME_FLAGS.filter((flag) => !flag.startsWith("--headless")),
});
/** @type {Record<"online" | "silent", { onServer: number, bannerGone: number }[]>} */
const results = { online: [], silent: [] };
try {
  const cookie = await signInDemoAccount(server.origin, { email: "repartidor@demo.pe", password: "Reparto1234" });
  // The demo route has three stops; each round taps one of them en camino.
  for (let round = 0; round < rounds * 2 && round < 3; round++) {
    const mode = round % 2 === 0 ? "online" : "silent";
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await context.addCookies(
      cookie.split("; ").map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), url: server.origin })),
    );
    const page = await context.newPage();
    await page.goto(`${server.origin}/admin/reparto`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
    let blocked = false;
    if (mode === "online") await context.setOffline(true);
    else {
      // The browser still believes it is online; the network drops the queue's requests.
      blocked = true;
      await context.route("**/admin/reparto/confirmaciones", (route) => (blocked ? route.abort("internetdisconnected") : route.continue()));
    }
    await page.getByRole("button", { name: "Marcar en camino" }).first().click();
    await page.getByTestId("driver-app-banner").getByText("1 por enviar").waitFor();
    const applied = page.waitForResponse((response) => response.url().endsWith("/admin/reparto/confirmaciones") && response.status() === 200, {
      timeout: 60_000,
    });
    const back = Date.now();
    if (mode === "online") await context.setOffline(false);
    else blocked = false;
    await applied;
    const onServer = Date.now() - back;
    await page.getByTestId("driver-app-banner").waitFor({ state: "detached", timeout: 60_000 });
    const bannerGone = Date.now() - back;
    results[mode].push({ onServer, bannerGone });
    console.log(`${mode === "online" ? "online event" : "no online event"}: on the server after ${onServer} ms, banner gone after ${bannerGone} ms`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(JSON.stringify({ loadAverage: os.loadavg().map((value) => value.toFixed(2)), ...results }));
