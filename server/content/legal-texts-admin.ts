import { desc, eq } from "drizzle-orm";
import { legalTextSchema } from "@core/content-schemas";
import { limaToday } from "@core/lima-dates";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { legalTexts, legalTextVersions } from "../db/schema";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction } from "../db/transaction";
import { parseContent, type ContentSaveResult } from "./content-edit";
import { sanitizeLegalHtml, type LegalTextSlug } from "./legal-texts";

export const LEGAL_TEXT_SLUGS: readonly LegalTextSlug[] = ["terminos-condiciones", "politica-privacidad"];

export function isLegalTextSlug(value: string | undefined): value is LegalTextSlug {
  return LEGAL_TEXT_SLUGS.includes(value as LegalTextSlug);
}

export interface LegalTextVersion {
  id: number;
  title: string;
  effectiveOn: string;
  savedBy: string;
  savedAt: Date;
}

/** The current text as stored (placeholders unfilled, as staff wrote it), fresh from the table. */
export async function readLegalTextForEditing(db: Database, slug: LegalTextSlug) {
  const [row] = await db.select().from(legalTexts).where(eq(legalTexts.slug, slug));
  return row ?? null;
}

/** Every saved version, newest first (issue 11: all are kept). */
export function listLegalTextVersions(db: Database, slug: LegalTextSlug): Promise<LegalTextVersion[]> {
  return db
    .select({
      id: legalTextVersions.id,
      title: legalTextVersions.title,
      effectiveOn: legalTextVersions.effectiveOn,
      savedBy: legalTextVersions.savedBy,
      savedAt: legalTextVersions.savedAt,
    })
    .from(legalTextVersions)
    .where(eq(legalTextVersions.slug, slug))
    .orderBy(desc(legalTextVersions.id));
}

/**
 * Saves a new version of a legal text: sanitized as the page will show it (so what is kept is what
 * was published), appended to the versions, made current with today's Lima date (the public page's
 * "Última actualización"), audited, and every process's cached page forgotten — one transaction.
 */
export async function saveLegalText(db: Database, actor: StaffActor, slug: LegalTextSlug, raw: Record<string, unknown>, now: Date): Promise<ContentSaveResult> {
  const parsed = parseContent(legalTextSchema, raw);
  if (!parsed.ok) return parsed;
  const contentHtml = sanitizeLegalHtml(parsed.data.html);
  if (contentHtml.replace(/<[^>]*>/g, "").trim().length < 20)
    return { ok: false, reason: "invalid", fieldErrors: { html: "El texto quedó vacío al quitar el formato no permitido: revisa las etiquetas" } };
  const title = parsed.data.title;
  const effectiveOn = limaToday(now);
  return inTransaction(db, async (tx) => {
    const [current] = await tx.select().from(legalTexts).where(eq(legalTexts.slug, slug)).for("update");
    if (!current) return { ok: false, reason: "not_found" } as const;
    // The same text saved again (a double click, a retry) is not a new version.
    if (current.title === title && current.contentHtml === contentHtml) return { ok: true } as const;
    await tx.update(legalTexts).set({ title, contentHtml, updatedOn: effectiveOn }).where(eq(legalTexts.slug, slug));
    const [version] = await tx
      .insert(legalTextVersions)
      .values({ slug, title, contentHtml, effectiveOn, savedBy: actor.email, savedAt: now })
      .returning({ id: legalTextVersions.id });
    await recordStaffAction(tx, actor, {
      action: "legal_text.update",
      entityType: "legal_text",
      entityId: slug,
      before: { title: current.title, updatedOn: current.updatedOn, length: current.contentHtml.length },
      after: { title, updatedOn: effectiveOn, length: contentHtml.length, versionId: version!.id },
    });
    await invalidateStorefront(tx, `legal_text.update:${slug}`);
    return { ok: true, id: version!.id } as const;
  });
}
