import type { TestProject } from "vitest/node";
import { buildDatabaseTemplates, type DatabaseTemplates } from "./database-templates";

/**
 * The templates are built once per Vitest run and shared by every project that lists this file
 * (db, stress, e2e, reliability). Vitest runs each project's global setup in its own module
 * instance, one after the other, before any test; each built its own identical pair: four
 * migrate-and-seed runs per pass where one does (docs/decisions/0068-test-suite-third-round.md).
 * The last project to tear down drops them (Vitest tears every project down at the end of the run).
 */
interface SharedTemplates {
  ready: Promise<{ templates: DatabaseTemplates; cleanup: () => Promise<void> }>;
  users: number;
}

const key = Symbol.for("shop.tests.databaseTemplates");
const shared = globalThis as typeof globalThis & { [key]?: SharedTemplates };

export default async function setup(project: TestProject) {
  const entry = (shared[key] ??= { ready: buildDatabaseTemplates(), users: 0 });
  entry.users += 1;
  const { templates, cleanup } = await entry.ready;
  project.provide("databaseTemplates", templates);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared[key];
    await cleanup();
  };
}
