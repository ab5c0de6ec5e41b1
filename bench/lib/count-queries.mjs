// Preloaded into the shop's server by bench/page-cost.mjs (`node --import`): counts the SQL
// statements the server sends (PGlite or node-postgres, transactions' BEGIN/COMMIT included) and
// answers the parent's IPC messages with those counts and the process's own CPU time, so a fixed
// number of requests can be charged their statements and CPU whatever else the machine is doing.
// "profile-start"/"profile-stop" take a V8 CPU profile of exactly the measured window.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

let statements = 0;
/** @type {Map<string, number>} */
let byText = new Map();
const note = (text) => {
  statements += 1;
  const key = String(text ?? "")
    .replace(/\s+/g, " ")
    .slice(0, 140);
  byText.set(key, (byText.get(key) ?? 0) + 1);
};

// The server's own copy of each driver: resolved from the project root it runs in.
const require = createRequire(path.join(process.cwd(), "package.json"));
try {
  // The ESM entry, the one the server build imports (require.resolve would give the CommonJS copy).
  const commonJs = require.resolve("@electric-sql/pglite");
  const { PGlite } = await import(pathToFileURL(commonJs.replace(/index\.cjs$/, "index.js")).href);
  for (const method of ["query", "exec"]) {
    const original = PGlite.prototype[method];
    PGlite.prototype[method] = function (text, ...rest) {
      note(text);
      return original.call(this, text, ...rest);
    };
  }
  const transaction = PGlite.prototype.transaction;
  PGlite.prototype.transaction = function (callback) {
    note("BEGIN … COMMIT");
    return transaction.call(this, (tx) => {
      for (const method of ["query", "exec"]) {
        const original = tx[method].bind(tx);
        tx[method] = (text, ...rest) => (note(text), original(text, ...rest));
      }
      return callback(tx);
    });
  };
} catch {
  // No PGlite installed: a PostgreSQL-only checkout.
}
try {
  /** @type {any} Patched loosely: node-postgres' overloads do not survive a wrapper's types. */
  const client = require("pg").Client.prototype;
  const query = client.query;
  client.query = function (/** @type {any} */ config, /** @type {any[]} */ ...rest) {
    note(typeof config === "string" ? config : config?.text);
    return query.call(this, config, ...rest);
  };
} catch {
  // No node-postgres.
}

/** @type {Session | null} */
let session = null;
process.on("message", (message) => void answer(message));

async function answer(message) {
  if (!message || typeof message !== "object" || !("type" in message)) return;
  if (message.type === "snapshot") {
    const cpu = process.cpuUsage();
    process.send?.({ type: "snapshot", statements, cpuMicros: cpu.user + cpu.system, byText: Object.fromEntries(byText) });
    if (message.reset) byText = new Map();
  } else if (message.type === "profile-start") {
    session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
    process.send?.({ type: "profile-started" });
  } else if (message.type === "profile-stop" && session) {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(String(message.file), JSON.stringify(profile));
    session.disconnect();
    session = null;
    process.send?.({ type: "profile-stopped" });
  }
}
