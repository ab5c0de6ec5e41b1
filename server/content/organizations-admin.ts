import { and, asc, eq } from "drizzle-orm";
import { organizationSchema } from "@core/content-schemas";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { organizations } from "../db/schema";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction } from "../db/transaction";
import { savingUploadedImage, writeUploadedImage, type PreparedImage } from "../media/index.server";
import { changesNothing, oneCreateAtATime, parseContent, type ContentSaveResult } from "./content-edit";

export type OrganizationRow = typeof organizations.$inferSelect;

/** Every organisation, active or not, in the public page's order. */
export function listAllOrganizations(db: Database): Promise<OrganizationRow[]> {
  return db.select().from(organizations).orderBy(asc(organizations.createdAt), asc(organizations.id));
}

export async function findOrganizationForEditing(db: Database, id: number): Promise<OrganizationRow | null> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row ?? null;
}

const audited = (row: Pick<OrganizationRow, "title" | "description" | "image" | "active">) => ({
  title: row.title,
  description: row.description,
  image: row.image,
  active: row.active,
});

/** A new organisation customers can vote for and support (issue 11). */
export async function createOrganization(db: Database, actor: StaffActor, raw: Record<string, unknown>): Promise<ContentSaveResult> {
  const parsed = parseContent(organizationSchema, raw);
  if (!parsed.ok) return parsed;
  return inTransaction(db, async (tx) => {
    await oneCreateAtATime(tx, "organization");
    // The same form posted again (double click, retry) gives the row the first post created.
    const [same] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.title, parsed.data.title), eq(organizations.description, parsed.data.description)));
    if (same) return { ok: true, id: same.id } as const;
    const [row] = await tx.insert(organizations).values(parsed.data).returning();
    await recordStaffAction(tx, actor, { action: "organization.create", entityType: "organization", entityId: String(row!.id), after: audited(row!) });
    await invalidateStorefront(tx, "organization.create");
    return { ok: true, id: row!.id } as const;
  });
}

/**
 * Text, logo and active flag. There is no delete: votes and subscriptions name organisations, so
 * one that should go is made inactive (it leaves the public list and takes no new votes).
 * `logo`: an uploaded logo, which replaces `raw.image` with its 800-pixel version (the cards draw
 * it up to 480 pixels wide); its files are written by this save once nothing refuses it (decision
 * 0065). The logo it replaces stays on disk until the media sweep finds no row naming it.
 */
export async function updateOrganization(
  db: Database,
  actor: StaffActor,
  id: number,
  raw: Record<string, unknown>,
  logo?: PreparedImage,
): Promise<ContentSaveResult> {
  const parsed = parseContent(organizationSchema, logo ? { ...raw, image: logo.largePath } : raw);
  if (!parsed.ok) return parsed;
  return savingUploadedImage(db, logo, () =>
    inTransaction(db, async (tx) => {
      const [before] = await tx.select().from(organizations).where(eq(organizations.id, id)).for("update");
      if (!before) return { ok: false, reason: "not_found" } as const;
      if (changesNothing(before, parsed.data)) return { ok: true, id } as const;
      await tx.update(organizations).set(parsed.data).where(eq(organizations.id, id));
      await recordStaffAction(tx, actor, {
        action: "organization.update",
        entityType: "organization",
        entityId: String(id),
        before: audited(before),
        after: parsed.data,
      });
      await invalidateStorefront(tx, "organization.update");
      // Last, after every check that could refuse the save: a refused form leaves no file behind.
      if (logo) await writeUploadedImage(tx, logo);
      return { ok: true, id } as const;
    }),
  );
}
