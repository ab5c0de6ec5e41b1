/** `npm run jobs:run`: one pass of every due job, for a scheduler (cron, systemd timer) in production. */
import { openDatabase } from "../db/client";
import { databaseTarget } from "../db/index.server";
import { runDueJobs } from "./run-due-jobs";

const handle = await openDatabase(databaseTarget());
try {
  await handle.migrate();
  const report = await runDueJobs(handle.db, { now: new Date() });
  console.log(JSON.stringify(report));
} finally {
  await handle.close();
}
