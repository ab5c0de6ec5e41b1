// Preloaded (`node --import`) into a shop server the tests start: besides printing them as usual,
// every console.error and every uncaught exception is appended to the file named by
// SHOP_ERROR_LOG, one JSON string per line, so the tests can fail on errors the server logged
// while they ran (tests/support/fail-on-server-error.ts). The shop's own code is not changed.
import { appendFileSync } from "node:fs";
import { format } from "node:util";

const file = process.env.SHOP_ERROR_LOG;
if (file) {
  const record = (text) => appendFileSync(file, `${JSON.stringify(text)}\n`);
  const original = console.error.bind(console);
  // The shop later wraps console.error to redact database errors; the wrapper calls this one, so
  // what is recorded is what the log shows.
  console.error = (...args) => {
    original(...args);
    record(format(...args));
  };
  process.on("uncaughtExceptionMonitor", (error) => record(`uncaught exception: ${error?.stack ?? error}`));
}
