import { createRequire } from "node:module";
import { format } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import { env } from "../config/env";
import { redactDatabaseErrors } from "../db/safe-error-log";

/**
 * The process's one logger (issue 27, decision 0081): pino, one JSON object a line on stdout in
 * production (time, level, msg and the fields the caller gives), pretty lines for a person with
 * LOG_FORMAT=pretty (the local `npm start`). Stdout is synchronous for files and pipes on Linux,
 * so a line is written before the process exits and nothing is lost to a worker thread.
 */
let logger: Logger | undefined;

export function shopLogger(): Logger {
  if (logger) return logger;
  const config = env();
  logger = pino(
    {
      level: config.LOG_LEVEL,
      // The level's name, not its number: what a person and every log shipper read without a table.
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
      base: { pid: process.pid },
    },
    config.LOG_FORMAT === "pretty" ? prettyStream() : process.stdout,
  );
  return logger;
}

/**
 * pino-pretty, loaded only when asked for (it is not needed, nor loaded, by a JSON-logging
 * server), in this thread: no worker, so `npm start` stays as small as before (decision 0047).
 */
function prettyStream(): DestinationStream {
  try {
    const pretty = createRequire(import.meta.url)("pino-pretty") as (options: Record<string, unknown>) => DestinationStream;
    return pretty({ sync: true, colorize: process.stdout.isTTY, translateTime: "SYS:HH:MM:ss", ignore: "pid" });
  } catch {
    // Installed without it (`npm ci --omit=dev` keeps it, but a trimmed image may not): JSON is still a log.
    return process.stdout;
  }
}

let bridged = false;

/**
 * Everything the shop logs with console.* (routes, domains, jobs, React Router itself) goes
 * through the logger, at the matching level. Database errors keep their redaction (issue 9:
 * SQLSTATE and statement, never values): this bridge redacts as installSafeErrorLogging does.
 */
export function routeConsoleToLogger(): void {
  if (bridged) return;
  bridged = true;
  const log = shopLogger();
  const line = (args: unknown[]) => format(...redactDatabaseErrors(args));
  console.log = (...args: unknown[]) => log.info(line(args));
  console.info = console.log;
  console.debug = (...args: unknown[]) => log.debug(line(args));
  console.warn = (...args: unknown[]) => log.warn(line(args));
  console.error = (...args: unknown[]) => log.error(line(args));
}
