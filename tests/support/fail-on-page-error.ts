/**
 * Issue 28: every browser test fails on an uncaught exception or a console error in any page it
 * opened (through `openPage` or `useBrowser().open`), as it fails on an error of the shop server
 * (fail-on-server-error.ts), without each test having to ask. An error a test causes on purpose is
 * named with `expectPageError(/pattern/)` from tests/support/browser.ts. Errors on a page opened in
 * a file's `beforeAll` count against the test that was running, and those after the last test
 * against the file itself.
 */
import { afterAll, afterEach, expect } from "vitest";
import { uncheckedPageErrors } from "./browser";

afterEach(() => {
  expect(uncheckedPageErrors(), "errors in the pages this test opened").toEqual([]);
});

afterAll(() => {
  expect(uncheckedPageErrors(), "errors in the pages after this file's last test").toEqual([]);
});
