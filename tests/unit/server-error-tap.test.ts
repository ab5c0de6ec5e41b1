import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serverErrorLogEnd, serverErrorsSince } from "../support/server-errors";

const tap = pathToFileURL(path.resolve("tests/support/server-error-tap.mjs")).href;

describe("the error log of a shop server the tests start", () => {
  let dir: string;
  let log: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "server-errors-"));
    log = path.join(dir, "errors.jsonl");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const runWithTap = (script: string) =>
    spawnSync(process.execPath, ["--import", tap, "--input-type=module", "-e", script], { env: { ...process.env, SHOP_ERROR_LOG: log }, encoding: "utf8" });

  it("records each console.error and an uncaught exception, and still prints them", () => {
    const run = runWithTap(
      `console.error("Checkout failed %d", 42, new Error("boom")); console.warn("a warning is not an error"); console.log("nor is a log"); throw new Error("crash");`,
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("Checkout failed 42");
    const { errors } = serverErrorsSince(log, 0);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^Checkout failed 42 Error: boom\n/);
    expect(errors[1]).toMatch(/^uncaught exception: Error: crash\n/);
  });

  it("records the error lines of the structured log (issue 27) by their message, and no other level", () => {
    const line = (level: string, msg: string) => JSON.stringify({ level, time: "t", pid: 1, msg });
    runWithTap(
      `process.stdout.write(${JSON.stringify(`${line("info", "a request")}
${line("error", "Job failed")}
`)}); process.stdout.write(Buffer.from(${JSON.stringify(`${line("fatal", "gone")}
plain text
`)}));`,
    );
    expect(serverErrorsSince(log, 0).errors).toEqual(["Job failed", "gone"]);
  });

  it("reads only what was logged after an offset, and never half a line", () => {
    runWithTap(`console.error("first")`);
    const offset = serverErrorLogEnd(log);
    runWithTap(`console.error("second\\nline two")`);
    appendFileSync(log, '"still being writ');
    const { errors, end } = serverErrorsSince(log, offset);
    expect(errors).toEqual(["second\nline two"]);
    appendFileSync(log, 'ten"\n');
    expect(serverErrorsSince(log, end).errors).toEqual(["still being written"]);
  });

  it("records nothing without SHOP_ERROR_LOG, and reads an absent log as empty", () => {
    const run = spawnSync(process.execPath, ["--import", tap, "-e", `console.error("x")`], { env: { ...process.env, SHOP_ERROR_LOG: "" } });
    expect(run.status).toBe(0);
    expect(serverErrorLogEnd(log)).toBe(0);
    expect(serverErrorsSince(log, 0)).toEqual({ errors: [], end: 0 });
  });
});
