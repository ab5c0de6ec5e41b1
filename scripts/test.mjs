#!/usr/bin/env node
// `npm test`: every suite (unit, db, e2e) in one Vitest run, closed by the plain
// `N passed, N failed` line CI reads. Extra arguments go to Vitest (e.g. `-- --project unit`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { projectRoot } from "./build-if-stale.mjs";
import { CHROMIUM_MISSING, findChromium } from "./find-chromium.mjs";
import { findNginx, NGINX_MISSING } from "./find-nginx.mjs";

/** Whether this run includes a project: every project runs unless `--project` names others. */
function runsProject(args, name) {
  const projects = args.flatMap((arg, index) => (arg === "--project" ? [args[index + 1]] : arg.startsWith("--project=") ? [arg.slice(10)] : []));
  return projects.length === 0 || projects.includes(name);
}

// Without a browser the run would end in a failure per browser test: one line instead, at once.
if (runsProject(process.argv.slice(2), "e2e") && !findChromium()) {
  console.log(CHROMIUM_MISSING);
  process.exit(1);
}

// With DATABASE_URL the reliability project adds the two-process scenarios behind nginx (vitest.config.ts).
if (process.env.DATABASE_URL && runsProject(process.argv.slice(2), "reliability") && !findNginx()) {
  console.log(NGINX_MISSING);
  process.exit(1);
}

const reportDir = mkdtempSync(path.join(tmpdir(), "shop-test-report-"));
const reportFile = path.join(reportDir, "report.json");
const run = spawnSync(
  path.join(projectRoot, "node_modules/.bin/vitest"),
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`, ...process.argv.slice(2)],
  { cwd: projectRoot, stdio: "inherit" },
);

let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  passed = report.numPassedTests;
  // Tests that never ran because their file crashed count as failures, not as silence.
  const crashedFiles = report.testResults.filter((file) => file.status === "failed" && file.assertionResults.length === 0);
  for (const file of crashedFiles) {
    const reason = String(file.message ?? "")
      .split("\n")[0]
      .slice(0, 200);
    console.log(`Test file failed before running its tests: ${path.relative(projectRoot, file.name)} — ${reason}`);
  }
  failed = report.numFailedTests + crashedFiles.length;
  // Named again here, one line each, so the tail of a long CI log says which tests failed and why.
  for (const file of report.testResults) {
    for (const test of file.assertionResults.filter((result) => result.status === "failed")) {
      const reason = String(test.failureMessages?.[0] ?? "")
        .split("\n")[0]
        .slice(0, 200);
      console.log(`FAILED ${path.relative(projectRoot, file.name)} › ${test.fullName} — ${reason}`);
    }
  }
  if (report.numPendingTests || report.numTodoTests) {
    console.log(`${report.numPendingTests + report.numTodoTests} tests were skipped or todo: not allowed here.`);
    failed += report.numPendingTests + report.numTodoTests;
  }
} catch {
  failed = Math.max(failed, 1);
  console.log("No test report was written: the run crashed before finishing.");
} finally {
  rmSync(reportDir, { recursive: true, force: true });
}
if (passed + failed === 0) {
  console.log("No test ran.");
  failed = 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
