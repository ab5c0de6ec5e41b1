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

// The delivery slot's row lock (decision 0037): every checkout for one date and window takes it in
// turn, so the time each transaction holds it bounds the orders per second. Per connection: from
// the answer to the slot's `FOR UPDATE` to the answer to its COMMIT (or ROLLBACK), and the
// statements sent meanwhile, the lock's own and the COMMIT included. Since decision 0102 a
// statement that inserts a delivery locks its slot too (the counting trigger, at the statement's
// end): the hold is timed from the first of the two answers, that statement not counted as held.
const SLOT_LOCK = /"delivery_slots".*\bfor update\b/is;
const SLOT_LOCKED_BY_TRIGGER = /\binsert into "deliveries"/i;
const TRANSACTION_END = /^\s*(commit|rollback)\b/i;
const slot = /** @type {{ holds: number, statementsHeld: number, holdMs: number[] }} */ ({ holds: 0, statementsHeld: 0, holdMs: [] });
/** @type {WeakMap<object, { since: number | null, statements: number }>} */
const holders = new WeakMap();
/** Notes `text` sent on `connection`; returns what to do once its answer arrives. */
function track(connection, text) {
  const source = String(text ?? "");
  let state = holders.get(connection);
  if (!state) holders.set(connection, (state = { since: null, statements: 0 }));
  const held = state.since !== null;
  if (held) state.statements += 1;
  if (SLOT_LOCK.test(source) && !held) {
    return () => {
      state.since = performance.now();
      state.statements = 1;
    };
  }
  if (SLOT_LOCKED_BY_TRIGGER.test(source) && !held) {
    return () => {
      state.since = performance.now();
      state.statements = 0;
    };
  }
  if (held && TRANSACTION_END.test(source)) {
    return () => {
      slot.holds += 1;
      slot.statementsHeld += state.statements;
      if (slot.holdMs.length < 100_000) slot.holdMs.push(performance.now() - /** @type {number} */ (state.since));
      state.since = null;
      state.statements = 0;
    };
  }
  return null;
}
/** Runs `after` once `result` (a promise, or anything else) has settled. */
function whenAnswered(result, after) {
  if (!after) return result;
  if (result && typeof result.then === "function") result.then(after, after);
  else after();
  return result;
}

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
        tx[method] = (text, ...rest) => {
          note(text);
          const after = track(tx, text);
          return whenAnswered(original(text, ...rest), after);
        };
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
    const text = typeof config === "string" ? config : config?.text;
    note(text);
    // With a callback node-postgres returns nothing: count the statement, skip the lock timing.
    const callback = rest.some((arg) => typeof arg === "function");
    const after = callback ? null : track(this, text);
    return whenAnswered(query.call(this, config, ...rest), after);
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
    process.send?.({ type: "snapshot", statements, cpuMicros: cpu.user + cpu.system, byText: Object.fromEntries(byText), slot });
    if (message.reset) {
      byText = new Map();
      slot.holds = 0;
      slot.statementsHeld = 0;
      slot.holdMs = [];
    }
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
