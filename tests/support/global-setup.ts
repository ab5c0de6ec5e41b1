import type { TestProject } from "vitest/node";
import { buildDatabaseTemplates } from "./database-templates";

export default async function setup(project: TestProject) {
  const { templates, cleanup } = await buildDatabaseTemplates();
  project.provide("databaseTemplates", templates);
  return cleanup;
}
