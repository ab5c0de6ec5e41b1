/**
 * An unexpected console.error fails the test (Epic Stack habit): errors the code logs on purpose
 * (the spec's "logged, empty list" cases) are declared with `expectConsoleError`.
 */
import { afterEach, beforeEach, expect, vi } from "vitest";
import { installSafeErrorLogging } from "@server/db/safe-error-log";

// Opening a database installs the shop's redacting console once per process (decision 0027). Done
// here first, so the per-test spy below always wraps it and is never replaced by it mid-test.
installSafeErrorLogging();

let expected: RegExp[] = [];
let unexpected: string[] = [];
const original = console.error;

export function expectConsoleError(pattern: RegExp) {
  expected.push(pattern);
}

beforeEach(() => {
  expected = [];
  unexpected = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    const message = args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(" ");
    if (!expected.some((pattern) => pattern.test(message))) {
      unexpected.push(message);
      original(...args);
    }
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  expect(unexpected, "unexpected console.error calls").toEqual([]);
});
