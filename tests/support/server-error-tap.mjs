// Preloaded (`node --import`) into a shop server the tests start: besides printing them as usual,
// every console.error, every error line of the structured log, and every uncaught exception is appended to the file named by
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
  // Once the server routes console.* through its structured logger (issue 27), errors are JSON
  // lines on stdout with level "error" or "fatal": those are recorded, by their message.
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    for (const line of text.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const entry = JSON.parse(line);
        if (entry.level === "error" || entry.level === "fatal") record(entry.msg ?? line);
      } catch {
        // Not one of the logger's lines.
      }
    }
    return write(chunk, ...rest);
  };
}
