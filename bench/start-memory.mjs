#!/usr/bin/env node
// Issue 27: peak resident memory of the whole `npm start` process tree (npm, its shell, node), on a fresh
// embedded database with the demo data, idle and under 25 s of 10 concurrent visitors on public pages.
// Sampled every 100 ms from ps. Decision 0047: must stay under 400 MB.
//
//   node bench/start-memory.mjs [shop-root]
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
const port = 3900 + Math.floor(Math.random() * 90);
const dataDir = mkdtempSync(path.join(tmpdir(), "ops-mem-"));
const child = spawn("npm", ["start"], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
    UPLOADS_DIR: path.join(dataDir, "up"),
    OUTBOX_DIR: path.join(dataDir, "out"),
  },
  stdio: "ignore",
  detached: true,
});
const tree = () => {
  const out = execFileSync("ps", ["-eo", "pid=,ppid=,rss="])
    .toString()
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number));
  const pids = new Set([child.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of out)
      if (pids.has(ppid) && !pids.has(pid)) {
        pids.add(pid);
        grew = true;
      }
  }
  return out.filter(([pid]) => pids.has(pid)).reduce((sum, [, , rss]) => sum + (rss ?? 0), 0) / 1024;
};
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 600; i++) {
  try {
    if ((await fetch(`${base}/robots.txt`)).ok) break;
  } catch {
    /* not listening yet */
  }
  await new Promise((r) => setTimeout(r, 200));
}
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, tree())), 100);
const pages = ["/tienda", "/tienda/producto/agua-alcalina-personal-625ml", "/carrito", "/", "/healthz"];
let running = true;
let count = 0;
const worker = async (n) => {
  while (running) {
    try {
      const r = await fetch(`${base}${pages[(count + n) % pages.length]}`);
      await r.arrayBuffer();
      count++;
    } catch {
      /* counted as not answered */
    }
  }
};
const idle = tree();
const workers = Array.from({ length: 10 }, (_, n) => worker(n));
await new Promise((r) => setTimeout(r, 25_000));
running = false;
await Promise.all(workers);
clearInterval(sampler);
console.log(JSON.stringify({ root, idleMB: Math.round(idle), peakUnderLoadMB: Math.round(peak), requests: count }));
if (child.pid) process.kill(-child.pid, "SIGTERM");
