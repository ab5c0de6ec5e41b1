/**
 * The setup of the integration tests of the admin's storefront editors (content, product gallery):
 * a seeded database, the demo admin as the acting staff member, and the storefront's read cache on
 * as in production, so that every change must show on the public reads at once.
 */
import { eq } from "drizzle-orm";
import type { StaffActor } from "@server/audit/index.server";
import { overrideReadCacheTtl } from "@server/db/read-cache";
import { cacheGenerations, users } from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { createTestDatabase, type TestDatabase } from "./test-database";

export async function openStorefrontAdmin(): Promise<{ test: TestDatabase; admin: StaffActor }> {
  const test = await createTestDatabase("seeded");
  const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email));
  const admin: StaffActor = { id: row!.id, email: DEMO_ADMIN.email, role: "admin", clientAddress: "203.0.113.9" };
  overrideReadCacheTtl(60_000);
  return { test, admin };
}

export async function closeStorefrontAdmin(test: TestDatabase): Promise<void> {
  overrideReadCacheTtl(null);
  await test.close();
}

/** The storefront's cache generation: each admin change that the shop's pages show bumps it. */
export async function storefrontGeneration(test: TestDatabase): Promise<number> {
  return (await test.db.select().from(cacheGenerations).where(eq(cacheGenerations.scope, "storefront")))[0]?.generation ?? 0;
}
