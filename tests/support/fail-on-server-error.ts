/**
 * A browser test fails when its worker's shared shop server logged an error while it ran (issue 13), as a
 * test already fails on a console error in the page. An error a test causes on purpose is declared
 * with `expectServerError(/pattern/)`. Errors logged between a file's tests (its beforeAll, a job's
 * pass, the tail of the previous test) count against the next test, and those after its last test
 * against the file itself.
 */
import { afterAll, afterEach, beforeEach, expect } from "vitest";
import { serverErrorLogEnd, serverErrorsSince } from "./server-errors";
import { sharedShop } from "./shared-shop";

const file = sharedShop().errorLog;
let offset = serverErrorLogEnd(file);
let expected: RegExp[] = [];

export function expectServerError(pattern: RegExp) {
  expected.push(pattern);
}

function unexpectedErrors(): string[] {
  const { errors, end } = serverErrorsSince(file, offset);
  offset = end;
  return errors.filter((error) => !expected.some((pattern) => pattern.test(error)));
}

beforeEach(() => {
  expected = [];
});

afterEach(() => {
  expect(unexpectedErrors(), "errors the shop server logged during this test").toEqual([]);
});

afterAll(() => {
  expected = [];
  expect(unexpectedErrors(), "errors the shop server logged after this file's last test").toEqual([]);
});
