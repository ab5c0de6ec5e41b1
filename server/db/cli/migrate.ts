/** `npm run db:migrate`: applies migrations (and the demo seed unless SEED_DEMO_DATA=false), then exits. */
import { env } from "../../config/env";
import { openDatabase } from "../client";
import { databaseTarget } from "../index.server";
import { seedDemoAccounts } from "../seed/demo-accounts";
import { seedDemoData } from "../seed/seed";

const handle = await openDatabase(databaseTarget());
try {
  await handle.migrate(async (db) => {
    if (!env().SEED_DEMO_DATA) return;
    const { seeded } = await seedDemoData(db);
    console.log(seeded ? "Demo data seeded." : "Database already has data; seed skipped.");
    const accounts = await seedDemoAccounts(db);
    if (accounts.seeded) console.log("Demo accounts seeded.");
  });
  console.log(`Migrations applied on ${handle.kind}.`);
} finally {
  await handle.close();
}
