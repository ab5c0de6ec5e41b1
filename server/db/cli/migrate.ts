/** `npm run db:migrate`: applies migrations and the seeds SEED_BASE_DATA and SEED_DEMO_DATA ask for, then exits. */
import { env } from "../../config/env";
import { openDatabase } from "../client";
import { databaseTarget } from "../index.server";
import { seedOnStart } from "../seed/seed";

const config = env();
const handle = await openDatabase(databaseTarget());
try {
  await handle.migrate(async (db) => {
    const seeded = await seedOnStart(db, { base: config.SEED_BASE_DATA, demo: config.SEED_DEMO_DATA });
    if (seeded.base) console.log("Base data seeded (settings, catalogue, districts, content).");
    if (seeded.demo) console.log("Demo accounts seeded.");
  });
  console.log(`Migrations applied on ${handle.kind}.`);
} finally {
  await handle.close();
}
