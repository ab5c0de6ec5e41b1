import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { cachedRead } from "../db/read-cache";
import { organizations } from "../db/schema";

export interface Organization {
  id: number;
  title: string;
  description: string;
  image: string | null;
}

/** Spec §7: all active rows by created_at ascending (inactive ones are kept for past votes, not shown). Error catalogue: a failed read gives an empty list. */
const readOrganizations = cachedRead((db: Database) =>
  db
    .select({
      id: organizations.id,
      title: organizations.title,
      description: organizations.description,
      image: organizations.image,
    })
    .from(organizations)
    .where(eq(organizations.active, true))
    .orderBy(asc(organizations.createdAt), asc(organizations.id)),
);

export async function listOrganizations(db: Database): Promise<Organization[]> {
  try {
    return await readOrganizations(db);
  } catch (error) {
    console.error("Could not read organizations", error);
    return [];
  }
}
