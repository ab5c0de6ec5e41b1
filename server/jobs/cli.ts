/**
 * `npm run jobs:run`: one pass of every due job, for a scheduler (cron, systemd timer) in production.
 *   npm run jobs:run                         every job; exits 1 if any job failed
 *   npm run jobs:run -- emails expiredOrders only the named jobs
 *   npm run jobs:run -- dead-emails          lists the emails given up on
 *   npm run jobs:run -- retry-email <id>…    makes dead emails due again (then `-- emails` sends them)
 */
import { openDatabase } from "../db/client";
import { databaseTarget } from "../db/index.server";
import { listDeadEmails, retryDeadEmail } from "../notifications/index.server";
import { jobNames, runDueJobs, type JobName } from "./run-due-jobs";

const [command, ...rest] = process.argv.slice(2);
const usage = `Usage: npm run jobs:run [-- <job>… | dead-emails | retry-email <id>…]\nJobs: ${jobNames.join(", ")}`;

if (command === "--help" || command === "-h") {
  console.log(usage);
  process.exit(0);
}
const args = command === undefined ? [] : [command, ...rest];
const unknown = command === "dead-emails" || command === "retry-email" ? [] : args.filter((name) => !jobNames.includes(name as JobName));
if (unknown.length > 0 || (command === "retry-email" && rest.length === 0)) {
  console.error(unknown.length > 0 ? `Unknown job: ${unknown.join(", ")}\n${usage}` : usage);
  process.exit(2);
}

const handle = await openDatabase(databaseTarget());
let exitCode = 0;
try {
  await handle.migrate();
  if (command === "dead-emails") {
    const dead = await listDeadEmails(handle.db, { limit: 500 });
    for (const email of dead) {
      console.log(
        `${email.id}  ${email.deadAt?.toISOString() ?? "-"}  ${email.kind}  ${email.to}  attempts=${email.attempts}  ${email.subject}\n    last error: ${email.lastError ?? "-"}`,
      );
    }
    console.log(`${dead.length} dead email(s)`);
  } else if (command === "retry-email") {
    for (const id of rest) {
      const result = await retryDeadEmail(handle.db, id, new Date());
      console.log(result.ok ? `${id}: due again` : `${id}: ${result.reason === "not_dead" ? "not a dead email" : "no such email"}`);
      if (!result.ok) exitCode = 1;
    }
  } else {
    const report = await runDueJobs(handle.db, { now: new Date(), only: args.length > 0 ? (args as JobName[]) : undefined });
    console.log(JSON.stringify(report));
    if (report.failures.length > 0) exitCode = 1;
  }
} finally {
  await handle.close();
}
process.exit(exitCode);
