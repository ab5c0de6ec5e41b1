import { asc } from "drizzle-orm";
import type { Database } from "../db/client";
import { organizations } from "../db/schema";

export interface Organization {
  id: number;
  title: string;
  description: string;
  image: string | null;
}

/** Spec §7: all rows by created_at ascending. Error catalogue: a failed read gives an empty list. */
export async function listOrganizations(db: Database): Promise<Organization[]> {
  try {
    return await db
      .select({
        id: organizations.id,
        title: organizations.title,
        description: organizations.description,
        image: organizations.image,
      })
      .from(organizations)
      .orderBy(asc(organizations.createdAt), asc(organizations.id));
  } catch (error) {
    console.error("Could not read organizations", error);
    return [];
  }
}
