#!/usr/bin/env node
// Issue 24, defect 4: what an anonymous 8 MiB form post to /contact costs the server. Starts the
// production build as `npm start` does (same V8 flags, a fresh embedded database with the demo
// data), warms /contact, then sends the post twice — once with a Content-Length, once chunked
// (no length, read as it arrives) — and samples the server's resident memory (/proc/<pid>/status,
// every 20 ms) before, during and after each. Prints the status, the time to the answer and the
// RSS growth; `--record` writes the table into bench/RESULTS.md.
//
//   node bench/body-limit.mjs [--mib=8] [--shop-root=…] [--label=after] [--record]
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseFlags } from "./lib/flags.mjs";
import { ensureBuild, spawnShop } from "./lib/server.mjs";

const benchDir = import.meta.dirname;
const args = parseFlags();
const shopRoot = path.resolve(String(args["shop-root"] ?? path.join(benchDir, "..")));
const label = String(args.label ?? "after");
const mib = Number(args.mib ?? 8);
const MB = 1024 * 1024;

ensureBuild(shopRoot, { skip: args["no-build"] === true });

const shop = await spawnShop({
  root: shopRoot,
  command: process.execPath,
  args: ["--max-semi-space-size=2", "--max-old-space-size=192", "--wasm-lazy-compilation", "scripts/start.mjs"],
  dataDirPrefix: path.join(os.tmpdir(), "body-limit-"),
  // One client address posting on purpose: the contact form's 5 an hour must not answer first.
  env: { CLIENT_RATE_LIMIT_FACTOR: "1000" },
});

function rssBytes() {
  const status = readFileSync(`/proc/${shop.child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** The form a browser would send, with a message of `bytes` bytes (mostly one repeated letter, URL-encoded as itself). */
function contactBody(bytes) {
  const head = new URLSearchParams({ name: "Ana Torres", email: "ana@prueba.pe", subject: "Consulta", submissionId: crypto.randomUUID() }).toString();
  return Buffer.concat([Buffer.from(`${head}&message=`), Buffer.alloc(bytes, "a")]);
}

/** Posts `body` (with a Content-Length, or chunked in 64 KiB pieces) and resolves with the status and the time to the answer's end. */
function post(body, { chunked }) {
  const url = new URL("/contact", shop.origin);
  return new Promise((resolve) => {
    const started = performance.now();
    const headers = { "Content-Type": "application/x-www-form-urlencoded", Origin: shop.origin };
    if (!chunked) headers["Content-Length"] = String(body.length);
    const request = http.request(url, { method: "POST", headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode, ms: performance.now() - started }));
    });
    // The server may answer and close before the whole body is sent: that is the point.
    request.on("error", (/** @type {NodeJS.ErrnoException} */ error) =>
      resolve({ status: `connection closed (${error.code})`, ms: performance.now() - started }),
    );
    if (chunked) {
      let offset = 0;
      const pump = () => {
        while (offset < body.length) {
          const piece = body.subarray(offset, offset + 64 * 1024);
          offset += piece.length;
          if (!request.write(piece)) return void request.once("drain", pump);
        }
        request.end();
      };
      pump();
    } else request.end(body);
  });
}

async function measure(kind) {
  // Let the previous request's garbage settle before reading the baseline.
  await sleep(1500);
  const before = rssBytes();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes())), 20);
  const answer = await post(contactBody(mib * MB), { chunked: kind === "chunked" });
  await sleep(1000);
  clearInterval(sampler);
  const after = rssBytes();
  return { kind, ...answer, before, peak: Math.max(peak, after), after };
}

try {
  await shop.ready({ path: "/contact" });
  for (let i = 0; i < 20; i++) await (await fetch(`${shop.origin}/contact`)).arrayBuffer();
  // A normal message first, so the action's code is loaded and warm in both builds.
  const small = await post(contactBody(500), { chunked: false });
  if (small.status !== 302 && small.status !== 200) throw new Error(`A normal contact post answered ${small.status}`);
  const rows = [await measure("content-length"), await measure("chunked")];
  const table = [
    `| ${label} | body | answer | time | RSS before | RSS peak | growth at peak | RSS 1 s after |`,
    "|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (row) =>
        `| ${label} | ${mib} MiB, ${row.kind} | ${row.status} | ${(row.ms / 1000).toFixed(2)} s | ${(row.before / MB).toFixed(0)} MB | ${(row.peak / MB).toFixed(0)} MB | +${((row.peak - row.before) / MB).toFixed(0)} MB | ${(row.after / MB).toFixed(0)} MB |`,
    ),
  ].join("\n");
  console.log(table);
  if (args.record === true) {
    const results = path.join(benchDir, "RESULTS.md");
    const heading = "## Request bodies: an anonymous 8 MiB post to /contact (`bench/body-limit.mjs`)";
    const current = readFileSync(results, "utf8");
    const entry = `\n${table}\n\n(${new Date().toISOString()}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")})\n`;
    const next = current.includes(heading) ? current.replace(heading, `${heading}\n${entry}`) : `${current.trimEnd()}\n\n${heading}\n${entry}`;
    writeFileSync(results, next);
  }
} finally {
  await shop.stop();
}
