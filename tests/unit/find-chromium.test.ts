import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findChromium } from "../../scripts/find-chromium.mjs";

describe("finding the Chromium the browser tests drive", () => {
  let dir: string;
  const noNpmChromium = () => undefined;
  const fakeBinary = (name: string, mode = 0o755) => {
    const file = path.join(dir, name);
    writeFileSync(file, "#!/bin/sh\n");
    chmodSync(file, mode);
    return file;
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "find-chromium-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("finds chromium on PATH", () => {
    const chromium = fakeBinary("chromium");
    expect(findChromium({ env: { PATH: `/nonexistent${path.delimiter}${dir}` }, npmChromium: noNpmChromium })).toBe(chromium);
  });

  it("prefers Chromium's headless shell, wherever it is on PATH", () => {
    fakeBinary("chromium");
    const other = mkdtempSync(path.join(tmpdir(), "find-chromium-shell-"));
    const shell = path.join(other, "chromium-headless-shell");
    writeFileSync(shell, "#!/bin/sh\n");
    chmodSync(shell, 0o755);
    try {
      expect(findChromium({ env: { PATH: `${dir}${path.delimiter}${other}` }, npmChromium: noNpmChromium })).toBe(shell);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("finds Google Chrome on PATH when there is no chromium", () => {
    const chrome = fakeBinary("google-chrome");
    expect(findChromium({ env: { PATH: dir }, npmChromium: noNpmChromium })).toBe(chrome);
  });

  it("ignores a file named chromium that cannot be run", () => {
    fakeBinary("chromium", 0o644);
    expect(findChromium({ env: { PATH: dir }, npmChromium: noNpmChromium })).toBeUndefined();
  });

  it("falls back to a Chromium installed through npm", () => {
    const installed = fakeBinary("chrome");
    expect(findChromium({ env: { PATH: "/nonexistent" }, npmChromium: () => installed })).toBe(installed);
  });

  it("finds nothing on a machine without a browser", () => {
    expect(findChromium({ env: { PATH: dir }, npmChromium: () => path.join(dir, "not-installed/chrome") })).toBeUndefined();
  });

  it("uses CHROMIUM_PATH alone when it is set, and reports a wrong one instead of looking elsewhere", () => {
    fakeBinary("chromium");
    const custom = fakeBinary("my-chrome");
    expect(findChromium({ env: { CHROMIUM_PATH: custom, PATH: dir }, npmChromium: noNpmChromium })).toBe(custom);
    expect(findChromium({ env: { CHROMIUM_PATH: "/nonexistent/chromium", PATH: dir }, npmChromium: noNpmChromium })).toBeUndefined();
  });
});
